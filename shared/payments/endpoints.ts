/** The payments endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { CallbackBody, CallbackReply, CheckoutReply } from './schemas.ts';
import {
  AgreementCallbackBody,
  AgreementCallbackReply,
  AgreementStartBody,
  AgreementStartReply,
  CheckoutQuery,
  MyAgreement,
} from './agreements.ts';
import {
  DiscardBody,
  FlaggedPurchase,
  FlaggedQuery,
  ResolveBody,
  STATEMENT_TYPES,
  Statement,
  StatementDetail,
  StatementRowOut,
  StatementRowsQuery,
  StatementUploadQuery,
  StatementUploadReply,
} from './statement-schemas.ts';
import { PLAY_CHECKED } from '../play-safe/refusals.ts';

export const paymentsEndpoints = {
  startCheckout: endpoint({
    method: 'POST',
    path: '/api/v1/transactions/:id/bkash-checkout/',
    access: 'user',
    tag: 'purchases',
    params: IdParams,
    query: CheckoutQuery,
    reply: CheckoutReply,
    status: 201,
    refuses: [
      'checkout_purchase_not_found',
      'checkout_not_pending',
      'checkout_trx_id_given',
      'checkout_sales_closed',
      'checkout_run_entry',
      'bkash_unavailable',
      'throttled',
      ...PLAY_CHECKED,
    ],
    summary:
      "Starts paying the caller's own pending purchase with bKash's checkout: bKash makes a payment for its amount, and the " +
      'player is sent to `bkash_url`; bKash then sends him back to the callback, which confirms the ticket without staff. ' +
      'With a remembered bKash account the payment asks only his PIN, unless `agreement=skip` (another wallet).',
  }),
  bkashCallback: endpoint({
    method: 'POST',
    path: '/api/v1/payments/bkash/callback/',
    access: 'public',
    tag: 'purchases',
    body: CallbackBody,
    reply: CallbackReply,
    refuses: ['payment_not_found', 'throttled'],
    summary:
      "bKash's callback as the player's browser brings it back (`paymentID`, `status`): a confirmed payment is executed and " +
      "the purchase confirmed; a cancelled or failed one ends only when bKash's status says it ended. Settled once. Only " +
      "the purchase's owner (logged in) is told the purchase and its outcome; anyone else gets them null.",
  }),
  // A remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements) ---------------------------
  myBkashAgreement: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-agreement/',
    access: 'user',
    tag: 'purchases',
    reply: MyAgreement,
    refuses: [],
    summary: "The caller's remembered bKash account (the wallet masked, since when), or null.",
  }),
  startBkashAgreement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-agreement/',
    access: 'user',
    tag: 'purchases',
    body: AgreementStartBody,
    reply: AgreementStartReply,
    status: 201,
    refuses: ['agreement_exists', 'agreement_purchase_not_found', 'agreement_bkash_unavailable', 'throttled', 'staff_cannot_play'],
    summary:
      'Asks bKash for an agreement: the player approves it once on `bkash_url` (wallet, code, PIN) and later pays with his ' +
      'PIN only. With `transaction_id`, that pending purchase of his is paid with it once approved.',
  }),
  bkashAgreementCallback: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-agreement/callback/',
    access: 'public',
    tag: 'purchases',
    body: AgreementCallbackBody,
    reply: AgreementCallbackReply,
    refuses: ['agreement_not_found', 'throttled'],
    summary:
      "bKash's callback after the player's approval (`paymentID`, `status`): a success makes the agreement at bKash, once " +
      'however many times it arrives. Only the player who asked is told the outcome and the purchase to pay now.',
  }),
  cancelBkashAgreement: endpoint({
    method: 'DELETE',
    path: '/api/v1/bkash-agreement/',
    access: 'user',
    tag: 'purchases',
    reply: null,
    status: 204,
    refuses: ['agreement_not_found', 'agreement_bkash_unavailable', 'throttled'],
    summary: "Forgets the caller's remembered bKash account: the agreement is cancelled at bKash, then here; audited.",
  }),
  // The bKash statement (docs/rules/payments.md#8-send-money-reconciled-with-the-statement) -----------------------
  uploadStatement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statements/',
    access: 'staff',
    tag: 'payments',
    query: StatementUploadQuery,
    raw: STATEMENT_TYPES,
    reply: StatementUploadReply,
    status: 201,
    refuses: [
      'statement_no_file',
      'statement_empty',
      'statement_too_large',
      'statement_too_many_rows',
      'statement_format_not_supported',
      'statement_unreadable',
      'statement_unreadable_line',
      'not_a_statement',
    ],
    summary:
      'Reads a bKash merchant statement sent as the raw body (CSV, at most 2 MiB; `name`: its file name) and lists each ' +
      'pending Send Money purchase a row matches in TrxID, amount and sender as to approve; the rest are listed for review or ' +
      'left alone. It approves nothing: it waits for a second staff member to confirm it (`status: awaiting_confirmation`). ' +
      'The same file again answers its earlier upload (200, `repeated`) and changes nothing. A file that cannot be read: 400, nothing stored.',
  }),
  statements: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-statements/',
    access: 'staff',
    tag: 'payments',
    query: FlaggedQuery,
    reply: z.array(Statement),
    paged: true,
    refuses: [],
    summary: 'The uploaded statements, newest first, with their counts.',
  }),
  statement: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-statements/:id/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    query: StatementRowsQuery,
    reply: StatementDetail,
    refuses: ['statement_not_found'],
    summary: 'One upload and a page of its rows in line order, filtered by decision (`review_open`: review rows not resolved yet).',
  }),
  confirmStatement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statements/:id/confirm/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    reply: Statement,
    refuses: ['statement_not_found', 'statement_own_upload', 'statement_already_confirmed', 'statement_already_discarded'],
    summary:
      'A second staff member confirms an upload awaiting confirmation: each of its `approve` rows approves its purchase if ' +
      "it still may (pending with that TrxID, not the uploader's or the confirmer's own, on sale); the others become review " +
      'rows with the reason. Once per upload; audited with both people.',
  }),
  discardStatement: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statements/:id/discard/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    body: DiscardBody,
    reply: Statement,
    refuses: ['statement_not_found', 'statement_already_confirmed', 'statement_already_discarded'],
    summary: 'Sets aside an upload awaiting confirmation, with a reason: it approves nothing and its rows take no part. Audited.',
  }),
  resolveStatementRow: endpoint({
    method: 'POST',
    path: '/api/v1/bkash-statement-rows/:id/resolve/',
    access: 'staff',
    tag: 'payments',
    params: IdParams,
    body: ResolveBody,
    reply: StatementRowOut,
    refuses: [
      'statement_row_not_found',
      'statement_row_not_review',
      'statement_row_already_resolved',
      'statement_rows_await_confirmation',
      'statement_discarded',
      'statement_own_purchase',
      'statement_not_received',
      'statement_no_purchase',
      'statement_own_proposal',
      'statement_purchase_changed',
      'tickets_frozen',
      'confirm_results_published',
      'confirm_sales_closed',
    ],
    summary:
      "A person's decision on a row listed for review, with a note: the first `approve` proposes approving the pending purchase " +
      "carrying the row's TrxID, a second staff member's `approve` approves it (the proposer's own: 403 `own_proposal`); both " +
      'are refused once its lottery is closed for changes (409 `tickets_frozen` from the end of sales); ' +
      "`dismiss` leaves everything as it is. Once per row; never a row of the caller's own purchase (403); audited.",
  }),
  flaggedPurchases: endpoint({
    method: 'GET',
    path: '/api/v1/bkash-flagged-purchases/',
    access: 'staff',
    tag: 'payments',
    query: FlaggedQuery,
    reply: z.array(FlaggedPurchase),
    paged: true,
    refuses: [],
    summary: 'Pending Send Money purchases whose TrxID is in no uploaded statement 48 hours after it was given, oldest first.',
  }),
} as const;
