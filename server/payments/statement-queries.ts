import type { Db } from '../db/index.ts';
import type { ReconciliationState, STATEMENT_STATUSES } from '../../shared/payments/statement-schemas.ts';
import type { PendingPurchase } from './statement-match.ts';

/** A row of `bkash_statements` with the names of its staff and the review rows not resolved yet (migrations 013, 030). */
export type StatementRecord = {
  id: number;
  file_name: string;
  sha256: string;
  size_bytes: number;
  uploaded_by: number;
  uploader_name: string;
  status: (typeof STATEMENT_STATUSES)[number];
  confirmed_by: number | null;
  confirmer_name: string | null;
  confirmed_at: string | null;
  discarded_by: number | null;
  discarder_name: string | null;
  discarded_at: string | null;
  discard_reason: string | null;
  rows_read: number;
  approved: number;
  review: number;
  ignored: number;
  problems: number;
  open: number;
  created_at: string;
};

// A discarded upload has no open rows: its rows take no part (docs/rules/payments.md#83-uploading-a-statement).
const STATEMENT_SELECT = `
  SELECT s.*, u.name AS uploader_name, cu.name AS confirmer_name, du.name AS discarder_name,
    (SELECT count(*)::int FROM bkash_statement_rows r
     WHERE r.statement_id = s.id AND r.decision = 'review' AND r.resolution IS NULL AND s.status <> 'discarded') AS open
  FROM bkash_statements s JOIN users u ON u.id = s.uploaded_by
  LEFT JOIN users cu ON cu.id = s.confirmed_by LEFT JOIN users du ON du.id = s.discarded_by`;

export const statementById = (db: Db, id: number) => db.one<StatementRecord>(`${STATEMENT_SELECT} WHERE s.id = $1`, [id]);

export const statementBySha = (db: Db, sha256: string) => db.one<StatementRecord>(`${STATEMENT_SELECT} WHERE s.sha256 = $1`, [sha256]);

export async function statements(db: Db, limit: number, offset: number): Promise<{ rows: StatementRecord[]; total: number }> {
  const rows = await db.query<StatementRecord>(`${STATEMENT_SELECT} ORDER BY s.created_at DESC, s.id DESC LIMIT $1 OFFSET $2`, [
    limit,
    offset,
  ]);
  const count = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM bkash_statements');
  return { rows, total: count?.n ?? 0 };
}

/** The upload alone, locked while it is confirmed or discarded. */
/** An upload locked for its confirmation or discard. */
export type LockedStatement = { id: number; uploaded_by: number; status: StatementRecord['status'] };

export const statementForUpdate = (db: Db, id: number) =>
  db.one<LockedStatement>('SELECT id, uploaded_by, status FROM bkash_statements WHERE id = $1 FOR UPDATE', [id]);

export const setConfirmed = (db: Db, id: number, by: number) =>
  db.query("UPDATE bkash_statements SET status = 'confirmed', confirmed_by = $2, confirmed_at = now() WHERE id = $1", [id, by]);

export const setDiscarded = (db: Db, id: number, by: number, reason: string) =>
  db.query("UPDATE bkash_statements SET status = 'discarded', discarded_by = $2, discarded_at = now(), discard_reason = $3 WHERE id = $1", [
    id,
    by,
    reason,
  ]);

/** The `approve` rows of an upload, in line order: what its confirmation carries out. */
export const approveRowsOf = (db: Db, statementId: number) =>
  db.query<{ id: number; line: number; trx_id: string; transaction_id: number }>(
    "SELECT id, line, trx_id, transaction_id FROM bkash_statement_rows WHERE statement_id = $1 AND decision = 'approve' ORDER BY line, id",
    [statementId],
  );

/** An `approve` row whose purchase could not be approved when the upload was confirmed: a person reviews it. */
export const setReview = (db: Db, rowId: number, reason: string) =>
  db.query("UPDATE bkash_statement_rows SET decision = 'review', reason = $2 WHERE id = $1", [rowId, reason]);

