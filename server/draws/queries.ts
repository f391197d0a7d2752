import type { Db } from '../db/index.ts';

/** What a draw needs of its lottery, read under the lottery's row lock. */
export type DrawLottery = { id: number; winners: number; total_prize: number; is_result_published: boolean };

/**
 * Locks the lottery's row until the transaction ends (the lock every purchase and status change of the lottery
 * takes first, server/purchases/queries.ts): two staff finishing the same draw take turns, and the second sees the
 * first one's results.
 */
export const lockDrawLottery = (db: Db, id: number) =>
  db.one<DrawLottery>('SELECT id, winners, total_prize, is_result_published FROM lotteries WHERE id = $1 FOR UPDATE', [id]);

/** Whether the lottery has prizes already (a draw whose results staff later took back is still drawn). */
export const hasPrizes = async (db: Db, lotteryId: number) =>
  (await db.one('SELECT 1 AS x FROM prizes WHERE lottery_id = $1 LIMIT 1', [lotteryId])) !== undefined;

export const lotteryExists = async (db: Db, id: number) => (await db.one('SELECT 1 AS x FROM lotteries WHERE id = $1', [id])) !== undefined;

/** The `success` transactions of the lottery among these tickets: the only ones that can win. */
export const soldTickets = (db: Db, lotteryId: number, tickets: readonly string[]) =>
  db.query<{ id: number; ticket: string }>(
    `SELECT id, ticket FROM transactions WHERE lottery_id = $1 AND status = 'success' AND ticket = ANY($2::text[])`,
    [lotteryId, tickets],
  );

export type PrizeRow = { id: number; lottery_id: number; transaction_id: number; ticket: string; prize_money: number };

export async function insertPrize(db: Db, p: Omit<PrizeRow, 'id'>): Promise<PrizeRow> {
  const row = await db.one<PrizeRow>(
    `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4)
     RETURNING id, lottery_id, transaction_id, ticket, prize_money`,
    [p.lottery_id, p.transaction_id, p.ticket, p.prize_money],
  );
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/** Publishes the results: sales close and players see their prizes. */
export async function publishResults(db: Db, id: number): Promise<string> {
  const row = await db.one<{ drawn_at: string }>(
    'UPDATE lotteries SET is_result_published = true, drawn_at = now(), updated_at = now() WHERE id = $1 RETURNING drawn_at',
    [id],
  );
  if (!row) throw new Error('lottery vanished under its lock');
  return row.drawn_at;
}

export const prizesOf = (db: Db, lotteryId: number) =>
  db.query<PrizeRow>('SELECT id, lottery_id, transaction_id, ticket, prize_money FROM prizes WHERE lottery_id = $1 ORDER BY id', [
    lotteryId,
  ]);
