import type { SendMoneyReason } from '../../shared/payments/schemas.ts';
import type { Db } from '../db/index.ts';
import type { BkashTransaction } from './bkash/client.ts';

/** A row of `trx_id_checks` (migration 029, docs/rules/payments.md#9-send-money-confirmed-by-bkash). */
export type TrxIdCheckRow = {
  transaction_id: number;
  trx_id: string;
  state: 'checking' | 'confirmed' | 'refused' | 'left';
  reason: SendMoneyReason | 'changed_meanwhile' | 'sales_closed' | null;
  answer: BkashTransaction | null;
  checks: number;
  created_at: string;
  updated_at: string;
};

const COLUMNS = 'transaction_id, trx_id, state, reason, answer, checks, created_at, updated_at';

/** A TrxID given with a purchase or for it later: the check bKash is asked about. */
export type BegunCheck = { transaction_id: number; trx_id: string };

/**
 * The check of a TrxID, begun by the statement that stores it, in its transaction (docs/rules/payments.md#9-send-money-confirmed-by-bkash):
 * a `WITH` part inserting the check of the rows `source` returns (`id`, `trx_id`, `status`, `transaction_type`) that
 * are pending payments carrying a TrxID, at most once a purchase (a check begun before is kept as it is).
 */
export const beginCheck = (source: string) =>
  `INSERT INTO trx_id_checks (transaction_id, trx_id)
       SELECT id, trx_id FROM ${source} WHERE status = 'pending' AND transaction_type = 'payment' AND trx_id IS NOT NULL
       ON CONFLICT (transaction_id) DO NOTHING`;

export const checkForUpdate = (db: Db, transactionId: number) =>
  db.one<TrxIdCheckRow>(`SELECT ${COLUMNS} FROM trx_id_checks WHERE transaction_id = $1 FOR UPDATE`, [transactionId]);

/** The checks of these purchases. */
export const checksOf = (db: Db, transactionIds: number[]) =>
  db.query<TrxIdCheckRow>(`SELECT ${COLUMNS} FROM trx_id_checks WHERE transaction_id = ANY($1::bigint[])`, [transactionIds]);

/** bKash answered: the check ends in `state` (only from `checking`, under the caller's lock). */
export const endCheck = (
  db: Db,
  transactionId: number,
  e: { state: 'confirmed' | 'refused' | 'left'; reason: TrxIdCheckRow['reason']; answer: BkashTransaction | null },
) =>
  db.query(
    `UPDATE trx_id_checks SET state = $2, reason = $3, answer = $4::jsonb, lease_until = NULL, updated_at = now()
     WHERE transaction_id = $1 AND state = 'checking'`,
    [transactionId, e.state, e.reason, e.answer === null ? null : JSON.stringify(e.answer)],
  );

/** bKash gave no answer: counted; a lease the job took is kept, so no instance asks again before it runs out. */
export const noteUnanswered = (db: Db, transactionId: number) =>
  db.query('UPDATE trx_id_checks SET checks = checks + 1, updated_at = now() WHERE transaction_id = $1', [transactionId]);

/** Whether another purchase or a checkout payment already carries this TrxID. */
export const trxIdUsed = async (db: Db, trxId: string, transactionId: number): Promise<boolean> =>
  (await db.one<{ one: number }>(
    `SELECT 1 AS one FROM transactions WHERE trx_id = $1 AND id <> $2
     UNION ALL SELECT 1 FROM bkash_payments WHERE trx_id = $1 LIMIT 1`,
    [trxId, transactionId],
  )) !== undefined;

/**
 * Takes up to `limit` checks bKash has not answered, older than `olderThanSec`, for this run of the reconciliation job,
 * leased for `leaseSec` (SKIP LOCKED, then the lease), as bkash_payments' are (queries.ts leaseOpen).
 */
export const leaseOpenChecks = (db: Db, olderThanSec: number, leaseSec: number, limit: number) =>
  db.query<TrxIdCheckRow>(
    `UPDATE trx_id_checks SET lease_until = now() + make_interval(secs => $2)
     WHERE transaction_id IN (
       SELECT transaction_id FROM trx_id_checks
       WHERE state = 'checking' AND created_at < now() - make_interval(secs => $1)
         AND (lease_until IS NULL OR lease_until < now())
       ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [olderThanSec, leaseSec, limit],
  );
