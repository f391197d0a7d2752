import type { z } from 'zod';
import type { WithholdingProposal, WithholdingState } from '../../shared/draws/withholding.ts';
import type { Db } from '../db/index.ts';

/** A proposal to withhold a prize as the API answers it (docs/rules/lotteries-and-sales.md#9-the-draw). */
export type WithholdingOut = z.input<typeof WithholdingProposal>;

type Raw = Omit<WithholdingOut, 'proposed_by' | 'decided_by'> & {
  proposed_by: number;
  proposer_name: string;
  decided_by: number | null;
  decider_name: string | null;
};

const SELECT = `SELECT w.id, w.prize_id, p.lottery_id, p.ticket, p.prize_money, w.reason, w.status, w.proposed_by,
         a.name AS proposer_name, w.proposed_at, w.decided_by, b.name AS decider_name, w.decided_at, w.decision_reason
    FROM prize_withholding_proposals w JOIN prizes p ON p.id = w.prize_id
    JOIN users a ON a.id = w.proposed_by LEFT JOIN users b ON b.id = w.decided_by`;

const shape = ({ proposer_name, decider_name, ...r }: Raw): WithholdingOut => ({
  ...r,
  proposed_by: { id: r.proposed_by, name: proposer_name },
  decided_by: r.decided_by === null ? null : { id: r.decided_by, name: decider_name ?? '' },
});

export const withholding = async (db: Db, id: number) => {
  const r = await db.one<Raw>(`${SELECT} WHERE w.id = $1`, [id]);
  return r ? shape(r) : undefined;
};

/** A lottery's proposals to withhold its prizes, newest first (a lottery has at most its prizes' few). */
/** The lottery's withheld prizes in the order drawn, with why (the proof lists them). */
export const withheldPrizes = (db: Db, lotteryId: number) =>
  db.query<{ ticket: string; reason: string }>(
    'SELECT ticket, withheld_reason AS reason FROM prizes WHERE lottery_id = $1 AND withheld_at IS NOT NULL ORDER BY id',
    [lotteryId],
  );

export const withholdingsOf = async (db: Db, lotteryId: number) =>
  (await db.query<Raw>(`${SELECT} WHERE p.lottery_id = $1 ORDER BY w.id DESC`, [lotteryId])).map(shape);

/** The proposal's prize and lottery, read without a lock: the caller then locks the lottery, the prize, the proposal. */
export const prizeOfWithholding = (db: Db, id: number) =>
  db.one<{ prize_id: number; lottery_id: number }>(
    'SELECT w.prize_id, p.lottery_id FROM prize_withholding_proposals w JOIN prizes p ON p.id = w.prize_id WHERE w.id = $1',
    [id],
  );

export const lotteryOfPrize = async (db: Db, prizeId: number) =>
  (await db.one<{ lottery_id: number }>('SELECT lottery_id FROM prizes WHERE id = $1', [prizeId]))?.lottery_id;

export type LockedPrize = {
  id: number;
  lottery_id: number;
  transaction_id: number;
  ticket: string;
  prize_money: number;
  withheld_at: string | null;
  claim_status: string | null;
};

/** The prize's row locked, then its claim's (a claim's payout details being stored for it wait, or were seen). */
export async function lockPrizeAndClaim(db: Db, prizeId: number): Promise<LockedPrize | undefined> {
  const p = await db.one<Omit<LockedPrize, 'claim_status'>>(
    'SELECT id, lottery_id, transaction_id, ticket, prize_money, withheld_at FROM prizes WHERE id = $1 FOR UPDATE',
    [prizeId],
  );
  if (!p) return undefined;
  const c = await db.one<{ status: string }>('SELECT status FROM prize_claims WHERE prize_id = $1 FOR UPDATE', [prizeId]);
  return { ...p, claim_status: c?.status ?? null };
}

export const lockWithholding = (db: Db, id: number) =>
  db.one<{ id: number; prize_id: number; reason: string; status: WithholdingState; proposed_by: number }>(
    'SELECT id, prize_id, reason, status, proposed_by FROM prize_withholding_proposals WHERE id = $1 FOR UPDATE',
    [id],
  );

export const pendingWithholdingOf = async (db: Db, prizeId: number) =>
  (await db.one<{ id: number }>(`SELECT id FROM prize_withholding_proposals WHERE prize_id = $1 AND status = 'pending'`, [prizeId]))?.id;

export async function insertWithholding(db: Db, p: { prizeId: number; reason: string; by: number }): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO prize_withholding_proposals (prize_id, reason, proposed_by) VALUES ($1, $2, $3) RETURNING id',
    [p.prizeId, p.reason, p.by],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const decideWithholding = (db: Db, id: number, status: Exclude<WithholdingState, 'pending'>, by: number, reason: string) =>
  db.query(
    `UPDATE prize_withholding_proposals SET status = $2, decided_by = $3, decided_at = now(), decision_reason = $4
      WHERE id = $1 AND status = 'pending'`,
    [id, status, by, reason],
  );

/** The prize withheld with the proposal's reason; its row, ticket and money stay (the results and the proof show it). */
export const markWithheld = (db: Db, prizeId: number, reason: string) =>
  db.query('UPDATE prizes SET withheld_at = now(), withheld_reason = $2 WHERE id = $1', [prizeId, reason]);
