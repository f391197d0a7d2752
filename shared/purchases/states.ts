/**
 * What a purchase is, in the one set of words players and staff both read
 * (docs/rules/lotteries-and-sales.md#8-transaction-states, "The names of the states"): the texts are
 * `common:ticketStates.<state>` in both languages, used by My Lotteries, the payment page and /admin/transactions.
 */
import type { TransactionStatus } from './schemas.ts';

export const TICKET_STATES = ['awaiting_payment', 'awaiting_confirmation', 'confirmed', 'cancelled'] as const;
export type TicketState = (typeof TICKET_STATES)[number];

/**
 * `pending` without a TrxID: nothing paid yet that we know of (a checkout not finished, Send Money without its TrxID);
 * `pending` with one: paid, bKash or staff still to confirm it; `success`: confirmed; `failed`: cancelled (a
 * checkout cancelled, refused or expired, rejected by staff, or not paid before sales closed).
 */
export function ticketState(tx: { status: TransactionStatus; trx_id: string | null }): TicketState {
  if (tx.status === 'success') return 'confirmed';
  if (tx.status === 'failed') return 'cancelled';
  return tx.trx_id === null ? 'awaiting_payment' : 'awaiting_confirmation';
}

/**
 * Which of his transactions a player asks for (`GET /api/v1/my-transactions/?only=`): `tickets`, what he holds or has
 * paid for (confirmed, or awaiting confirmation); `unfinished`, purchases awaiting payment. Without it, every one.
 */
export const MY_TRANSACTION_FILTERS = ['tickets', 'unfinished'] as const;
export type MyTransactionFilter = (typeof MY_TRANSACTION_FILTERS)[number];

/** My Lotteries lists at most this many purchases awaiting payment above the tickets, on its first page. */
export const UNFINISHED_SHOWN = 10;
