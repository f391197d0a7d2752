/**
 * Whether bKash's answer about a TrxID a player typed confirms his Send Money purchase
 * (docs/rules/payments.md#9-send-money-confirmed-by-bkash). A pure rule: the caller asks bKash (Search Transaction)
 * and reads the purchase; this says yes, or why not.
 */
import { normalisePhone } from '../../shared/identifiers.ts';
import type { SendMoneyReason } from '../../shared/payments/schemas.ts';
import type { BkashTransaction } from './bkash/client.ts';

export type SendMoneyVerdict = { ok: true } | { ok: false; reason: SendMoneyReason };

export type SendMoneyPurchase = {
  /** The purchase's stored amount, whole taka. */
  amount: number;
  /** When the purchase was made (ISO 8601). */
  createdAt: string;
  /** When its lottery's sales close (the lottery's end date, ISO 8601). */
  salesCloseAt: string;
  /** Whether another purchase or a checkout payment already carries this TrxID. */
  trxIdUsed: boolean;
};

/**
 * bKash's answer confirms the purchase only when it is a completed payment to our receiver number (`receiver`,
 * BKASH_RECEIVER_NUMBER), in taka, of exactly the purchase's amount, completed after the purchase was made and before
 * its sales closed, and its TrxID is on nothing else. Checked in this order; the first that fails is the reason.
 */
export function judgeSendMoney(bk: BkashTransaction | null, p: SendMoneyPurchase, receiver: string): SendMoneyVerdict {
  const no = (reason: SendMoneyReason): SendMoneyVerdict => ({ ok: false, reason });
  if (bk === null) return no('not_found');
  // A completed payment says when: without a time it cannot be placed between the purchase and the close.
  const completed = bk.completedTime === null ? Number.NaN : Date.parse(bk.completedTime);
  if (bk.transactionStatus !== 'Completed' || Number.isNaN(completed)) return no('not_completed');
  const to = normalisePhone(bk.receiver);
  if (to === null || to !== normalisePhone(receiver)) return no('wrong_receiver');
  if (bk.amount === null || bk.amount !== p.amount || (bk.currency !== null && bk.currency !== 'BDT')) return no('amount_differs');
  if (!(completed > Date.parse(p.createdAt))) return no('before_purchase');
  if (!(completed < Date.parse(p.salesCloseAt))) return no('after_close');
  if (p.trxIdUsed) return no('trx_id_used');
  return { ok: true };
}
