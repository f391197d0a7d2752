import type { z } from 'zod';
import type { ApprovalProposal, ApprovalProposalState } from '../../shared/purchases/approvals.ts';
import type { Db } from '../db/index.ts';
import type { TransactionRow } from './queries.ts';

/** A proposal to approve a purchase by hand as the API answers it (docs/rules/payments.md#1-who-may-do-what). */
export type ApprovalProposalOut = z.input<typeof ApprovalProposal>;

type Raw = {
  id: number;
  transaction_id: number;
  trx_id: string;
  reason: string;
  status: ApprovalProposalState;
  proposed_by: number;
  proposer_name: string;
  proposed_at: string;
  decided_by: number | null;
  decider_name: string | null;
  decided_at: string | null;
  decision_reason: string | null;
  lapsed: boolean;
  ticket: string;
  amount: number;
  t_status: string;
  player_id: number;
  player_name: string;
  lottery_id: number;
  l_name: string;
  l_name_bn: string;
};

/**
 * `lapsed`: a pending proposal that could not be approved now, its lottery no longer on sale (the rule of stillOnSale in
 * shared/lotteries/freeze.ts) or its purchase no longer pending.
 */
const SELECT = `SELECT p.id, p.transaction_id, p.trx_id, p.reason, p.status, p.proposed_by, a.name AS proposer_name, p.proposed_at,
         p.decided_by, b.name AS decider_name, p.decided_at, p.decision_reason,
         (p.status = 'pending' AND (t.status <> 'pending' OR NOT (l.published AND NOT l.is_result_published AND l.drawn_at IS NULL
           AND l.start_date <= now() AND now() < l.end_date))) AS lapsed,
         t.ticket, t.amount, t.status AS t_status, t.user_id AS player_id, u.name AS player_name,
         l.id AS lottery_id, l.name AS l_name, l.name_bn AS l_name_bn
    FROM transaction_approval_proposals p
    JOIN transactions t ON t.id = p.transaction_id
    JOIN lotteries l ON l.id = t.lottery_id
    JOIN users u ON u.id = t.user_id
    JOIN users a ON a.id = p.proposed_by
    LEFT JOIN users b ON b.id = p.decided_by`;

const shape = (r: Raw): ApprovalProposalOut => ({
  id: r.id,
  transaction_id: r.transaction_id,
  trx_id: r.trx_id,
  reason: r.reason,
  status: r.status,
  proposed_by: { id: r.proposed_by, name: r.proposer_name },
  proposed_at: r.proposed_at,
  decided_by: r.decided_by === null ? null : { id: r.decided_by, name: r.decider_name ?? '' },
  decided_at: r.decided_at,
  decision_reason: r.decision_reason,
  lapsed: r.lapsed,
  purchase: {
    ticket: r.ticket,
    amount: r.amount,
    status: r.t_status,
    player: { id: r.player_id, name: r.player_name },
    lottery: { id: r.lottery_id, name: r.l_name, name_bn: r.l_name_bn },
  },
});

export const approvalProposal = async (db: Db, id: number): Promise<ApprovalProposalOut | undefined> => {
  const r = await db.one<Raw>(`${SELECT} WHERE p.id = $1`, [id]);
  return r ? shape(r) : undefined;
};

/** Proposals in this state (of one purchase when told), newest first, paged. */
export async function approvalProposals(
  db: Db,
  f: { status: ApprovalProposalState; transactionId: number | null },
  limit: number,
  offset: number,
): Promise<{ rows: ApprovalProposalOut[]; total: number }> {
  const where = `WHERE p.status = $1 AND ($2::bigint IS NULL OR p.transaction_id = $2)`;
  const [rows, count] = await Promise.all([
    db.query<Raw>(`${SELECT} ${where} ORDER BY p.id DESC LIMIT $3 OFFSET $4`, [f.status, f.transactionId, limit, offset]),
    db.one<{ n: number }>(`SELECT count(*)::int AS n FROM transaction_approval_proposals p ${where}`, [f.status, f.transactionId]),
  ]);
  return { rows: rows.map(shape), total: count?.n ?? 0 };
}

/** The pending proposals of these purchases (the staff's transactions list shows them on each card). */
export async function pendingProposalsOf(db: Db, transactionIds: number[]): Promise<Map<number, ApprovalProposalOut>> {
  if (!transactionIds.length) return new Map();
  const rows = await db.query<Raw>(`${SELECT} WHERE p.status = 'pending' AND p.transaction_id = ANY($1::bigint[])`, [transactionIds]);
  return new Map(rows.map((r) => [r.transaction_id, shape(r)]));
}

/**
 * The proposal's purchase under its lottery's lock, then its own (as lockTransaction takes them): the lottery is found
 * from the proposal by the statement that locks it, and the purchase's row by the next, sent with it. The caller asks
 * for the proposal's lock with them. Undefined when there is no such proposal.
 */
export async function lockTransactionOfProposal(db: Db, id: number): Promise<TransactionRow | undefined> {
  // Both asked at once, locked in this order: a transaction's statements run one after the other
  // (docs/decisions/090-a-trx-id-reads-sent-together.md).
  const [found, row] = await Promise.all([
    db.one<{ transaction_id: number }>(
      `SELECT p.transaction_id FROM transaction_approval_proposals p
       JOIN transactions t ON t.id = p.transaction_id JOIN lotteries l ON l.id = t.lottery_id
       WHERE p.id = $1 FOR UPDATE OF l`,
      [id],
    ),
    db.one<TransactionRow>(
      'SELECT * FROM transactions WHERE id = (SELECT transaction_id FROM transaction_approval_proposals WHERE id = $1) FOR UPDATE',
      [id],
    ),
  ]);
  return found ? row : undefined;
}

export const lockApprovalProposal = (db: Db, id: number) =>
  db.one<{ id: number; transaction_id: number; trx_id: string; reason: string; status: ApprovalProposalState; proposed_by: number }>(
    'SELECT id, transaction_id, trx_id, reason, status, proposed_by FROM transaction_approval_proposals WHERE id = $1 FOR UPDATE',
    [id],
  );

export const pendingProposalOf = async (db: Db, transactionId: number) =>
  (
    await db.one<{ id: number }>(`SELECT id FROM transaction_approval_proposals WHERE transaction_id = $1 AND status = 'pending'`, [
      transactionId,
    ])
  )?.id;

export async function insertApprovalProposal(
  db: Db,
  p: { transactionId: number; trxId: string; reason: string; by: number },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO transaction_approval_proposals (transaction_id, trx_id, reason, proposed_by) VALUES ($1, $2, $3, $4) RETURNING id',
    [p.transactionId, p.trxId, p.reason, p.by],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const decideApprovalProposal = (db: Db, id: number, status: Exclude<ApprovalProposalState, 'pending'>, by: number, reason: string) =>
  db.query(
    `UPDATE transaction_approval_proposals SET status = $2, decided_by = $3, decided_at = now(), decision_reason = $4
      WHERE id = $1 AND status = 'pending'`,
    [id, status, by, reason],
  );
