/** The claims endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import type { RefusalName } from '../api/refusals.ts';
import { CodeSent } from '../accounts/schemas.ts';
import { IdParams, Paging } from '../lotteries/schemas.ts';
import { ClaimBody, ClaimCodeBody, ClaimsSummary, StaffClaim, StaffClaimsQuery, WinningTicket } from './schemas.ts';

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
    reply: StaffClaim,
    refuses: [...MOVING, 'transfer_approval_required', 'transfer_approver_completes'],
    summary:
      'Marks the transfer of a claim with submitted payout details as completed (final): not within 72 hours of a change of ' +
      "the winner's phone, e-mail or password, not by who made it, above PAYOUT_SECOND_APPROVAL_TK only after another staff " +
      "member's approval; audited.",
  }),
  failTransfer: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin/prize-claims/:id/transfer-failed/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refuses: ['claim_not_found', 'transfer_not_ready'],
    summary: 'Marks the transfer of a claim with submitted payout details as failed: the player may submit details again; audited.',
  }),
} as const;
