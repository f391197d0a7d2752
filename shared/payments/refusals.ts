/** The refusals of the payments endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const paymentsRefusals = refusals({
  // bKash's checkout and its callback (docs/rules/payments.md#3-paying-with-bkash-checkout) ---------------------------
  checkout_purchase_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:transactionNotFound',
    when: "The caller has no purchase with this id (another player's is not found either).",
  },
  checkout_not_pending: {
    status: 409,
    code: 'not_pending',
    text: 'api:checkoutNotPending',
    when: 'The purchase is no longer waiting for payment.',
  },
  checkout_trx_id_given: {
    status: 409,
    code: 'trx_id_given',
    text: 'api:checkoutTrxIdGiven',
    when: 'The player already gave a TrxID for this purchase (Send Money): staff check that payment.',
  },
  checkout_sales_closed: {
    status: 409,
    code: 'sales_closed',
    text: 'api:checkoutSalesClosed',
    when: 'The lottery is no longer on sale, so its purchase cannot be paid for.',
  },
  bkash_unavailable: {
    status: 503,
    text: 'api:bkashUnavailable',
    when: 'bKash did not answer the request to make the payment: try again, or pay with Send Money.',
  },
  payment_not_found: { status: 404, code: 'not_found', text: 'api:paymentNotFound', when: 'No bKash payment has this paymentID.' },

  // A remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements) --------------------------------
  agreement_exists: {
    status: 409,
    code: 'agreement_exists',
    text: 'api:agreementExists',
    when: 'The caller already has a bKash account remembered: forget it on the profile first.',
  },
  agreement_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:agreementNotFound',
    when: 'No bKash account is remembered for the caller (cancel), or no approval has this paymentID (callback).',
  },
  agreement_purchase_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:transactionNotFound',
    when: 'The caller has no pending purchase with this id to pay once the account is remembered.',
  },
  agreement_bkash_unavailable: {
    status: 503,
    text: 'api:agreementBkashUnavailable',
    when: 'bKash did not answer: nothing changed; try again.',
  },

  // The bKash statement (docs/rules/payments.md#8-send-money-reconciled-with-the-statement) ---------------------------
  statement_no_file: { status: 400, code: 'no_file', text: 'api:statement.noFile', when: 'The request has no body (the file).' },
  statement_empty: { status: 400, code: 'empty', text: 'api:statement.empty', when: 'The file is empty or blank.' },
  statement_too_large: { status: 400, code: 'too_large', text: 'api:statement.tooLarge', when: 'The file is larger than 2 MB.' },
  statement_too_many_rows: {
    status: 400,
    code: 'too_many_rows',
    text: 'api:statement.tooManyRows',
    when: 'The file has more transactions than one upload reads.',
  },
  statement_format_not_supported: {
    status: 400,
    code: 'format_not_supported',
    text: 'api:statement.formatNotSupported',
    when: 'The file is an XLSX, XLS or PDF file: it must be saved as CSV first.',
  },
  statement_unreadable: {
    status: 400,
    code: 'unreadable',
    text: 'api:statement.unreadable',
    when: 'The file cannot be read as CSV text.',
  },
  statement_unreadable_line: {
    status: 400,
    code: 'unreadable',
    text: 'api:statement.unreadableLine',
    when: 'A quoted cell never ends: `line` is the line it starts on.',
  },
  not_a_statement: {
    status: 400,
    text: 'api:statement.notAStatement',
    when: 'No header row names the columns of a bKash statement: `missing` lists those it lacks.',
    // The names of the missing columns, worded in every language by the service (server/payments/statement-service.ts).
    format: (vars, lng) => ({ columns: (vars.columns as Record<string, string>)[lng] }),
  },
  statement_not_found: { status: 404, code: 'not_found', text: 'api:statement.notFound', when: 'No upload has this id.' },
  statement_row_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:statement.rowNotFound',
    when: 'No row of an upload has this id.',
  },
  statement_own_upload: {
    status: 403,
    code: 'own_upload',
    text: 'api:statement.ownUpload',
    when: 'The caller uploaded it: another staff member confirms it.',
  },
  statement_already_confirmed: {
    status: 409,
    code: 'not_awaiting',
    text: 'api:statement.alreadyConfirmed',
    when: 'The upload is no longer awaiting confirmation: it was confirmed.',
  },
  statement_already_discarded: {
    status: 409,
    code: 'not_awaiting',
    text: 'api:statement.alreadyDiscarded',
    when: 'The upload is no longer awaiting confirmation: it was discarded.',
  },
  statement_rows_await_confirmation: {
    status: 409,
    code: 'awaiting_confirmation',
    text: 'api:statement.rowsAwaitConfirmation',
    when: "The row's upload still waits for a second staff member to confirm it.",
  },
  statement_discarded: {
    status: 409,
    text: 'api:statement.discarded',
    when: "The row's upload was discarded: its rows take no part.",
  },
  statement_row_not_review: {
    status: 409,
    code: 'not_review',
    text: 'api:statement.notReview',
    when: 'The row is not listed for review: only those are decided by a person.',
  },
  statement_row_already_resolved: {
    status: 409,
    code: 'already_resolved',
    text: 'api:statement.alreadyResolved',
    when: 'The row has been decided already.',
  },
  statement_own_purchase: {
    status: 403,
    code: 'own_purchase',
    text: 'api:statement.ownPurchase',
    when: "The row is of the caller's own purchase: another staff member decides it.",
  },
  statement_own_proposal: {
    status: 403,
    code: 'own_proposal',
    text: 'api:statement.ownProposal',
    when: 'The caller proposed this approval: another staff member confirms it.',
  },
  statement_not_received: {
    status: 409,
    code: 'not_received',
    text: 'api:statement.notReceived',
    when: 'The row is money paid out: it cannot pay for a ticket.',
  },
  statement_no_purchase: {
    status: 409,
    code: 'no_purchase',
    text: 'api:statement.noPurchase',
    when: "No purchase carries the row's TrxID: there is nothing to approve.",
  },
  statement_purchase_changed: {
    status: 409,
    code: 'not_pending',
    text: 'api:statement.changedMeanwhile',
    when: 'The purchase is no longer pending with this TrxID: nothing was approved.',
  },
});