/** The counts of an upload's rows, as they stand. */
export const countsOf = async (db: Db, statementId: number) => {
  const c = await db.one<{ rows_read: number; approved: number; review: number; ignored: number; problems: number }>(
    `SELECT count(*)::int AS rows_read, count(*) FILTER (WHERE decision = 'approve')::int AS approved,
       count(*) FILTER (WHERE decision = 'review')::int AS review, count(*) FILTER (WHERE decision = 'ignore')::int AS ignored,
       count(*) FILTER (WHERE decision = 'problem')::int AS problems
     FROM bkash_statement_rows WHERE statement_id = $1`,
    [statementId],
  );
  if (!c) throw new Error('counts returned nothing');
  return c;
};

export async function insertStatement(
  db: Db,
  s: { fileName: string; sha256: string; sizeBytes: number; uploadedBy: number },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO bkash_statements (file_name, sha256, size_bytes, uploaded_by) VALUES ($1, $2, $3, $4) RETURNING id',
    [s.fileName, s.sha256, s.sizeBytes, s.uploadedBy],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const setCounts = (
  db: Db,
  id: number,
  c: { rows_read: number; approved: number; review: number; ignored: number; problems: number },
) =>
  db.query('UPDATE bkash_statements SET rows_read = $2, approved = $3, review = $4, ignored = $5, problems = $6 WHERE id = $1', [
    id,
    c.rows_read,
    c.approved,
    c.review,
    c.ignored,
    c.problems,
  ]);

/** A row to store: what was read, and what was decided. */
export type NewStatementRow = {
  line: number;
  decision: 'approve' | 'review' | 'ignore' | 'problem';
  reason: string | null;
  trx_id: string | null;
  amount: number | null;
  sender: string | null;
  sender_masked: boolean;
  at: string | null;
  type: string | null;
  direction: 'in' | 'out' | 'unknown' | null;
  raw: string | null;
  transaction_id: number | null;
};

const BATCH = 1000;

/** Stores the rows of an upload, a thousand per statement. */
export async function insertRows(db: Db, statementId: number, rows: NewStatementRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    const col = <K extends keyof NewStatementRow>(k: K) => part.map((r) => r[k]);
    await db.query(
      `INSERT INTO bkash_statement_rows (statement_id, line, decision, reason, trx_id, amount, sender, sender_masked, at, type, direction, raw, transaction_id)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::boolean[], $9::timestamptz[],
                                $10::text[], $11::text[], $12::text[], $13::bigint[])`,
      [
        statementId,
        col('line'),
        col('decision'),
        col('reason'),
        col('trx_id'),
        col('amount'),
        col('sender'),
        col('sender_masked'),
        col('at'),
        col('type'),
        col('direction'),
        col('raw'),
        col('transaction_id'),
      ],
    );
  }
}

/**
 * What the money of purchase `t` is: its amount, or for a run's first entry the whole slip's, which its one TrxID pays
 * (docs/rules/games.md#6-consecutive-draws-and-play-slips).
 */
const PAID_AMOUNT = 'COALESCE((SELECT s.amount FROM slips s WHERE s.lead_id = t.id), t.amount)';

/** The purchases carrying any of these TrxIDs, whatever their status, as the matching reads them. */
export const purchasesByTrxIds = (db: Db, trxIds: string[]) =>
  db.query<PendingPurchase & Record<string, unknown>>(
    `SELECT t.id, t.trx_id AS "trxId", ${PAID_AMOUNT} AS amount, t.payment_number AS "paymentNumber", COALESCE(u.phone, '') AS "accountPhone",
            t.status, t.created_at AS "createdAt"
     FROM transactions t JOIN users u ON u.id = t.user_id
     WHERE t.trx_id = ANY($1::text[])`,
    [trxIds],
  );

/** A stored row with the purchase it names (or, failing that, the one that carries its TrxID now) and its resolver. */
export type StatementRowRecord = NewStatementRow & {
  id: number;
  statement_id: number;
  proposed_by: number | null;
  proposer_name: string | null;
  proposed_at: string | null;
  proposal_note: string | null;
  resolution: 'approved' | 'dismissed' | null;
  resolved_by: number | null;
  resolver_name: string | null;
  resolved_at: string | null;
  resolution_note: string | null;
  p_id: number | null;
  p_status: 'pending' | 'success' | 'failed' | null;
  p_amount: number | null;
  p_trx_id: string | null;
  p_payment_number: string | null;
  p_ticket: string | null;
  p_user_id: number | null;
  p_user_name: string | null;
  p_user_phone: string | null;
  p_lottery_id: number | null;
  p_lottery_name: string | null;
  p_lottery_name_bn: string | null;
};

