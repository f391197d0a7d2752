/** The refusals of the draws endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';
import { formatDate, toDigits } from '../dates.ts';
import type { Language } from '../i18n.ts';

/** A drand round is a name: written without grouping, in the language's digits (as the draw page shows it). */
const round = (vars: Record<string, unknown>, lng: Language) => ({ ...vars, round: toDigits(String(vars.round), lng) });

export const drawsRefusals = refusals({
  // The lottery drawn, named in the path or in the body.
  draw_lottery_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:lotteryNotFound',
    when: 'No lottery (no published one, for its proof) has this id.',
  },
  draw_lottery_id_not_found: {
    status: 404,
    code: 'not_found',
    field: 'lottery_id',
    text: 'api:lotteryNotFound',
    when: 'No lottery has the id `lottery_id`.',
  },
  draw_already_finished: {
    status: 409,
    code: 'already_drawn',
    text: 'api:drawAlreadyFinished',
    when: 'The lottery has been drawn already (its results published, or taken back).',
  },
  draw_sales_open: { status: 409, code: 'sales_open', text: 'api:drawSalesOpen', when: "The lottery's sales have not ended yet." },
  frozen_differs: {
    status: 409,
    text: 'api:drawFrozenDiffers',
    when: 'The paid tickets no longer give the digest frozen at the end of sales (docs/rules/draws.md#3-the-tickets).',
  },
  // Winners chosen by hand, proposed by one staff member and approved by another.
  numbers_kind: { status: 409, text: 'api:drawNumbersByProcedure', when: 'A numbers lottery is drawn by the verifiable draw only.' },
  draw_ticket_twice: { status: 400, field: 'tickets', text: 'api:drawTicketTwice', when: 'A ticket is chosen twice.' },
  draw_too_many_tickets: {
    status: 400,
    field: 'tickets',
    text: 'api:drawTooManyTickets',
    when: "More tickets are chosen than the lottery's winners.",
  },
  draw_ticket_not_sold: {
    status: 400,
    field: 'tickets',
    text: 'api:drawTicketNotSold',
    when: 'A chosen ticket is not a success ticket of the lottery (one message per such ticket).',
  },
  draw_own_ticket: {
    status: 403,
    code: 'own_ticket',
    text: 'api:drawOwnTicket',
    when: 'The caller holds a chosen ticket: nobody names, or approves, his own ticket a winner.',
  },
  draw_proposer_ticket: {
    status: 403,
    code: 'own_ticket',
    text: 'api:drawProposerTicket',
    when: 'The staff member who proposed the winners holds a chosen ticket.',
  },
  draw_proposal_pending: {
    status: 409,
    code: 'proposal_pending',
    text: 'api:drawProposal.pending',
    when: 'Winners are proposed for this lottery already, and that proposal is not decided yet.',
  },
  draw_proposal_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:drawProposal.notFound',
    when: 'No proposal of winners has this id.',
  },
  draw_proposal_decided: {
    status: 409,
    code: 'proposal_decided',
    text: 'api:drawProposal.decided',
    when: 'The proposal of winners was approved or rejected already.',
  },
  second_staff_required: {
    status: 403,
    text: 'api:drawProposal.secondStaff',
    when: 'The caller proposed these winners: a second staff member approves them.',
  },
  // The verifiable draw and its beacon (docs/rules/draws.md).
  draw_not_announced: {
    status: 409,
    code: 'not_announced',
    text: 'api:drawNotAnnounced',
    when: "The lottery's draw was never announced (it is not published).",
  },
  beacon_missing: { status: 409, text: 'api:drawNoBeacon', when: "The beacon's value of the announced round is not entered yet." },
  beacon_unverified: {
    status: 409,
    text: 'api:drawBeaconUnverified',
    when: "The beacon's value was typed without drand's signature: only a verified beacon draws.",
  },
  draw_try_again: {
    status: 409,
    code: 'try_again',
    text: 'api:drawTryAgain',
    when: 'The lottery named to receive the jackpot changed while the draw was being made: draw again.',
  },
  draw_no_tickets: {
    status: 409,
    code: 'no_tickets',
    text: 'api:drawNoTickets',
    when: 'No ticket of the lottery was paid: nothing to draw from.',
  },
  seed_unopenable: {
    status: 409,
    text: 'api:drawSeedUnopenable',
    when: "The draw's secret seed is sealed under a key this server does not hold: nothing is drawn.",
  },
  rollover_target_missing: {
    status: 409,
    text: 'api:rolloverTargetMissing',
    when: 'Nobody won the jackpot and no numbers lottery is named to receive it.',
  },
  rollover_target_drawn: {
    status: 409,
    code: 'rollover_target_missing',
    text: 'api:rolloverTargetDrawn',
    when: 'The lottery named to receive the jackpot is drawn, or is not a numbers lottery.',
  },
  beacon_not_yet: {
    status: 409,
    text: 'api:beaconNotYet',
    when: 'The announced drand round has not come yet: nobody knows its value before (`at` in the text).',
    format: (vars, lng) => ({
      ...round(vars, lng),
      at: formatDate(String(vars.at), lng, { withTime: true }) ?? vars.at,
    }),
  },
  beacon_signature_invalid: {
    status: 400,
    field: 'signature',
    text: 'api:beaconSignatureInvalid',
    when: "The signature is not drand quicknet's signature of the announced round.",
    format: round,
  },
  beacon_set: {
    status: 409,
    text: 'api:beaconVerifiedDiffers',
    when: "The beacon was verified against drand's signature already, and this value differs from it.",
  },
  beacon_round_passed: {
    status: 409,
    field: 'end_date',
    text: 'api:beaconRoundPassed',
    when: "Sales ended and the draw's beacon round has come: the end of sales can no longer move.",
  },
  // Choosing a ticket at random, and telling the winners.
  no_tickets_left: { status: 409, text: 'api:drawAdmin.noneLeft', when: 'No success ticket of the lottery is left to choose.' },
  notify_results_not_published: {
    status: 409,
    code: 'results_not_published',
    text: 'api:drawAdmin.notPublished',
    when: "The lottery's results are not published yet.",
  },
  winners_notify_failed: {
    status: 503,
    code: 'send_failed',
    text: 'api:drawAdmin.notifyFailed',
    when: 'No message to a winner could be sent (each prize is tried again at the next press).',
  },
  // Withholding a prize, by two (docs/decisions/055-withholding-by-two.md).
  withholding_prize_not_found: { status: 404, code: 'not_found', text: 'api:drawAdmin.prizeNotFound', when: 'No prize has this id.' },
  withholding_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:withholding.notFound',
    when: 'No proposal to withhold a prize has this id.',
  },
  withholding_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:withholding.superuserOnly',
    when: 'Only a superuser proposes withholding a prize.',
  },
  withholding_same_person: {
    status: 403,
    code: 'same_person',
    text: 'api:withholding.samePerson',
    when: 'The caller proposed withholding this prize: a second staff member approves it.',
  },
  withholding_pending: {
    status: 409,
    code: 'proposal_pending',
    text: 'api:withholding.pending',
    when: 'Withholding the prize is proposed already (`proposal_id` names that proposal).',
  },
  withholding_decided: {
    status: 409,
    code: 'proposal_decided',
    text: 'api:withholding.decided',
    when: 'The proposal to withhold the prize was decided (or withdrawn) already.',
  },
  prize_withheld_already: { status: 409, code: 'prize_withheld', text: 'api:withholding.already', when: 'The prize is withheld already.' },
  withholding_prize_paid: { status: 409, code: 'prize_paid', text: 'api:withholding.prizePaid', when: 'The prize has been paid.' },
  withholding_claim_in_progress: {
    status: 409,
    code: 'claim_in_progress',
    text: 'api:withholding.claimInProgress',
    when: 'The winner has submitted payout details and is being paid.',
  },
});
