import type { Db } from '../db/index.ts';

/** A proposed unverifiable draw as the API answers it (docs/rules/lotteries-and-sales.md#9-the-draw). */
export type ProposalRow = {
  id: number;
  lottery_id: number;
  tickets: string[];
  reason: string;
  status: 'pending' | 'approved' | 'rejected';
  proposed_by: { id: number; name: string };
  proposed_at: string;
  decided_by: { id: number; name: string } | null;
  decided_at: string | null;
};

type Raw = Omit<ProposalRow, 'tickets' | 'proposed_by' | 'decided_by'> & {
  tickets: string;
  proposed_by: number;
  proposer_name: string;
  decided_by: number | null;
  decider_name: string | null;
};

const SELECT = `SELECT p.id, p.lottery_id, p.tickets, p.reason, p.status, p.proposed_by, a.name AS proposer_name, p.proposed_at,
         p.decided_by, b.name AS decider_name, p.decided_at
    FROM draw_proposals p JOIN users a ON a.id = p.proposed_by LEFT JOIN users b ON b.id = p.decided_by`;

const shape = (r: Raw): ProposalRow => ({
  id: r.id,
  lottery_id: r.lottery_id,
  tickets: r.tickets.split('\n'),
  reason: r.reason,
  status: r.status,
  proposed_by: { id: r.proposed_by, name: r.proposer_name },
  proposed_at: r.proposed_at,
  decided_by: r.decided_by === null ? null : { id: r.decided_by, name: r.decider_name ?? '' },
  decided_at: r.decided_at,
});

export const proposalsOf = async (db: Db, lotteryId: number) =>
  (await db.query<Raw>(`${SELECT} WHERE p.lottery_id = $1 ORDER BY p.id DESC`, [lotteryId])).map(shape);

export const proposal = async (db: Db, id: number) => {
  const r = await db.one<Raw>(`${SELECT} WHERE p.id = $1`, [id]);
  return r ? shape(r) : undefined;
};

/** The proposal's lottery, read without a lock: the caller then locks the lottery, then the proposal. */
export const lotteryOfProposal = async (db: Db, id: number) =>
  (await db.one<{ lottery_id: number }>('SELECT lottery_id FROM draw_proposals WHERE id = $1', [id]))?.lottery_id;

export const lockProposal = (db: Db, id: number) =>
  db.one<{ id: number; lottery_id: number; tickets: string; reason: string; status: string; proposed_by: number }>(
    'SELECT id, lottery_id, tickets, reason, status, proposed_by FROM draw_proposals WHERE id = $1 FOR UPDATE',
    [id],
  );

export const hasPendingProposal = async (db: Db, lotteryId: number) =>
  (await db.one(`SELECT 1 AS x FROM draw_proposals WHERE lottery_id = $1 AND status = 'pending'`, [lotteryId])) !== undefined;

export async function insertProposal(
  db: Db,
  p: { lotteryId: number; tickets: readonly string[]; reason: string; by: number },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO draw_proposals (lottery_id, tickets, reason, proposed_by) VALUES ($1, $2, $3, $4) RETURNING id',
    [p.lotteryId, p.tickets.join('\n'), p.reason, p.by],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const decide = (db: Db, id: number, status: 'approved' | 'rejected', by: number) =>
  db.query(`UPDATE draw_proposals SET status = $2, decided_by = $3, decided_at = now() WHERE id = $1 AND status = 'pending'`, [
    id,
    status,
    by,
  ]);