const ROW_SELECT = `
  SELECT r.*, ru.name AS resolver_name, pr.name AS proposer_name,
    t.id AS p_id, t.status AS p_status, ${PAID_AMOUNT} AS p_amount, t.trx_id AS p_trx_id, t.payment_number AS p_payment_number,
    t.ticket AS p_ticket, pu.id AS p_user_id, pu.name AS p_user_name, pu.phone AS p_user_phone,
    l.id AS p_lottery_id, l.name AS p_lottery_name, l.name_bn AS p_lottery_name_bn
  FROM bkash_statement_rows r
  LEFT JOIN users ru ON ru.id = r.resolved_by
  LEFT JOIN users pr ON pr.id = r.proposed_by
  LEFT JOIN transactions t ON t.id = COALESCE(r.transaction_id, (SELECT x.id FROM transactions x WHERE r.trx_id IS NOT NULL AND x.trx_id = r.trx_id))
  LEFT JOIN users pu ON pu.id = t.user_id
  LEFT JOIN lotteries l ON l.id = t.lottery_id`;

const DECISION_FILTER = `($2::text IS NULL OR ($2 = 'review_open' AND r.decision = 'review' AND r.resolution IS NULL) OR r.decision = $2)`;

export async function rowsOf(
  db: Db,
  statementId: number,
  decision: string | null,
  limit: number,
  offset: number,
): Promise<{ rows: StatementRowRecord[]; total: number }> {
  const rows = await db.query<StatementRowRecord>(
    `${ROW_SELECT} WHERE r.statement_id = $1 AND ${DECISION_FILTER} ORDER BY r.line, r.id LIMIT $3 OFFSET $4`,
    [statementId, decision, limit, offset],
  );
  const count = await db.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM bkash_statement_rows r WHERE r.statement_id = $1 AND ${DECISION_FILTER}`,
    [statementId, decision],
  );
  return { rows, total: count?.n ?? 0 };
}

export const rowById = (db: Db, id: number) => db.one<StatementRowRecord>(`${ROW_SELECT} WHERE r.id = $1`, [id]);

/** The row alone, locked for its resolution, with where its upload stands. */
export const rowForUpdate = (db: Db, id: number) =>
  db.one<{
    id: number;
    statement_id: number;
    statement_status: StatementRecord['status'];
    line: number;
    decision: string;
    reason: string | null;
    trx_id: string | null;
    direction: string | null;
    transaction_id: number | null;
    resolution: string | null;
    proposed_by: number | null;
    proposal_note: string | null;
  }>(
    `SELECT r.id, r.statement_id, s.status AS statement_status, r.line, r.decision, r.reason, r.trx_id, r.direction, r.transaction_id,
       r.resolution, r.proposed_by, r.proposal_note
     FROM bkash_statement_rows r JOIN bkash_statements s ON s.id = r.statement_id WHERE r.id = $1 FOR UPDATE OF r`,
    [id],
  );

/** A staff member's approval of a review row, waiting for a second one. */
export const proposeRow = (db: Db, id: number, by: number, note: string) =>
  db.query('UPDATE bkash_statement_rows SET proposed_by = $2, proposed_at = now(), proposal_note = $3 WHERE id = $1', [id, by, note]);

export const resolveRow = (
  db: Db,
  id: number,
  r: { resolution: 'approved' | 'dismissed'; by: number; note: string; transactionId: number | null },
) =>
  db.query(
    `UPDATE bkash_statement_rows SET resolution = $2, resolved_by = $3, resolved_at = now(), resolution_note = $4,
       transaction_id = COALESCE(transaction_id, $5) WHERE id = $1`,
    [id, r.resolution, r.by, r.note, r.transactionId],
  );

/** The owner of the transaction carrying this TrxID, if any. */
export const trxIdOwner = (db: Db, trxId: string) =>
  db.one<{ id: number; user_id: number; status: string; lottery_id: number }>(
    'SELECT id, user_id, status, lottery_id FROM transactions WHERE trx_id = $1',
    [trxId],
  );

export const ownerOf = (db: Db, transactionId: number) =>
  db.one<{ id: number; user_id: number }>('SELECT id, user_id FROM transactions WHERE id = $1', [transactionId]);

export type FlaggedRecord = {
  id: number;
  status: 'pending';
  amount: number;
  trx_id: string;
  trx_id_at: string;
  payment_number: string;
  ticket: string;
  created_at: string;
  user_id: number;
  user_name: string;
  user_phone: string | null;
  lottery_id: number;
  lottery_name: string;
  lottery_name_bn: string;
};

/** How long a TrxID may wait for a statement before its purchase is flagged (docs/rules/payments.md#85-the-48-hour-flag). */
export const FLAG_AFTER_HOURS = 48;

const FLAGGED_WHERE = `
  FROM transactions t JOIN users u ON u.id = t.user_id JOIN lotteries l ON l.id = t.lottery_id
  WHERE t.status = 'pending' AND t.trx_id IS NOT NULL AND t.transaction_type = 'payment'
    AND t.trx_id_at <= now() - make_interval(hours => ${FLAG_AFTER_HOURS})
    AND NOT EXISTS (SELECT 1 FROM bkash_statement_rows r JOIN bkash_statements s ON s.id = r.statement_id
                    WHERE r.trx_id = t.trx_id AND s.status <> 'discarded')
    AND NOT EXISTS (SELECT 1 FROM bkash_payments p WHERE p.transaction_id = t.id AND p.trx_id = t.trx_id)`;

export async function flagged(db: Db, limit: number, offset: number): Promise<{ rows: FlaggedRecord[]; total: number }> {
  const rows = await db.query<FlaggedRecord>(
    `SELECT t.id, t.status, ${PAID_AMOUNT} AS amount, t.trx_id, t.trx_id_at, t.payment_number, t.ticket, t.created_at,
            u.id AS user_id, u.name AS user_name, u.phone AS user_phone, l.id AS lottery_id, l.name AS lottery_name, l.name_bn AS lottery_name_bn
     ${FLAGGED_WHERE} ORDER BY t.trx_id_at, t.id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await db.one<{ n: number }>(`SELECT count(*)::int AS n ${FLAGGED_WHERE}`);
  return { rows, total: count?.n ?? 0 };
}

