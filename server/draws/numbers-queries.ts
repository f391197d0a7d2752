import type { Db } from '../db/index.ts';
import type { Tier } from '../../shared/draws/tiers.ts';
import type { PrizeRow } from './queries.ts';

/** A numbers lottery as its draw reads it, under the lottery's lock (migration 016). */
export type NumbersLottery = {
  id: number;
  jackpot_share: number;
  tier2_prize: number;
  tier3_prize: number;
  tier4_prize: number;
  tier5_prize: number;
  rollover_in: number;
  rollover_to: number | null;
};

/** The lottery's numbers-draw settings; undefined for a winning-tickets lottery (or none). */
export const numbersLottery = (db: Db, id: number) =>
  db.one<NumbersLottery>(
    `SELECT id, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize, rollover_in, rollover_to
     FROM lotteries WHERE id = $1 AND kind = 'numbers'`,
    [id],
  );

/** The lottery its jackpot would roll into, read without a lock (the draw then locks both in id order). */
export const rolloverTargetOf = async (db: Db, id: number): Promise<number | null> =>
  (await db.one<{ rollover_to: number | null }>(`SELECT rollover_to FROM lotteries WHERE id = $1 AND kind = 'numbers'`, [id]))
    ?.rollover_to ?? null;

/** The sum of the lottery's `success` tickets' price: the sales its jackpot is a share of. */
export const salesOf = async (db: Db, id: number) =>
  (
    await db.one<{ sales: number }>(
      "SELECT COALESCE(sum(amount), 0)::bigint AS sales FROM transactions WHERE lottery_id = $1 AND status = 'success'",
      [id],
    )
  )?.sales ?? 0;

/** Locks the lottery a jackpot rolls into and reads what the draw checks of it. */
export const lockRolloverTarget = (db: Db, id: number) =>
  db.one<{ id: number; kind: string; rollover_in: number; drawn: boolean }>(
    `SELECT id, kind, rollover_in, (drawn_at IS NOT NULL OR is_result_published) AS drawn FROM lotteries WHERE id = $1 FOR UPDATE`,
    [id],
  );

export const addRollover = async (db: Db, id: number, amount: number) =>
  (
    await db.one<{ rollover_in: number }>(
      'UPDATE lotteries SET rollover_in = rollover_in + $2, updated_at = now() WHERE id = $1 RETURNING rollover_in',
      [id, amount],
    )
  )?.rollover_in;

/** What the draw rolled out of the lottery (0: its jackpot was won, or was 0). */
export const setRolloverOut = (db: Db, id: number, amount: number) =>
  db.query('UPDATE lotteries SET rollover_out = $2, updated_at = now() WHERE id = $1', [id, amount]);

export async function insertTierPrize(db: Db, p: Omit<PrizeRow, 'id'> & { tier: Tier }): Promise<PrizeRow & { tier: number }> {
  const row = await db.one<PrizeRow & { tier: number }>(
    `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money, tier) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, lottery_id, transaction_id, ticket, prize_money, tier`,
    [p.lottery_id, p.transaction_id, p.ticket, p.prize_money, p.tier],
  );
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/** The numbers draw by the procedure: the tickets it saw, their digest, the numbers (written as a ticket), the seed revealed. */
export const recordNumbersDraw = (
  db: Db,
  lotteryId: number,
  d: { seed: string; tickets: string; ticketsDigest: string; numbers: string },
) =>
  db.query(
    `UPDATE draw_commitments SET tickets = $2, tickets_digest = $3, numbers = $4, seed = $5, seed_sealed = NULL, revealed_at = now(),
       updated_at = now()
     WHERE lottery_id = $1`,
    [lotteryId, d.tickets, d.ticketsDigest, d.numbers, d.seed],
  );
