/**
 * Matching the rows of a bKash statement to purchases (docs/rules/payments.md#82-matching-the-statement-to-purchases):
 * a received row approves a pending purchase only when its TrxID, amount and sender all agree and nothing about it is
 * doubtful; every doubt goes to a person. Pure: the caller reads the statement (statement-parser.ts) and looks the purchases
 * up by the statement's TrxIDs, then carries the decisions out and audits them.
 */
import { normalisePhone } from '../../shared/identifiers.ts';
import type { StatementRow } from './statement-parser.ts';

export type PendingPurchase = {
  id: number;
  trxId: string | null;
  amount: number;
  /** The number the player said he paid from, `01XXXXXXXXX`; '' when he gave none. */
  paymentNumber: string;
  /** The player's account phone, `01XXXXXXXXX`; '' when the account has none. */
  accountPhone: string;
  status: 'pending' | 'success' | 'failed';
  createdAt: string;
};

export type ReviewReason =
  /** The TrxID is on two or more rows of the statement. */
  | 'trx_id_twice'
  /** Two or more purchases carry the TrxID. */
  | 'trx_id_in_two_purchases'
  /** The amount received is not the purchase's amount. */
  | 'amount_differs'
  /** The money came from another number than the one the player gave (or his account's phone). */
  | 'sender_differs'
  /** The statement hides part of the sender's number; the digits it shows agree. */
  | 'sender_masked'
  /** The player gave no number and his account has no phone: nothing to compare the sender with. */
  | 'sender_not_given'
  /** Money received with a TrxID no purchase carries. */
  | 'no_purchase'
  /** The purchase is already approved, and the row does not agree with it. */
  | 'already_settled'
  /** The purchase was rejected, and the money arrived. */
  | 'purchase_failed'
  /** A purchase carries the TrxID of money paid out. */
  | 'not_received'
  /** A purchase carries the TrxID of a row the statement does not show as received or paid out. */
  | 'direction_unknown';

export type IgnoreReason =
  /** Money paid out (cash out, payments made, refunds) that no purchase claims. */
  | 'outgoing'
  /** A row neither received nor paid out by what the file says, that no purchase claims. */
  | 'direction_unknown'
  /** The purchase is already approved with this TrxID, amount and sender: uploading a statement again changes nothing. */
  | 'already_approved';

export type Decision =
  | { kind: 'approve'; row: StatementRow; transactionId: number }
  | { kind: 'review'; row: StatementRow; reason: ReviewReason; transactionId: number | null }
  | { kind: 'ignore'; row: StatementRow; reason: IgnoreReason; transactionId: number | null };

type SenderCheck = 'same' | 'masked' | 'differs' | 'not_given';

/** The row's sender against the number the player paid from (the one he gave, else his account's phone). */
function senderCheck(row: StatementRow, p: PendingPurchase): SenderCheck {
  const expected = normalisePhone(p.paymentNumber) ?? (p.paymentNumber.trim() === '' ? normalisePhone(p.accountPhone) : null);
  if (!expected) return 'not_given';
  if (!row.senderMasked) return row.sender === expected ? 'same' : 'differs';
  if (row.sender.length !== expected.length) return 'differs';
  for (let i = 0; i < expected.length; i++) if (row.sender[i] !== '*' && row.sender[i] !== expected[i]) return 'differs';
  return 'masked';
}

const key = (trxId: string): string => trxId.trim().toUpperCase();

/**
 * One decision per row, in the file's order (by line). `purchases` are the transactions whose TrxID appears in the
 * statement, whatever their status; a purchase without a TrxID plays no part.
 */
export function matchStatement(rows: StatementRow[], purchases: PendingPurchase[]): Decision[] {
  const rowsByTrx = new Map<string, number>();
  for (const r of rows) rowsByTrx.set(key(r.trxId), (rowsByTrx.get(key(r.trxId)) ?? 0) + 1);
  const purchasesByTrx = new Map<string, PendingPurchase[]>();
  for (const p of purchases) {
    if (p.trxId === null || p.trxId.trim() === '') continue;
    const list = purchasesByTrx.get(key(p.trxId));
    if (list) list.push(p);
    else purchasesByTrx.set(key(p.trxId), [p]);
  }

  return [...rows]
    .sort((a, b) => a.line - b.line)
    .map((row): Decision => {
      const claimed = purchasesByTrx.get(key(row.trxId)) ?? [];
      const only = claimed.length === 1 ? (claimed[0] as PendingPurchase) : null;
      const review = (reason: ReviewReason): Decision => ({ kind: 'review', row, reason, transactionId: only?.id ?? null });

      if (!row.incoming) {
        if (claimed.length > 0) return review(row.direction === 'out' ? 'not_received' : 'direction_unknown');
        return { kind: 'ignore', row, reason: row.direction === 'out' ? 'outgoing' : 'direction_unknown', transactionId: null };
      }
      if ((rowsByTrx.get(key(row.trxId)) ?? 0) > 1) return review('trx_id_twice');
      if (claimed.length === 0) return review('no_purchase');
      if (!only) return review('trx_id_in_two_purchases');

      const sender = senderCheck(row, only);
      if (only.status === 'success') {
        if (row.amount === only.amount && (sender === 'same' || sender === 'masked'))
          return { kind: 'ignore', row, reason: 'already_approved', transactionId: only.id };
        return review('already_settled');
      }
      if (only.status === 'failed') return review('purchase_failed');
      if (row.amount !== only.amount) return review('amount_differs');
      if (sender === 'differs') return review('sender_differs');
      if (sender === 'masked') return review('sender_masked');
      if (sender === 'not_given') return review('sender_not_given');
      return { kind: 'approve', row, transactionId: only.id };
    });
}
