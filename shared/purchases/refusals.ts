/** The refusals of the purchases endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';
import { formatTaka } from '../money.ts';
import { formatDate } from '../dates.ts';

export const purchasesRefusals = refusals({
  // Buying (docs/rules/lotteries-and-sales.md#7-buying-a-ticket) ---------------------------------------------------
  idempotency_key_invalid: {
    status: 400,
    code: 'bad_request',
    text: 'api:idempotencyKeyInvalid',
    when: 'The Idempotency-Key header is not 1–100 printable characters.',
  },
  idempotency_key_reused: {
    status: 422,
    text: 'api:idempotencyKeyReused',
    when: 'The Idempotency-Key was used by the caller for a purchase of another lottery or ticket.',
  },
  purchase_lottery_not_found: {
    status: 400,
    code: 'lottery_not_found',
    field: 'lottery_id',
    text: 'api:lotteryNotFound',
    when: 'No published lottery has this id.',
  },
  purchase_lottery_ended: {
    status: 409,
    code: 'lottery_ended',
    text: 'lottery:reason.ended',
    when: "The lottery's sales have ended (its end date passed, or it was drawn).",
  },
  purchase_sold_out: {
    status: 409,
    code: 'sold_out',
    text: 'lottery:reason.soldOut',
    when: 'The lottery has no ticket left (to buy, or for a rejected ticket moved back to pending).',
  },
  purchase_not_on_sale: {
    status: 409,
    code: 'not_on_sale',
    text: 'lottery:reason.notYet',
    when: 'The lottery is not on sale (yet).',
  },
  amount_mismatch: {
    status: 400,
    field: 'amount',
    text: 'api:amountMismatch',
    when: "The amount is not the lottery's ticket price (the text names the price).",
    format: (v, lng) => ({ ...v, price: formatTaka(v.price as number | string, lng) }),
  },
  ticket_taken: {
    status: 409,
    field: 'ticket',
    text: 'api:ticketTaken',
    when: 'Someone else holds this combination in the lottery: pick other numbers.',
  },
  trx_id_taken: { status: 409, field: 'trx_id', text: 'api:trxIdTaken', when: 'Another purchase already names this TrxID.' },

  // The player's and the staff's transactions (docs/rules/lotteries-and-sales.md#8-transaction-states) -------------
  transaction_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:transactionNotFound',
    when: "No transaction has this id (a player's view: none of his own has it).",
  },
  trx_id_not_pending: {
    status: 409,
    code: 'not_pending',
    text: 'api:trxIdNotPending',
    when: 'The purchase is no longer pending: its TrxID cannot be given now.',
  },
  trx_id_given: {
    status: 409,
    text: 'api:trxIdAlreadyGiven',
    when: 'The purchase already has another TrxID (changing it is for support).',
  },
  transaction_id_mismatch: {
    status: 400,
    field: 'id',
    text: 'api:transactionIdMismatch',
    when: "The body's id is not the path's.",
  },
  transaction_activation_final: {
    status: 409,
    code: 'activation_final',
    text: 'api:activationFinal',
    when: 'An activated generated ticket was proved by its secret: its status is final.',
  },
  transaction_confirmed_by_bkash: {
    status: 409,
    code: 'confirmed_by_bkash',
    text: 'api:confirmedByBkash',
    when: 'bKash confirmed the payment: no one person takes it back.',
  },
  status_change_refused: {
    status: 409,
    text: 'api:statusChangeRefused',
    when: 'The transaction cannot go from its status to the one asked directly (approved → rejected: move it back to pending first).',
  },
  second_person_needed: {
    status: 409,
    text: 'api:manualApproval.needsTwo',
    when: "Approving a payment by hand is two people's act: propose it; `proposal_id` is the open proposal's (null when none).",
  },
  transaction_results_published: {
    status: 409,
    code: 'results_published',
    text: 'api:resultsPublishedNoChange',
    when: "The lottery's results are published: only an unpaid (pending) ticket may still be rejected.",
  },
  combination_taken_meanwhile: {
    status: 409,
    code: 'ticket_taken',
    text: 'api:combinationTakenMeanwhile',
    when: 'Someone else has bought this combination in the meantime.',
  },

  // Approving a payment by hand (docs/rules/payments.md#1-who-may-do-what) ------------------------------------------
  approval_own_purchase: {
    status: 403,
    code: 'own_purchase',
    text: 'api:manualApproval.ownPurchase',
    when: "The purchase is the caller's own.",
  },
  approval_same_person: {
    status: 403,
    code: 'same_person',
    text: 'api:manualApproval.samePerson',
    when: 'The caller proposed it: a second staff member approves.',
  },
  proposal_not_found: { status: 404, code: 'not_found', text: 'api:manualApproval.notFound', when: 'No proposal has this id.' },
  proposal_decided: {
    status: 409,
    text: 'api:manualApproval.decided',
    when: 'The proposal was decided already (its status named).',
  },
  proposal_pending: {
    status: 409,
    text: 'api:manualApproval.pending',
    when: 'A proposal of this purchase is already open: `proposal_id` is its id.',
  },
  proposal_stale: {
    status: 409,
    text: 'api:manualApproval.purchaseChanged',
    when: 'The purchase is no longer pending with the TrxID proposed: nothing was approved.',
  },
  approval_not_pending: {
    status: 409,
    code: 'not_pending',
    text: 'api:manualApproval.notPending',
    when: 'Only a pending purchase can be proposed for approval.',
  },
  approval_trx_id_missing: {
    status: 409,
    code: 'trx_id_missing',
    text: 'api:approveWithoutTrxId',
    when: 'The purchase has no TrxID to check the payment against.',
  },

  // Staff's own tickets (docs/rules/accounts-and-codes.md#12-staff-and-superusers) ---------------------------------
  staff_tickets_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:staffTicketsSuperuserOnly',
    when: 'Only a superuser sees the tickets staff accounts hold.',
  },

  // Runs of consecutive draws, paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips) --------------------
  run_game_not_found: {
    status: 400,
    code: 'game_not_found',
    field: 'game_id',
    text: 'api:gameNotFound',
    when: 'No game has this id.',
  },
  run_no_draws: {
    status: 409,
    code: 'no_draws_on_sale',
    text: 'api:runNoDraws',
    when: 'No draw of the game is on sale now (paused, sold out, or between its close and its next draw made).',
  },
  run_line_twice: {
    status: 400,
    field: 'lines',
    text: 'api:runLineTwice',
    when: 'The same combination is on two lines of the slip.',
  },
  run_ticket_taken: {
    status: 409,
    code: 'ticket_taken',
    text: 'api:runTicketTaken',
    when: "A line's combination is held by someone else in one of the run's draws: the answer names the draw and suggests a combination free in all of them (`suggestion`).",
    format: (v, lng) => ({ ...v, date: formatDate(v.date as string, lng, { withTime: true }) ?? v.date }),
  },
  run_not_found: { status: 404, code: 'not_found', text: 'api:runNotFound', when: 'The caller has no slip with this id.' },
  checkout_run_entry: {
    status: 409,
    code: 'run_entry',
    text: 'api:checkoutRunEntry',
    when: "The purchase is one entry of a run: the run is paid as a whole, through its first entry's checkout.",
  },
  trx_id_run: {
    status: 409,
    code: 'run_entry',
    field: 'trx_id',
    text: 'api:trxIdRun',
    when: "The purchase is one entry of a run other than its first: the run's one TrxID is given on its first entry.",
  },
  status_run_entry: {
    status: 409,
    code: 'run_entry',
    text: 'api:statusRunEntry',
    when: 'The purchase is one entry of a run: only its first entry, while the run waits for its payment, may be rejected (which releases the run).',
  },
});
