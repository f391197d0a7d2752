/** The SQL of runs of consecutive draws, paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips). */
import type { Db } from '../db/index.ts';
import { PURCHASABLE } from '../lotteries/service.ts';
import type { TransactionRow } from './queries.ts';

/** A row of `slips` (migration 036). */
export type SlipRow = {
  id: number;
  user_id: number;
  game_id: number;
  lines: number;
  draws: number;
  amount: number;
  status: 'pending' | 'paid' | 'failed';
  lead_id: number | null;
  trx_id: string | null;
  idempotency_key: string | null;
  created_at: string;
  updated_at: string;
};

/** The game's next `count` draws on sale now, earliest first, with their price. */
export const drawsOnSale = (db: Db, gameId: number, count: number) =>
  db.query<{ id: number; draw_at: string; ticket_price: number }>(
    `SELECT l.id, l.draw_at, l.ticket_price FROM lotteries l WHERE l.game_id = $1 AND ${PURCHASABLE} ORDER BY l.draw_at, l.id LIMIT $2`,
    [gameId, count],
  );

export const gameExists = async (db: Db, gameId: number) => (await db.one('SELECT id FROM games WHERE id = $1', [gameId])) !== undefined;

/** The lotteries among `ids` that hold `ticket` (a pending or paid transaction, a generated ticket not activated). */
export const holdersAmong = async (db: Db, ids: readonly number[], ticket: string): Promise<number[]> =>
  (
    await db.query<{ lottery_id: number }>(
      `SELECT lottery_id FROM transactions WHERE lottery_id = ANY($1::bigint[]) AND ticket = $2 AND status IN ('pending', 'success')
       UNION SELECT lottery_id FROM generated_tickets WHERE lottery_id = ANY($1::bigint[]) AND ticket_number = $2 AND activated_at IS NULL`,
      [ids, ticket],
    )
  ).map((r) => Number(r.lottery_id));

export const slipByKey = (db: Db, userId: number, key: string) =>
  db.one<SlipRow>('SELECT * FROM slips WHERE user_id = $1 AND idempotency_key = $2', [userId, key]);

export const slip = (db: Db, id: number) => db.one<SlipRow>('SELECT * FROM slips WHERE id = $1', [id]);

export const slipForUpdate = (db: Db, id: number) => db.one<SlipRow>('SELECT * FROM slips WHERE id = $1 FOR UPDATE', [id]);

export async function insertSlip(
  db: Db,
  s: { user_id: number; game_id: number; lines: number; draws: number; amount: number; idempotency_key: string | null },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    'INSERT INTO slips (user_id, game_id, lines, draws, amount, idempotency_key) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [s.user_id, s.game_id, s.lines, s.draws, s.amount, s.idempotency_key],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

/** One entry of a slip: a pending bKash purchase of its line in its draw, for the draw's price. */
export async function insertEntry(
  db: Db,
  e: { user_id: number; lottery_id: number; ticket: string; amount: number; slip_id: number },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, payment_number, status, slip_id)
     VALUES ($1, $2, $3, $4, 'payment', 'bkash', '', 'pending', $5) RETURNING id`,
    [e.user_id, e.lottery_id, e.ticket, e.amount, e.slip_id],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const setLead = (db: Db, slipId: number, leadId: number) =>
  db.query('UPDATE slips SET lead_id = $2 WHERE id = $1', [slipId, leadId]);

export const settleSlip = (db: Db, slipId: number, status: 'paid' | 'failed', trxId: string | null) =>
  db.query('UPDATE slips SET status = $2, trx_id = $3, updated_at = now() WHERE id = $1', [slipId, status, trxId]);

/** A slip's entry with its draw: its name, time and, once its results are published, its numbers and this entry's prize. */
export type EntryRow = TransactionRow & {
  draw_at: string;
  l_name: string;
  l_name_bn: string;
  numbers: string | null;
  prize_money: number | null;
};

/** A slip's entries with their draws, in draw order then line order. */
export const entriesOf = (db: Db, slipId: number) =>
  db.query<EntryRow>(
    `SELECT t.*, l.draw_at, l.name AS l_name, l.name_bn AS l_name_bn,
       CASE WHEN l.is_result_published THEN (SELECT c.numbers FROM draw_commitments c WHERE c.lottery_id = l.id) END AS numbers,
       CASE WHEN l.is_result_published THEN (SELECT p.prize_money FROM prizes p WHERE p.transaction_id = t.id) END AS prize_money
     FROM transactions t JOIN lotteries l ON l.id = t.lottery_id WHERE t.slip_id = $1 ORDER BY l.draw_at, t.id`,
    [slipId],
  );

/** A slip's entries other than `except`, locked, with their lotteries' ids (the caller locked those first). */
export const siblingsForUpdate = (db: Db, slipId: number, except: number) =>
  db.query<TransactionRow>('SELECT * FROM transactions WHERE slip_id = $1 AND id <> $2 ORDER BY id FOR UPDATE', [slipId, except]);

/** The lotteries of a slip's entries, in id order: the order their locks are taken in. */
export const lotteriesOfSlip = async (db: Db, slipId: number): Promise<number[]> =>
  (
    await db.query<{ lottery_id: number }>('SELECT DISTINCT lottery_id FROM transactions WHERE slip_id = $1 ORDER BY lottery_id', [slipId])
  ).map((r) => Number(r.lottery_id));
