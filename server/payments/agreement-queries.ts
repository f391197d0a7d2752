/** The SQL of remembered bKash agreements (migration 038, docs/rules/payments.md#11-remembered-bkash-agreements). */
import type { Db } from '../db/index.ts';

export type AgreementState = 'created' | 'executing' | 'active' | 'failed' | 'cancelled';

/** A row of `bkash_agreements`. */
export type AgreementRow = {
  id: number;
  user_id: number;
  payment_id: string;
  agreement_id: string | null;
  wallet: string | null;
  state: AgreementState;
  transaction_id: number | null;
  reason: string | null;
  ended_by: 'player' | 'bkash' | 'replaced' | null;
  created_at: string;
  updated_at: string;
  activated_at: string | null;
  ended_at: string | null;
};

/** The player's agreement in force, if he has one. */
export const activeOf = (db: Db, userId: number) =>
  db.one<AgreementRow>("SELECT * FROM bkash_agreements WHERE user_id = $1 AND state = 'active'", [userId]);

export const activeForUpdate = (db: Db, userId: number) =>
  db.one<AgreementRow>("SELECT * FROM bkash_agreements WHERE user_id = $1 AND state = 'active' FOR UPDATE", [userId]);

export const byPayment = (db: Db, paymentId: string) =>
  db.one<AgreementRow>('SELECT * FROM bkash_agreements WHERE payment_id = $1', [paymentId]);

export const insert = (db: Db, a: { userId: number; paymentId: string; transactionId: number | null }) =>
  db.query('INSERT INTO bkash_agreements (user_id, payment_id, transaction_id) VALUES ($1, $2, $3)', [
    a.userId,
    a.paymentId,
    a.transactionId,
  ]);

/** Claims an approval for its execute: only one caller moves it from `created`; the others get nothing. */
export const claim = (db: Db, paymentId: string) =>
  db.one<AgreementRow>(
    "UPDATE bkash_agreements SET state = 'executing', updated_at = now() WHERE payment_id = $1 AND state = 'created' RETURNING *",
    [paymentId],
  );

/** An approval that made no agreement: why (the callback's word, or bKash's refusal). */
export const fail = (db: Db, paymentId: string, from: readonly AgreementState[], reason: string) =>
  db.query(
    "UPDATE bkash_agreements SET state = 'failed', reason = $3, updated_at = now() WHERE payment_id = $1 AND state = ANY($2::text[])",
    [paymentId, from, reason.slice(0, 200)],
  );

export const activate = (db: Db, paymentId: string, agreementId: string, wallet: string | null) =>
  db.query(
    `UPDATE bkash_agreements SET state = 'active', agreement_id = $2, wallet = $3, activated_at = now(), updated_at = now()
     WHERE payment_id = $1 AND state = 'executing'`,
    [paymentId, agreementId, wallet],
  );

export const end = (db: Db, id: number, endedBy: 'player' | 'bkash' | 'replaced') =>
  db.query(
    "UPDATE bkash_agreements SET state = 'cancelled', ended_by = $2, ended_at = now(), updated_at = now() WHERE id = $1 AND state = 'active'",
    [id, endedBy],
  );
