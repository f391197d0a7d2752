/** The claims endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { CodeSent } from '../accounts/schemas.ts';
import { IdParams, Paging } from '../lotteries/schemas.ts';
import { ClaimBody, ClaimCodeBody, ClaimsSummary, StaffClaim, StaffClaimsQuery, WinningTicket } from './schemas.ts';

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
    summary: "The caller's winning tickets of published results, newest draw first, with their claim and claim deadline; paged.",
  }),
  myWinningTicket: endpoint({
    method: 'GET',
    path: '/api/v1/my-winning-tickets/:id/',
    access: 'user',
    tag: 'claims',
    params: IdParams,
    reply: WinningTicket,
    summary: "One of the caller's winning tickets by its prize id (another player's prize is 404).",
  }),
  sendClaimCode: endpoint({
    method: 'POST',
    path: '/api/v1/send-prize-claim-otp/',
    access: 'user',
    tag: 'claims',
    body: ClaimCodeBody,
    reply: CodeSent,
    summary: "Sends a 6-digit claim code for the caller's own prize to his phone or e-mail; again only after 30 s.",
  }),
  submitClaim: endpoint({
    method: 'POST',
    path: '/api/v1/submit-prize-claim/',
    access: 'user',
    tag: 'claims',
    body: ClaimBody,
    reply: WinningTicket,
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
    summary:
      'Every prize claim, the newest change first: search by player name, phone or e-mail, lottery name or ticket; filter by status and method; paged.',
  }),
  claimsSummary: endpoint({
    method: 'GET',
    path: '/api/v1/admin/prize-claims/summary/',
    access: 'staff',
    tag: 'claims',
    reply: ClaimsSummary,
    summary: 'Total claims, the prize money they claim and the transfers waiting, over every claim.',
  }),
  approveTransfer: endpoint({
    method: 'POST',
    path: '/api/v1/admin/prize-claims/:id/approve-transfer/',
    access: 'staff',
    tag: 'claims',
    params: IdParams,
    reply: StaffClaim,
    refusesWhen: {
      403: 'Four eyes (`four_eyes`): a staff member never moves his own prize or one whose account he changed, and the approver does not complete it.',
      409: 'The claim is not in a state for it (`transfer_not_ready`, `claim_held`, `approval_required`).',
    },
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
    refusesWhen: {
      403: 'Four eyes (`four_eyes`): a staff member never moves his own prize or one whose account he changed, and the approver does not complete it.',
      409: 'The claim is not in a state for it (`transfer_not_ready`, `claim_held`, `approval_required`).',
    },
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
    refusesWhen: {
      403: 'Four eyes (`four_eyes`): a staff member never moves his own prize or one whose account he changed, and the approver does not complete it.',
      409: 'The claim is not in a state for it (`transfer_not_ready`, `claim_held`, `approval_required`).',
    },
    summary: 'Marks the transfer of a claim with submitted payout details as failed: the player may submit details again; audited.',
  }),
} as const;
