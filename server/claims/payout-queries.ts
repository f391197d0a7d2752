/**
 * The statements of prizes paid by bKash (server/claims/payouts.ts; migration 040): payout tries, the balance read,
 * what is owed to winners.
 */
import type { Db } from '../db/index.ts';
import type { PayoutState } from '../../shared/claims/schemas.ts';

export type PayoutRow = {
  id: number;
  claim_id: number;
  try: number;
  invoice: string;
  amount: number;
  receiver: string;
  state: PayoutState;
  trx_id: string | null;
  fee: string | null;
  code: string | null;
  message: string | null;
  pressed_by: number;
  settled_by: number | null;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
};

/** The claim's try that is waiting, sending, unknown or completed (at most one: prize_payouts_one_live). */
export const livePayout = (db: Db, claimId: number) =>
  db.one<PayoutRow>(`SELECT * FROM prize_payouts WHERE claim_id = $1 AND state IN ('waiting', 'sending', 'unknown', 'completed')`, [
    claimId,
  ]);

/** The claim's latest try, whatever its state. */
export const latestPayout = (db: Db, claimId: number) =>
  db.one<PayoutRow>('SELECT * FROM prize_payouts WHERE claim_id = $1 ORDER BY try DESC LIMIT 1', [claimId]);

export const payoutForUpdate = (db: Db, id: number) => db.one<PayoutRow>('SELECT * FROM prize_payouts WHERE id = $1 FOR UPDATE', [id]);

/** A new try of the claim's payout, numbered after its last, waiting or sending (sent_at then). */
export const newPayout = (
  db: Db,
  p: {
    claimId: number;
    invoiceOf: (tryNo: number) => string;
    amount: number;
    receiver: string;
    state: 'waiting' | 'sending';
    pressedBy: number;
  },
) =>
  db.one<{ next: number }>('SELECT COALESCE(max(try), 0) + 1 AS next FROM prize_payouts WHERE claim_id = $1', [p.claimId]).then((r) =>
    db.one<PayoutRow>(
      `INSERT INTO prize_payouts (claim_id, try, invoice, amount, receiver, state, pressed_by, sent_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $6 = 'sending' THEN now() END) RETURNING *`,
      [p.claimId, r?.next ?? 1, p.invoiceOf(r?.next ?? 1), p.amount, p.receiver, p.state, p.pressedBy],
    ),
  );

/** A waiting try goes out: sending from now. Undefined when it was no longer waiting (taken by another). */
export const startSending = (db: Db, id: number) =>
  db.one<PayoutRow>(
    `UPDATE prize_payouts SET state = 'sending', sent_at = now(), updated_at = now() WHERE id = $1 AND state = 'waiting' RETURNING *`,
    [id],
  );

/** bKash's answer: completed, with its TrxID, fee and time. From sending, or unknown (a late answer, a settling). */
export const completePayout = (
  db: Db,
  id: number,
  a: { trxId: string; fee: string | null; completedAt: string | null; settledBy: number | null },
) =>
  db.one<PayoutRow>(
    `UPDATE prize_payouts SET state = 'completed', trx_id = $2, fee = $3, completed_at = COALESCE($4::timestamptz, now()),
       settled_by = $5, updated_at = now()
     WHERE id = $1 AND state IN ('sending', 'unknown') RETURNING *`,
    [id, a.trxId, a.fee, a.completedAt, a.settledBy],
  );

/** bKash refused it: nothing was sent. */
export const refusePayout = (db: Db, id: number, code: string | null, message: string) =>
  db.one<PayoutRow>(
    `UPDATE prize_payouts SET state = 'refused', code = $2, message = $3, updated_at = now()
     WHERE id = $1 AND state = 'sending' RETURNING *`,
    [id, code, message.slice(0, 300)],
  );

