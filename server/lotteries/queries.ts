import type { Db } from '../db/index.ts';

export type LotteryRow = {
  id: number;
  name: string;
  name_bn: string;
  description: string;
  description_bn: string;
  start_date: string;
  end_date: string;
  ticket_price: number;
  total_tickets: number;
  winners: number;
  total_prize: number;
  published: boolean;
  featured: boolean;
  is_result_published: boolean;
  /** Drawn once (results published at least once): sales never open again. */
  drawn: boolean;
  tickets_sold: number;
};

/**
 * How many combinations of the lottery `l` are held: pending and successful transactions, and generated tickets not
 * yet activated (docs/rules/tickets.md#6-generated-tickets); an activated one is counted as its transaction.
 */
export const HELD = `((SELECT count(*) FROM transactions t WHERE t.lottery_id = l.id AND t.status IN ('pending', 'success'))
  + (SELECT count(*) FROM generated_tickets g WHERE g.lottery_id = l.id AND g.activated_at IS NULL))`;

/**
 * The lottery `l` has been drawn: its results were published at least once, by a draw or without one (`drawn_at` is
 * set then and never cleared; a draw's prizes come with it). Taking the results back hides them; it does not undo
 * the draw (docs/rules/lotteries-and-sales.md#4-when-a-lottery-can-be-bought).
 */
export const DRAWN = `(l.drawn_at IS NOT NULL)`;

const COLUMNS = `l.id, l.name, l.name_bn, l.description, l.description_bn, l.start_date, l.end_date, l.ticket_price, l.total_tickets, l.winners,
  l.total_prize, l.published, l.featured, l.is_result_published, ${DRAWN} AS drawn, ${HELD}::int AS tickets_sold`;

/**
 * Purchasable: published, sales open (end_date authoritative), result not out and never drawn, tickets left; a condition on the
 * lottery `l`, by the database's clock. The purchase checks it under the lottery's row lock (saleState below).
 */
export const PURCHASABLE = `l.published AND NOT l.is_result_published AND NOT ${DRAWN} AND l.start_date <= now() AND l.end_date > now()
  AND ${HELD} < l.total_tickets`;

/**
 * Locks the lottery's row until the transaction ends: every purchase and every status change of one lottery takes
 * this lock first, so that two buyers of its last ticket (or a buyer and staff moving a failed sale back to pending)
 * take turns, and each sees what the other committed. Undefined when there is no such lottery.
 */
export const lockLottery = (db: Db, id: number) => db.one<{ id: number }>('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE', [id]);

export type SaleState = {
  id: number;
  published: boolean;
  is_result_published: boolean;
  drawn: boolean;
  start_date: string;
  end_date: string;
  ticket_price: number;
  total_tickets: number;
  tickets_sold: number;
  purchasable: boolean;
};

/**
 * Whether the lottery can be bought now, by the rule of the lottery lists (PURCHASABLE above,
 * docs/rules/lotteries-and-sales.md#4-when-a-lottery-can-be-bought). Run after lockLottery, in a statement of its
 * own: its snapshot then includes every sale committed before the lock was granted.
 */
export const saleState = (db: Db, id: number) =>
  db.one<SaleState>(
    `SELECT l.id, l.published, l.is_result_published, ${DRAWN} AS drawn, l.start_date, l.end_date, l.ticket_price, l.total_tickets,
       ${HELD}::int AS tickets_sold,
       (${PURCHASABLE}) AS purchasable
     FROM lotteries l WHERE l.id = $1`,
    [id],
  );

export async function publishedLotteries(db: Db, limit: number, offset: number): Promise<{ rows: LotteryRow[]; total: number }> {
  const rows = await db.query<LotteryRow>(
    `SELECT ${COLUMNS} FROM lotteries l WHERE l.published
      ORDER BY (${PURCHASABLE}) DESC, l.end_date ASC, l.id ASC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const total = (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM lotteries WHERE published'))?.n ?? 0;
  return { rows, total };
}

export async function featuredLotteries(db: Db): Promise<LotteryRow[]> {
  return db.query<LotteryRow>(
    `SELECT ${COLUMNS} FROM lotteries l WHERE l.featured AND ${PURCHASABLE} ORDER BY l.end_date ASC, l.id ASC LIMIT 10`,
  );
}

export async function lotteryById(db: Db, id: number): Promise<LotteryRow | undefined> {
  return db.one<LotteryRow>(`SELECT ${COLUMNS} FROM lotteries l WHERE l.id = $1`, [id]);
}

export type ResultRow = {
  lottery: Pick<LotteryRow, 'id' | 'name' | 'name_bn' | 'start_date' | 'end_date' | 'total_prize'>;
  prizes: { id: number; ticket: string; prize_money: number }[];
};

/** Latest published results: the ten most recent draws, each with its winning tickets. */
export async function latestResults(db: Db, limit = 10): Promise<ResultRow[]> {
  const lotteries = await db.query<ResultRow['lottery'] & { drawn_at: string | null }>(
    `SELECT id, name, name_bn, start_date, end_date, total_prize, drawn_at FROM lotteries
      WHERE published AND is_result_published ORDER BY COALESCE(drawn_at, end_date) DESC, id DESC LIMIT $1`,
    [limit],
  );
  if (!lotteries.length) return [];
  const prizes = await db.query<{ id: number; lottery_id: number; ticket: string; prize_money: number }>(
    'SELECT id, lottery_id, ticket, prize_money FROM prizes WHERE lottery_id = ANY($1::bigint[]) ORDER BY id',
    [lotteries.map((l) => l.id)],
  );
  return lotteries.map(({ drawn_at: _d, ...lottery }) => ({
    lottery,
    prizes: prizes.filter((p) => p.lottery_id === lottery.id).map(({ lottery_id: _l, ...p }) => p),
  }));
}
