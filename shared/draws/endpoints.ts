/** The draws endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { BeaconBody, DrawProofReply } from './proof.ts';
import {
  DrawBody,
  DrawProposal,
  DrawReply,
  LotteryIdParams,
  NotifyBody,
  NotifyReply,
  Participant,
  ParticipantsQuery,
  Prize,
  PrizeIdParams,
  ProposalIdParams,
  RandomWinnerBody,
} from './schemas.ts';
import { WithholdingProposal, WithholdingReasonBody } from './withholding.ts';

/** The checks of winning tickets chosen by hand, at the proposal and again at the approval (server/draws/service.ts checkChosen). */
const CHECKS_OF_CHOSEN = [
  'draw_already_finished',
  'numbers_kind',
  'draw_sales_open',
  'frozen_differs',
  'draw_ticket_twice',
  'draw_too_many_tickets',
  'draw_ticket_not_sold',
  'draw_own_ticket',
] as const;

export const drawsEndpoints = {
  drawProof: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/draw-proof/',
    access: 'public',
    tag: 'lotteries',
    params: IdParams,
    reply: DrawProofReply,
    refuses: ['draw_lottery_not_found'],
    summary:
      "The proof of a published lottery's draw (docs/rules/draws.md): before the draw the commitment to its secret seed and " +
      'the drand round that will give the beacon; a draw made without the procedure says it cannot be checked.',
  }),
  setDrawBeacon: endpoint({
    method: 'PUT',
    path: '/api/v1/lotteries/:id/draw-beacon/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    body: BeaconBody,
    reply: DrawProofReply,
    refuses: [
      'draw_lottery_not_found',
      'draw_not_announced',
      'draw_already_finished',
      'beacon_not_yet',
      'beacon_signature_invalid',
      'beacon_set',
    ],
    summary:
      "The beacon value of the lottery's announced drand round, as any drand relay shows it, or the round's signature, " +
      "verified against drand quicknet's public key: only after the round's time, once; recorded with who entered it " +
      '(docs/rules/draws.md#4-the-beacon). Answers the proof as it now is.',
  }),
  verifiableDraw: endpoint({
    method: 'POST',
    path: '/api/v1/lotteries/:id/verifiable-draw/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    reply: DrawReply,
    status: 201,
    refuses: [
      'draw_lottery_not_found',
      'draw_already_finished',
      'draw_not_announced',
      'draw_sales_open',
      'beacon_missing',
      'beacon_unverified',
      'frozen_differs',
      'draw_try_again',
      'seed_unopenable',
      'rollover_target_missing',
      'rollover_target_drawn',
      'draw_no_tickets',
    ],
    summary:
      "Draws the lottery's winners by the procedure bhagya-draw-v1 once sales are closed and the beacon value is known: " +
      'prizes as every draw makes them, results published, the seed revealed in the proof; once per lottery; audited. A numbers ' +
      'lottery draws its numbers instead: each ticket paid its best tier, a jackpot nobody won rolled into its rollover target.',
  }),
  // The draw and prizes ----------------------------------------------------------------------------
  drawLottery: endpoint({
    method: 'POST',
    path: '/api/v1/draw-lottery/',
    access: 'staff',
    tag: 'draws',
    body: DrawBody,
    reply: DrawProposal,
    status: 202,
    refuses: ['draw_lottery_id_not_found', ...CHECKS_OF_CHOSEN, 'draw_proposal_pending'],
    summary:
      'Proposes winning tickets chosen by staff (each a success transaction of that lottery, no duplicates, at most the ' +
      "lottery's winners) with the reason, as an unverifiable draw: nothing is paid until a second staff member approves " +
      'it; one pending proposal per lottery; only after the end of sales, from the frozen tickets (409 `sales_open`), ' +
      'never a ticket the proposer holds (403 `own_ticket`); audited.',
  }),
  drawProposals: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/draw-proposals/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    reply: z.array(DrawProposal),
    refuses: ['draw_lottery_not_found'],
    summary: "A lottery's proposed unverifiable draws, newest first.",
  }),
  approveDrawProposal: endpoint({
    method: 'POST',
    path: '/api/v1/draw-proposals/:proposalId/approve/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    reply: DrawReply,
    status: 201,
    refuses: ['draw_proposal_not_found', 'draw_proposal_decided', 'second_staff_required', ...CHECKS_OF_CHOSEN, 'draw_proposer_ticket'],
    summary:
      'Approves a pending proposal as a second staff member (never the one who proposed it) and finishes the draw with its ' +
      'tickets, checked again (after the end of sales, none held by either staff member): one prize per ticket, the ' +
      "lottery's total prize split equally in whole taka, results published; audited with both staff members.",
  }),
  rejectDrawProposal: endpoint({
    method: 'POST',
    path: '/api/v1/draw-proposals/:proposalId/reject/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    reply: DrawProposal,
    refuses: ['draw_proposal_not_found', 'draw_proposal_decided'],
    summary: 'Rejects a pending proposal (its author may withdraw it the same way); nothing is paid; audited.',
  }),
  lotteryPrizes: endpoint({
    method: 'GET',
    path: '/api/v1/get-prizes/:lotteryId/',
    access: 'staff',
    tag: 'draws',
    params: LotteryIdParams,
    reply: z.array(Prize),
    refuses: ['draw_lottery_not_found'],
    summary: "A lottery's prizes, in the order the draw chose them.",
  }),
  participants: endpoint({
    method: 'GET',
    path: '/api/v1/get-participators/:lotteryId/',
    access: 'staff',
    tag: 'draws',
    params: LotteryIdParams,
    query: ParticipantsQuery,
    reply: z.array(Participant),
    paged: true,
    refuses: ['draw_lottery_not_found'],
    summary: "A lottery's participants (its success transactions) in the order bought, searched by name, phone or ticket; paged.",
  }),
  randomWinner: endpoint({
    method: 'POST',
    path: '/api/v1/draw-lottery/random-winner/',
    access: 'staff',
    tag: 'draws',
    body: RandomWinnerBody,
    reply: Participant,
    refuses: ['draw_lottery_id_not_found', 'draw_already_finished', 'no_tickets_left'],
    summary:
      "One of the lottery's success tickets chosen by the server with a cryptographic random number, none of those excluded; " +
      '409 when none is left or the lottery was drawn.',
  }),
  proposeWithholding: endpoint({
    method: 'POST',
    path: '/api/v1/prizes/:prizeId/withholding-proposals/',
    access: 'staff',
    tag: 'draws',
    params: PrizeIdParams,
    body: WithholdingReasonBody,
    reply: WithholdingProposal,
    status: 201,
    refuses: [
      'withholding_superuser_only',
      'withholding_prize_not_found',
      'prize_withheld_already',
      'withholding_prize_paid',
      'withholding_claim_in_progress',
      'withholding_pending',
      'withholding_not_found',
    ],
    summary:
      'Superusers: proposes withholding a prize (fraud, a court order) with the reason; nothing changes until a second staff ' +
      'member approves. Refused (409) when the prize is withheld already, its winner submitted payout details or was paid, ' +
      'or a proposal is pending; audited.',
  }),
  lotteryWithholdings: endpoint({
    method: 'GET',
    path: '/api/v1/lotteries/:id/withholding-proposals/',
    access: 'staff',
    tag: 'draws',
    params: IdParams,
    reply: z.array(WithholdingProposal),
    refuses: [],
    summary: "Proposals to withhold a lottery's prizes, newest first, with who proposed and who decided, and why.",
  }),
  approveWithholding: endpoint({
    method: 'POST',
    path: '/api/v1/withholding-proposals/:proposalId/approve/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    body: WithholdingReasonBody,
    reply: WithholdingProposal,
    refuses: [
      'withholding_not_found',
      'withholding_prize_not_found',
      'withholding_decided',
      'withholding_same_person',
      'prize_withheld_already',
      'withholding_prize_paid',
      'withholding_claim_in_progress',
    ],
    summary:
      'A second staff member (never the author) approves a pending proposal with a reason: the prize is withheld with the ' +
      "proposal's reason (it stays in the results and the proof, marked withheld) and its winner is told; audited.",
  }),
  rejectWithholding: endpoint({
    method: 'POST',
    path: '/api/v1/withholding-proposals/:proposalId/reject/',
    access: 'staff',
    tag: 'draws',
    params: ProposalIdParams,
    body: WithholdingReasonBody,
    reply: WithholdingProposal,
    refuses: ['withholding_not_found', 'withholding_prize_not_found', 'withholding_decided'],
    summary: 'Rejects a pending proposal with a reason (its author withdraws it the same way); the prize stays; audited.',
  }),
  notifyWinners: endpoint({
    method: 'POST',
    path: '/api/v1/notify-winners/',
    access: 'staff',
    tag: 'draws',
    body: NotifyBody,
    reply: NotifyReply,
    refuses: ['draw_lottery_id_not_found', 'notify_results_not_published', 'winners_notify_failed'],
    summary:
      'Sends each winner of a published draw his message (SMS, or e-mail without a phone), once per prize even when pressed ' +
      'twice; 409 before the results are published; audited.',
  }),
} as const;
