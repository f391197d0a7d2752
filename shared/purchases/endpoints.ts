/** The purchases endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams, Paging } from '../lotteries/schemas.ts';
import { ApprovalProposal, ApprovalProposalParams, ApprovalProposalsQuery, ApprovalReasonBody } from './approvals.ts';
import {
  MyTransactionsQuery,
  PlayerTransaction,
  PurchaseBody,
  PurchaseReply,
  StaffTransaction,
  StaffTransactionsQuery,
  StatusBody,
  TrxIdBody,
} from './schemas.ts';
import { StaffHeldTicket } from './staff-tickets.ts';

export const purchasesEndpoints = {
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
    refusesWhen: {
      403: 'The player has excluded himself (`self_excluded`, with `until`).',
      409: 'A rule of the sale or of play-safe refuses it (sold out, the ticket taken, a spend limit, the reality check): its `code` says which.',
    },
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
    refuses: ['tickets_frozen'],
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
    summary:
      "The caller's own transactions, newest first, with their lottery and prize (after a numbers draw its numbers, what the " +
      'ticket matched and its tier), paged (total in X-Total-Count); `only=tickets` the confirmed ones and those awaiting ' +
      'confirmation, `only=unfinished` those awaiting payment.',
  }),
  myTransaction: endpoint({
    method: 'GET',
    path: '/api/v1/my-transactions/:id/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    reply: PurchaseReply,
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
    refuses: ['tickets_frozen'],
    summary:
      'Rejects or moves back a transaction (success → pending, pending ↔ failed); an id in the body must be the one of the ' +
      "path; audited. Approving (pending → success) is two people's act: it answers 409 `second_person_needed` with the " +
      '`proposal_id` of the open proposal (null when there is none) and changes nothing.',
    refusesWhen: {
      409: 'The change is not allowed now; `second_person_needed` for an approval (propose it instead).',
    },
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
    refuses: ['tickets_frozen', 'confirm_results_published', 'confirm_sales_closed'],
    refusesWhen: {
      403: "The purchase is the caller's own (`own_purchase`).",
      409:
        'Not a pending payment with a TrxID (`not_pending`, `trx_id_missing`), its lottery closed for changes (`tickets_frozen` from the end ' +
        'of sales, `results_published`, `sales_closed`), or a proposal already open (`proposal_pending`, with `proposal_id`).',
    },
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
    refuses: ['tickets_frozen', 'confirm_results_published', 'confirm_sales_closed'],
    refusesWhen: {
      403: 'The caller proposed it (`same_person`) or owns the purchase (`own_purchase`).',
      409:
        'Decided already (`proposal_decided`), the purchase changed (`proposal_stale`), or it can no longer be confirmed: the proposal lapses ' +
        'and the answer carries its `proposal_id` (`tickets_frozen` from the end of sales, `results_published`, `sales_closed`).',
    },
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
    refusesWhen: {
      403: "The purchase is the caller's own (`own_purchase`).",
      409: 'Decided already (`proposal_decided`).',
    },
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
    refusesWhen: { 403: 'The caller is not a superuser.' },
    summary:
      'Superusers: the transactions of staff accounts (staff do not play; these were bought before), newest first, with their lottery and status.',
  }),
} as const;