/**
 * Where each of these Send Money purchases stands with the statements (docs/rules/payments.md#87-on-the-transactions-page):
 * only purchases with a TrxID the player typed (not a checkout's) have a state.
 */
export const reconciliationOf = (db: Db, transactionIds: number[]) =>
  db.query<{ id: number; state: ReconciliationState | null }>(
    `SELECT t.id,
       CASE
         WHEN r.decision = 'approve' AND r.status = 'awaiting_confirmation' THEN 'review'
         WHEN r.decision = 'approve' OR r.resolution = 'approved' OR r.reason = 'already_approved' THEN 'matched'
         WHEN r.decision = 'review' AND r.resolution IS NULL THEN 'review'
         WHEN r.resolution = 'dismissed' THEN 'dismissed'
         WHEN r.id IS NULL AND t.status = 'pending' AND t.trx_id_at <= now() - make_interval(hours => ${FLAG_AFTER_HOURS}) THEN 'flagged'
         WHEN r.id IS NULL AND t.status = 'pending' THEN 'waiting'
       END AS state
     FROM transactions t
     LEFT JOIN LATERAL (SELECT x.*, s.status FROM bkash_statement_rows x JOIN bkash_statements s ON s.id = x.statement_id
                        WHERE x.trx_id = t.trx_id AND s.status <> 'discarded' ORDER BY x.id DESC LIMIT 1) r ON true
     WHERE t.id = ANY($1::bigint[]) AND t.trx_id IS NOT NULL AND t.transaction_type = 'payment'
       AND NOT EXISTS (SELECT 1 FROM bkash_payments p WHERE p.transaction_id = t.id AND p.trx_id = t.trx_id)`,
    [transactionIds],
  );

/** Uploads awaiting a second person, statement rows waiting for a person, and flagged purchases (the dashboard). */
export const toDecide = async (db: Db): Promise<number> =>
  (
    await db.one<{ n: number }>(
      `SELECT ((SELECT count(*) FROM bkash_statements WHERE status = 'awaiting_confirmation')
              + (SELECT count(*) FROM bkash_statement_rows r JOIN bkash_statements s ON s.id = r.statement_id
                 WHERE r.decision = 'review' AND r.resolution IS NULL AND s.status <> 'discarded')
              + (SELECT count(*) ${FLAGGED_WHERE}))::int AS n`,
    )
  )?.n ?? 0;