/** Sent, and no answer: the money may have left. */
export const payoutUnknown = (db: Db, id: number, message: string) =>
  db.one<PayoutRow>(
    `UPDATE prize_payouts SET state = 'unknown', message = $2, updated_at = now() WHERE id = $1 AND state = 'sending' RETURNING *`,
    [id, message.slice(0, 300)],
  );

/** An unknown try found not sent, or a waiting one given up: the claim may be paid again. */
export const payoutNotSent = (db: Db, id: number, settledBy: number | null, from: PayoutState) =>
  db.one<PayoutRow>(
    `UPDATE prize_payouts SET state = 'not_sent', settled_by = $2, updated_at = now() WHERE id = $1 AND state = $3 RETURNING *`,
    [id, settledBy, from],
  );

/** Tries left sending longer than `olderThanSec` (the app died between the call and its record): now unknown. */
export const staleSending = (db: Db, olderThanSec: number) =>
  db.query<PayoutRow>(
    `UPDATE prize_payouts SET state = 'unknown', message = 'no answer recorded: the app stopped while sending', updated_at = now()
     WHERE state = 'sending' AND sent_at < now() - make_interval(secs => $1) RETURNING *`,
    [olderThanSec],
  );

/** Waiting tries, oldest first. */
export const waitingPayouts = (db: Db) =>
  db.query<PayoutRow>(`SELECT * FROM prize_payouts WHERE state = 'waiting' ORDER BY created_at, id`);

/** Taka on its way out: tries sending or unknown, which bKash's balance may not show yet. */
export const outgoingTk = (db: Db) =>
  db
    .one<{ n: string }>(`SELECT COALESCE(sum(amount), 0)::text AS n FROM prize_payouts WHERE state IN ('sending', 'unknown')`)
    .then((r) => Number(r?.n ?? 0));

/** Whether a TrxID is already another try's. */
export const trxUsed = (db: Db, trxId: string, exceptId: number) =>
  db.one<{ id: number }>('SELECT id FROM prize_payouts WHERE trx_id = $1 AND id <> $2', [trxId, exceptId]);

// ---- the balance --------------------------------------------------------------------------------------------------

export type BalanceRow = { disbursement_paisa: string | null; collection_paisa: string | null; read_at: string };

export const recordBalance = (db: Db, disbursementPaisa: number | null, collectionPaisa: number | null) =>
  db.query('INSERT INTO bkash_balances (disbursement_paisa, collection_paisa) VALUES ($1, $2)', [disbursementPaisa, collectionPaisa]);

export const lastBalance = (db: Db) =>
  db.one<BalanceRow>(
    'SELECT disbursement_paisa::text, collection_paisa::text, read_at FROM bkash_balances ORDER BY read_at DESC, id DESC LIMIT 1',
  );

/**
 * What is owed to winners (whole taka): claims with payout details given and not yet paid; prizes of published results
 * within their claim period, not withheld, not yet claimed with details; payouts waiting for the balance.
 */
export const owed = (db: Db, claimDays: number) =>
  db.one<{ claimed: string; unclaimed: string; waiting: number; waiting_amount: string }>(
    `SELECT
       (SELECT COALESCE(sum(p.prize_money), 0) FROM prize_claims c JOIN prizes p ON p.id = c.prize_id
          WHERE c.status = 'payment_info_submitted')::text AS claimed,
       (SELECT COALESCE(sum(p.prize_money), 0) FROM prizes p JOIN lotteries l ON l.id = p.lottery_id
          LEFT JOIN prize_claims c ON c.prize_id = p.id
          WHERE l.is_result_published AND p.withheld_at IS NULL
            AND COALESCE(l.drawn_at, l.end_date) + make_interval(days => $1) > now()
            AND (c.id IS NULL OR c.status IN ('pending', 'transfer_failed')))::text AS unclaimed,
       (SELECT count(*)::int FROM prize_payouts WHERE state = 'waiting') AS waiting,
       (SELECT COALESCE(sum(amount), 0) FROM prize_payouts WHERE state = 'waiting')::text AS waiting_amount`,
    [claimDays],
  );
