/** The purchases endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams, Paging } from '../lotteries/schemas.ts';
import { ApprovalProposal, ApprovalProposalParams, ApprovalProposalsQuery, ApprovalReasonBody } from './approvals.ts';
import {
  MyLotteriesReply,
  MyTransactionsQuery,
  PlayerTransaction,
  PurchaseBody,
  PurchaseReply,
  StaffTransaction,
  StaffTransactionsQuery,
  StatusBody,
  TrxIdBody,
} from './schemas.ts';
import { UNFINISHED_SHOWN } from './states.ts';
import { Run, RunBody } from './runs.ts';
import { StaffHeldTicket } from './staff-tickets.ts';
import { PLAY_CHECKED } from '../play-safe/refusals.ts';

export const purchasesEndpoints = {
  // Runs of consecutive draws, paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips) ------------------
  createRun: endpoint({
    method: 'POST',
    path: '/api/v1/runs/',
    access: 'user',
    tag: 'purchases',
    body: RunBody,
    reply: Run,
    status: 201,
    idempotent: true,
    refuses: [
      'idempotency_key_invalid',
      'run_game_not_found',
      'run_no_draws',
      'run_line_twice',
      'run_ticket_taken',
      'throttled',
      ...PLAY_CHECKED,
    ],
    summary:
      "A slip: a game's lines (1–10, each a ticket or `quick`) for its next 1, 3, 5, 12 or 25 draws on sale (fewer when fewer " +
      'are), each line of each draw a pending entry, one amount, counted whole against the limits; paid by the bKash checkout ' +
      'of its `lead_id`. A combination held in one of the draws is refused with a `suggestion`. Idempotency-Key as a purchase.',
  }),
  getRun: endpoint({
    method: 'GET',
    path: '/api/v1/runs/:id/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    reply: Run,
    refuses: ['run_not_found'],
    summary: "One of the caller's slips: its run of draws, its lines, its amount and state, and each entry draw by draw.",
  }),
  // Purchases ---------------------------------------------------------------------------------------
  createTransaction: endpoint({
    method: 'POST',
    path: '/api/v1/transactions-create/',
    access: 'user',
    tag: 'purchases',
    body: PurchaseBody,
    reply: PurchaseReply,
    status: 201,
    idempotent: true,
    refuses: [
      'idempotency_key_invalid',
      'permission_denied',
      'purchase_lottery_not_found',
      'idempotency_key_reused',
      'purchase_lottery_ended',
      'purchase_sold_out',
      'purchase_not_on_sale',
      'amount_mismatch',
      'ticket_taken',
      'trx_id_taken',
      'transaction_not_found',
      'throttled',
      ...PLAY_CHECKED,
    ],
    summary:
      "Buys a ticket: a pending bKash transaction of the caller for the lottery's own price, with the bKash receiver number. " +
      'Send an Idempotency-Key header (1–100 printable characters): a retry with the same key answers 200 with the first transaction.',
  }),
  setTrxId: endpoint({
    method: 'PATCH',
    path: '/api/v1/transactions/:id/trx-id/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    body: TrxIdBody,
    reply: PlayerTransaction,
    refuses: [
      'transaction_not_found',
      'trx_id_not_pending',
      'trx_id_given',
      'trx_id_taken',
      'tickets_frozen',
      'staff_cannot_play',
      'throttled',
      'self_excluded_trx_id',
      'time_out_trx_id',
      'trx_id_run',
    ],
    summary: "The bKash TrxID (and the bKash number paid from) of the caller's own pending purchase; given once.",
  }),
  myTransactions: endpoint({
    method: 'GET',
    path: '/api/v1/my-transactions/',
    access: 'user',
    tag: 'purchases',
    query: MyTransactionsQuery,
    reply: z.array(PlayerTransaction),
    paged: true,
    refuses: [],
    summary:
      "The caller's own transactions, newest first, with their lottery and prize (after a numbers draw its numbers, what the " +
      'ticket matched and its tier), paged (total in X-Total-Count); `only=tickets` the confirmed ones and those awaiting ' +
      'confirmation, `only=unfinished` those awaiting payment.',
  }),
  myLotteries: endpoint({
    method: 'GET',
    path: '/api/v1/my-lotteries/',
    access: 'user',
    tag: 'purchases',
    query: Paging,
    reply: MyLotteriesReply,
    refuses: [],
    summary:
      "My Lotteries in one read: a page of the caller's tickets (as `only=tickets` lists them) with their total, and on the " +
      `first page (offset 0) his purchases awaiting payment, at most ${UNFINISHED_SHOWN} (as \`only=unfinished\`).`,
  }),
  myTransaction: endpoint({
    method: 'GET',
    path: '/api/v1/my-transactions/:id/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    reply: PurchaseReply,
    refuses: ['transaction_not_found'],
    summary: "One of the caller's own transactions, with where and how much to pay (another player's is 404).",
  }),
  transactions: endpoint({
    method: 'GET',
    path: '/api/v1/transactions/',
    access: 'staff',
    tag: 'purchases',
    query: StaffTransactionsQuery,
    reply: z.array(StaffTransaction),
    paged: true,
    refuses: [],
    summary:
      'Every transaction, newest first: search by player name, phone, e-mail, ticket, TrxID or lottery name, filter by status; paged.',
  }),
  updateTransaction: endpoint({
    method: 'PUT',
    path: '/api/v1/transactions/:id/',
    access: 'staff',
    tag: 'purchases',
    params: IdParams,
    body: StatusBody,
    reply: StaffTransaction,
    summary:
      'Rejects or moves back a transaction (success → pending, pending ↔ failed); an id in the body must be the one of the ' +
      "path; audited. Approving (pending → success) is two people's act: it answers 409 `second_person_needed` with the " +
      '`proposal_id` of the open proposal (null when there is none) and changes nothing.',
    refuses: [
      'transaction_id_mismatch',
      'transaction_not_found',
      'transaction_activation_final',
      'transaction_confirmed_by_bkash',
      'status_run_entry',
      'status_change_refused',
      'second_person_needed',
      'transaction_results_published',
      'combination_taken_meanwhile',
      'purchase_sold_out',
      'tickets_frozen',
    ],
  }),
  proposeApproval: endpoint({
    method: 'POST',
    path: '/api/v1/transactions/:id/approval-proposals/',
    access: 'staff',
    tag: 'purchases',
    params: IdParams,
    body: ApprovalReasonBody,
    reply: ApprovalProposal,
    status: 201,
    refuses: [
      'transaction_not_found',
      'approval_own_purchase',
      'transaction_activation_final',
      'approval_not_pending',
      'approval_trx_id_missing',
      'proposal_pending',
      'proposal_not_found',
      'tickets_frozen',
      'confirm_results_published',
      'confirm_sales_closed',
    ],
    summary:
      'Proposes approving a pending purchase by hand, with the reason (the receipt the player showed): nothing changes until a ' +
      'second staff member approves the proposal; one open proposal per purchase; audited.',
  }),
  approvalProposals: endpoint({
    method: 'GET',
    path: '/api/v1/transaction-approval-proposals/',
    access: 'staff',
    tag: 'purchases',
    query: ApprovalProposalsQuery,
    reply: z.array(ApprovalProposal),
    paged: true,
    refuses: [],
    summary:
      'Proposals to approve a purchase by hand, newest first, open ones (`pending`) unless `status` says, of one purchase with ' +
      '`transaction_id`; `lapsed` marks an open one that can no longer be approved.',
  }),
  approveApprovalProposal: endpoint({
    method: 'POST',
    path: '/api/v1/transaction-approval-proposals/:proposalId/approve/',
    access: 'staff',
    tag: 'purchases',
    params: ApprovalProposalParams,
    body: ApprovalReasonBody,
    reply: ApprovalProposal,
    refuses: [
      'proposal_not_found',
      'transaction_not_found',
      'approval_own_purchase',
      'approval_same_person',
      'proposal_decided',
      'proposal_stale',
      'tickets_frozen',
      'confirm_results_published',
      'confirm_sales_closed',
    ],
    summary:
      "A second staff member approves the proposal with the reason: the purchase becomes `success` under the lottery's lock " +
      'if it is still pending with the TrxID proposed and its lottery still on sale; audited with both staff members.',
  }),
  rejectApprovalProposal: endpoint({
    method: 'POST',
    path: '/api/v1/transaction-approval-proposals/:proposalId/reject/',
    access: 'staff',
    tag: 'purchases',
    params: ApprovalProposalParams,
    body: ApprovalReasonBody,
    reply: ApprovalProposal,
    refuses: ['proposal_not_found', 'transaction_not_found', 'approval_own_purchase', 'proposal_decided'],
    summary: 'Rejects a proposal with the reason (its author may withdraw it the same way): the purchase stays pending; audited.',
  }),
  staffHeldTickets: endpoint({
    method: 'GET',
    path: '/api/v1/staff-held-tickets/',
    access: 'staff',
    tag: 'purchases',
    query: Paging,
    reply: z.array(StaffHeldTicket),
    paged: true,
    refuses: ['staff_tickets_superuser_only'],
    summary:
      'Superusers: the transactions of staff accounts (staff do not play; these were bought before), newest first, with their lottery and status.',
  }),
} as const;
