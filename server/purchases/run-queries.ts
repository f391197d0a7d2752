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
  draws_asked: number;
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
  s: Pick<SlipRow, 'user_id' | 'game_id' | 'lines' | 'draws' | 'draws_asked' | 'amount' | 'idempotency_key'>,
): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO slips (user_id, game_id, lines, draws, draws_asked, amount, idempotency_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [s.user_id, s.game_id, s.lines, s.draws, s.draws_asked, s.amount, s.idempotency_key],
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

/** A slip's entries other than `except`, locked, with their lotteries' ids (the caller locked those first). */
export const siblingsForUpdate = (db: Db, slipId: number, except: number) =>
  db.query<TransactionRow>('SELECT * FROM transactions WHERE slip_id = $1 AND id <> $2 ORDER BY id FOR UPDATE', [slipId, except]);

/** The lotteries of a slip's entries, in id order: the order their locks are taken in. */
export const lotteriesOfSlip = async (db: Db, slipId: number): Promise<number[]> =>
  (
    await db.query<{ lottery_id: number }>('SELECT DISTINCT lottery_id FROM transactions WHERE slip_id = $1 ORDER BY lottery_id', [slipId])
  ).map((r) => Number(r.lottery_id));

/** A slip as one line of My Lotteries (RunSummary), its figures counted over its entries. */
export type RunSummaryRow = Pick<SlipRow, 'id' | 'draws' | 'lines' | 'amount' | 'status'> & {
  g_name: string;
  g_name_bn: string;
  tickets: string[];
  drawn: number;
  won: number;
  to_claim: number;
  first_draw_at: string;
  last_draw_at: string;
  next_draw_at: string | null;
};

/**
 * The player's slips among `ids`, summed up: their lines (the lead's draw's entries, in the order played), the draws
 * with published results, what the entries won there (withheld prizes aside), the prizes that can be claimed now (no
 * details sent, or a failed transfer, within `claimDays` of the results) and their first, last and next draw.
 */
export const runSummaries = (db: Db, userId: number, ids: readonly number[], claimDays: number) =>
  db.query<RunSummaryRow>(
    `SELECT s.id, s.draws, s.lines, s.amount, s.status, g.name AS g_name, g.name_bn AS g_name_bn,
       array_agg(e.ticket ORDER BY e.id) FILTER (WHERE e.lottery_id = lead.lottery_id) AS tickets,
       count(DISTINCT e.lottery_id) FILTER (WHERE l.is_result_published)::int AS drawn,
       COALESCE(sum(p.prize_money) FILTER (WHERE l.is_result_published AND p.withheld_reason IS NULL), 0)::bigint AS won,
       count(p.id) FILTER (WHERE l.is_result_published AND p.withheld_reason IS NULL
         AND (c.status IS NULL OR c.status IN ('pending', 'transfer_failed'))
         AND COALESCE(l.drawn_at, l.end_date) + make_interval(days => $3) > now())::int AS to_claim,
       min(l.draw_at) AS first_draw_at, max(l.draw_at) AS last_draw_at,
       min(l.draw_at) FILTER (WHERE NOT l.is_result_published) AS next_draw_at
     FROM slips s
     JOIN games g ON g.id = s.game_id
     JOIN transactions lead ON lead.id = s.lead_id
     JOIN transactions e ON e.slip_id = s.id
     JOIN lotteries l ON l.id = e.lottery_id
     LEFT JOIN prizes p ON p.transaction_id = e.id
     LEFT JOIN prize_claims c ON c.prize_id = p.id
     WHERE s.id = ANY($1::bigint[]) AND s.user_id = $2
     GROUP BY s.id, g.name, g.name_bn
     ORDER BY s.id`,
    [ids, userId, claimDays],
  );
