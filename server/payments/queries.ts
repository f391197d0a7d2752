import type { Db } from '../db/index.ts';

/** The states of a checkout payment (migration 012, docs/rules/payments.md#2-the-states-of-a-checkout-payment). */
export const PAYMENT_STATES = ['created', 'completed', 'failed', 'cancelled', 'expired', 'refund_due', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** A row of `bkash_payments`. */
export type PaymentRow = {
  payment_id: string;
  transaction_id: number;
  amount: number;
  state: PaymentState;
  bkash_status: string | null;
  trx_id: string | null;
  reason: string | null;
  refund_trx_id: string | null;
  refunded_at: string | null;
  settled_at: string | null;
  checks: number;
  created_at: string;
  updated_at: string;
};

/** A checkout payment just made at bKash; `agreementId`: the agreement it is made with (mode 0001), else null. */
export const insertPayment = (db: Db, p: { paymentId: string; transactionId: number; amount: number; agreementId: string | null }) =>
  db.query('INSERT INTO bkash_payments (payment_id, transaction_id, amount, agreement_id) VALUES ($1, $2, $3, $4)', [
    p.paymentId,
    p.transactionId,
    p.amount,
    p.agreementId,
  ]);

export const payment = (db: Db, paymentId: string) => db.one<PaymentRow>('SELECT * FROM bkash_payments WHERE payment_id = $1', [paymentId]);

/** The player whose purchase a payment pays (the only one a callback tells about it). */
export const ownerOfPayment = (db: Db, paymentId: string) =>
  db.one<{ user_id: number }>(
    'SELECT t.user_id FROM bkash_payments p JOIN transactions t ON t.id = p.transaction_id WHERE p.payment_id = $1',
    [paymentId],
  );

export const paymentForUpdate = (db: Db, paymentId: string) =>
  db.one<PaymentRow>('SELECT * FROM bkash_payments WHERE payment_id = $1 FOR UPDATE', [paymentId]);

/** The newest checkout payment of each of these transactions that has one (what the pages tell player and staff). */
export const latestOfTransactions = (db: Db, transactionIds: number[]) =>
  db.query<PaymentRow>(
    `SELECT DISTINCT ON (transaction_id) * FROM bkash_payments WHERE transaction_id = ANY($1::bigint[])
     ORDER BY transaction_id, created_at DESC, payment_id DESC`,
    [transactionIds],
  );

/** Whether another payment of the transaction may still bring its money (so that one failing does not end the purchase). */
export const otherLivePayment = (db: Db, transactionId: number, paymentId: string) =>
  db.one<{ payment_id: string }>(
    `SELECT payment_id FROM bkash_payments WHERE transaction_id = $1 AND payment_id <> $2 AND state IN ('created', 'completed') LIMIT 1`,
    [transactionId, paymentId],
  );

/** Moves a payment on from `created` to the state its outcome gives it. */
export const settlePayment = (
  db: Db,
  paymentId: string,
  s: { state: PaymentState; bkashStatus: string | null; trxId: string | null; reason: string | null },
) =>
  db.query(
    `UPDATE bkash_payments SET state = $2, bkash_status = coalesce($3, bkash_status), trx_id = coalesce($4, trx_id),
       reason = coalesce($5, reason), settled_at = coalesce(settled_at, now()), lease_until = NULL, updated_at = now()
     WHERE payment_id = $1`,
    [paymentId, s.state, s.bkashStatus, s.trxId, s.reason],
  );

/**
 * What bKash said when asked again about a payment whose outcome stays open. A lease taken by the reconciliation job is
 * kept, so that no instance asks about the payment again before it ends (docs/rules/payments.md#5-reconciliation).
 */
export const noteChecked = (db: Db, paymentId: string, bkashStatus: string | null) =>
  db.query(
    'UPDATE bkash_payments SET checks = checks + 1, bkash_status = coalesce($2, bkash_status), updated_at = now() WHERE payment_id = $1',
    [paymentId, bkashStatus],
  );

/** A refund bKash made: only from `refund_due`, so that it is written once. */
export const markRefunded = (db: Db, paymentId: string, refundTrxId: string) =>
  db.one<{ payment_id: string }>(
    `UPDATE bkash_payments SET state = 'refunded', refund_trx_id = $2, refunded_at = now(), lease_until = NULL, updated_at = now()
     WHERE payment_id = $1 AND state = 'refund_due' RETURNING payment_id`,
    [paymentId, refundTrxId],
  );

/**
 * Takes up to `limit` payments whose outcome is open for this run of the reconciliation job
 * (docs/rules/payments.md#5-reconciliation): created ones older than `olderThanSec`, and refunds still due. A row is
 * leased for `leaseSec`; another instance's run skips it (SKIP LOCKED, then the lease), so each is asked about once.
 */
export const leaseOpen = (db: Db, olderThanSec: number, leaseSec: number, limit: number) =>
  db.query<PaymentRow>(
    `UPDATE bkash_payments SET lease_until = now() + make_interval(secs => $2)
     WHERE payment_id IN (
       SELECT payment_id FROM bkash_payments
       WHERE state IN ('created', 'refund_due') AND created_at < now() - make_interval(secs => $1)
         AND (lease_until IS NULL OR lease_until < now())
       ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [olderThanSec, leaseSec, limit],
  );

/** Payments waiting for their outcome or for their refund (the dashboard's count). */
export const openCount = async (db: Db): Promise<number> =>
  (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM bkash_payments WHERE state IN ('created', 'refund_due')`))?.n ?? 0;
