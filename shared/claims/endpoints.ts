/** The claims endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import type { RefusalName } from '../api/refusals.ts';
import { CodeSent } from '../accounts/schemas.ts';
import { IdParams, Paging } from '../lotteries/schemas.ts';
import {
  BkashBalanceReply,
  ClaimBody,
  ClaimCodeBody,
  ClaimsSummary,
  SettlePayoutBody,
  StaffClaim,
  StaffClaimsQuery,
  TransferBody,
  WinningTicket,
} from './schemas.ts';

/** What refuses a player's code and his payout details alike: the limits, then the prize's own state (Claims.refusal). */
const CLAIMING = [
  'throttled',
  'claim_prize_not_found',
  'claim_prize_withheld',
  'claim_already_submitted',
  'claim_period_over',
  'claim_held',
] as const satisfies readonly RefusalName[];

/** What refuses approving and completing a transfer alike: the claim's state, the hold and four eyes (shared/claims/payout.ts). */
const MOVING = [
  'claim_not_found',
  'transfer_not_ready',
  'transfer_held',
  'transfer_own_prize',
  'transfer_changed_account',
] as const satisfies readonly RefusalName[];

export const claimsEndpoints = {
  // Prizes and claims -------------------------------------------------------------------------------
  myWinningTickets: endpoint({
    method: 'GET',
    path: '/api/v1/my-winning-tickets/',
    access: 'user',
    tag: 'claims',
    query: Paging,
    reply: z.array(WinningTicket),
    paged: true,
    refuses: [],
    summary: "The caller's winning tickets of published results, newest draw first, with their claim and claim deadline; paged.",
  }),
  myWinningTicket: endpoint({
    method: 'GET',
    path: '/api/v1/my-winning-tickets/:id/',
    access: 'user',
    tag: 'claims',
    params: IdParams,
    reply: WinningTicket,
    refuses: ['claim_prize_not_found'],
    summary: "One of the caller's winning tickets by its prize id (another player's prize is 404).",
  }),
  sendClaimCode: endpoint({
    method: 'POST',
    path: '/api/v1/send-prize-claim-otp/',
    access: 'user',
    tag: 'claims',
    body: ClaimCodeBody,
    reply: CodeSent,
    refuses: [...CLAIMING, 'claim_account_gone', 'code_send_failed'],
    summary: "Sends a 6-digit claim code for the caller's own prize to his phone or e-mail; again only after 30 s.",
  }),
  submitClaim: endpoint({
    method: 'POST',
    path: '/api/v1/submit-prize-claim/',
    access: 'user',
    tag: 'claims',
    body: ClaimBody,
    reply: WinningTicket,
    refuses: [...CLAIMING, 'otp_wrong', 'otp_expired', 'otp_exhausted', 'otp_none'],
    summary:
      'The payout details of the caller’s own prize with its claim code, within 30 days of the draw; once per prize, ' +
      'again after a failed transfer.',
  }),
  staffClaims: endpoint({
    method: 'GET',
    path: '/api/v1/admin/prize-claims/',
    access: 'staff',
    tag: 'claims',
    query: StaffClaimsQuery,
    reply: z.array(StaffClaim),
    paged: true,
    refuses: [],
    summary:
      'Every prize claim, the newest change first: search by player name, phone or e-mail, lottery name or ticket; filter by status and method; paged.',
  }),
  claimsSummary: endpoint({
    method: 'GET',
    path: '/api/v1/admin/prize-claims/summary/',
    access: 'staff',
    tag: 'claims',
    reply: ClaimsSummary,
    refuses: [],
    summary: 'Total claims, the prize money they claim and the transfers waiting, over every claim.',
  }),
  approveTransfer: endpoint({
    method: 'POST',
    path: '/api/v1/admin/prize-claims/:id/approve-transfer/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: [...MOVING, 'transfer_approval_not_required'],
    summary:
      'A second staff member approves the transfer of a prize above PAYOUT_SECOND_APPROVAL_TK (not the winner, not who last ' +
      "changed the winner's account; not while it is held); audited.",
  }),
  completeTransfer: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin/prize-claims/:id/toggle-transfer/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    body: TransferBody,
    reply: StaffClaim,
    refuses: [...MOVING, 'transfer_approval_required', 'transfer_approver_completes', 'transfer_by_bkash'],
    summary:
      'Records a transfer made by hand (Nagad, Rocket, a bank) with its reference as completed (final): not within 72 hours ' +
      "of a change of the winner's phone, e-mail or password, not by who made it, above PAYOUT_SECOND_APPROVAL_TK only after " +
      "another staff member's approval; a prize to a bKash wallet is paid with pay-now instead; audited.",
  }),
  failTransfer: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin/prize-claims/:id/transfer-failed/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: ['claim_not_found', 'transfer_not_ready', 'payout_under_way'],
    summary:
      'Marks the transfer of a claim with submitted payout details as failed: the player may submit details again (not while ' +
      'a payout by bKash is being sent or its answer is open; one waiting for the balance is given up); audited.',
  }),
  payNow: endpoint({
    method: 'POST',
    path: '/api/v1/admin/prize-claims/:id/pay-now/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: [...MOVING, 'transfer_approval_required', 'transfer_approver_completes', 'payout_not_bkash', 'payout_under_way'],
    summary:
      "Pays a claim to a bKash wallet through bKash's B2C payout, under the rules of completing a transfer; sent when bKash's " +
      "balance covers it, else it waits; completed only on bKash's word, with its TrxID; one payout per claim; audited.",
  }),
  settlePayout: endpoint({
    method: 'POST',
    path: '/api/v1/admin/prize-claims/:id/settle-payout/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    body: SettlePayoutBody,
    reply: StaffClaim,
    refuses: [
      'claim_not_found',
      'transfer_own_prize',
      'payout_not_unknown',
      'payout_trx_mismatch',
      'payout_trx_used',
      'payout_bkash_unavailable',
    ],
    summary:
      "Settles a payout whose answer was lost with the TrxID bKash's merchant portal shows, checked with bKash (completed, " +
      'this amount, wallet and invoice): the claim is paid; audited.',
  }),
  payoutNotSent: endpoint({
    method: 'POST',
    path: '/api/v1/admin/prize-claims/:id/payout-not-sent/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: ['claim_not_found', 'transfer_own_prize', 'payout_not_unknown', 'payout_same_staff'],
    summary:
      'A second staff member (not who pressed pay-now) finds a payout whose answer was lost not sent by bKash: the claim may be ' +
      'paid again under a new invoice; audited.',
  }),
  bkashBalance: endpoint({
    method: 'GET',
    path: '/api/v1/admin/bkash-balance/',
    access: 'staff',
    tag: 'claims',
    reply: BkashBalanceReply,
    refuses: [],
    summary:
      "bKash's disbursement balance as last read (by the reconciliation job every minute, and around payouts) and what is " +
      'owed to winners: claimed, still claimable, and payouts waiting for the balance.',
  }),
} as const;
