import type { Db } from '../db/index.ts';

/** A game as stored (migration 035). */
export type GameRow = {
  id: number;
  name: string;
  name_bn: string;
  description: string;
  description_bn: string;
  ticket_price: number;
  tickets_per_draw: number;
  jackpot_share: number;
  tier2_prize: number;
  tier3_prize: number;
  tier4_prize: number;
  tier5_prize: number;
  lucky_count: number;
  lucky_prize: number;
  draw_days: number;
  draw_minute: number;
  close_minutes: number;
  draws_ahead: number;
  starts_at: string;
  active: boolean;
  carry: number;
  created_at: string;
  updated_at: string;
};

/** The columns staff set, in one order: INSERT and UPDATE are written from this list. */
export const GAME_SETTABLE = [
  'name',
  'name_bn',
  'description',
  'description_bn',
  'ticket_price',
  'tickets_per_draw',
  'jackpot_share',
  'tier2_prize',
  'tier3_prize',
  'tier4_prize',
  'tier5_prize',
  'lucky_count',
  'lucky_prize',
  'draw_days',
  'draw_minute',
  'close_minutes',
  'draws_ahead',
  'starts_at',
  'active',
] as const satisfies readonly (keyof GameRow)[];
export type GameValues = Pick<GameRow, (typeof GAME_SETTABLE)[number]>;

const COLUMNS = `id, ${GAME_SETTABLE.join(', ')}, carry, created_at, updated_at`;

/** A game as staff read it: with its next draw not drawn yet and how many of its draws are on sale now. */
export type GameReadRow = GameRow & { next_draw: string | null; draws_on_sale: number };
const READ_COLUMNS = `g.id, ${GAME_SETTABLE.map((c) => `g.${c}`).join(', ')}, g.carry, g.created_at, g.updated_at,
  (SELECT min(l.draw_at) FROM lotteries l WHERE l.game_id = g.id AND l.drawn_at IS NULL AND NOT l.is_result_published) AS next_draw,
  (SELECT count(*) FROM lotteries l WHERE l.game_id = g.id AND l.drawn_at IS NULL AND l.published AND l.end_date > now())::int AS draws_on_sale`;

export async function insertGame(db: Db, g: GameValues): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO games (${GAME_SETTABLE.join(', ')}) VALUES (${GAME_SETTABLE.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    GAME_SETTABLE.map((c) => g[c]),
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const updateGame = (db: Db, id: number, g: GameValues) =>
  db.query(`UPDATE games SET ${GAME_SETTABLE.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1`, [
    id,
    ...GAME_SETTABLE.map((c) => g[c]),
  ]);

export const game = (db: Db, id: number) => db.one<GameReadRow>(`SELECT ${READ_COLUMNS} FROM games g WHERE g.id = $1`, [id]);

/** Locks the game's row: what changes it, makes its draws or carries its jackpot takes this lock first. */
export const gameForUpdate = (db: Db, id: number) => db.one<GameRow>(`SELECT ${COLUMNS} FROM games WHERE id = $1 FOR UPDATE`, [id]);

export async function games(db: Db, limit: number, offset: number): Promise<{ rows: GameReadRow[]; total: number }> {
  const rows = await db.query<GameReadRow>(
    `SELECT ${READ_COLUMNS} FROM games g ORDER BY g.active DESC, g.created_at DESC, g.id DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const total = (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM games'))?.n ?? 0;
  return { rows, total };
}

/** The active games' ids: what the calendar job keeps on sale. */
export const activeGames = (db: Db) => db.query<{ id: number }>('SELECT id FROM games WHERE active ORDER BY id');

/** The instants of the game's draws from `from` on (ms since the epoch): what the calendar already made. */
export const drawsFrom = async (db: Db, gameId: number, from: Date): Promise<number[]> =>
  (
    await db.query<{ draw_at: string }>('SELECT draw_at FROM lotteries WHERE game_id = $1 AND draw_at >= $2', [gameId, from.toISOString()])
  ).map((r) => new Date(r.draw_at).getTime());

/** A draw of a game, as the calendar makes it: a published numbers lottery with the game's settings of now. */
export type NewDraw = Pick<
  GameRow,
  | 'name'
  | 'name_bn'
  | 'description'
  | 'description_bn'
  | 'ticket_price'
  | 'jackpot_share'
  | 'tier2_prize'
  | 'tier3_prize'
  | 'tier4_prize'
  | 'tier5_prize'
  | 'lucky_count'
  | 'lucky_prize'
> & { game_id: number; draw_at: Date; start_date: Date; end_date: Date; total_tickets: number; rollover_in: number };

/**
 * Inserts the draw unless the game has one at that instant (another instance made it first: the unique index):
 * answers its id, or undefined when it was there. `winners` and `total_prize` are a numbers lottery's unused 1.
 */
export const insertDraw = async (db: Db, d: NewDraw): Promise<number | undefined> =>
  (
    await db.one<{ id: number }>(
      `INSERT INTO lotteries (game_id, draw_at, start_date, end_date, name, name_bn, description, description_bn, ticket_price, total_tickets, winners, total_prize, published, kind, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize, lucky_count, lucky_prize, rollover_in)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, 1, true, 'numbers', $11, $12, $13, $14, $15, $16, $17, $18)
       ON CONFLICT (game_id, draw_at) WHERE game_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        d.game_id,
        d.draw_at.toISOString(),
        d.start_date.toISOString(),
        d.end_date.toISOString(),
        d.name,
        d.name_bn,
        d.description,
        d.description_bn,
        d.ticket_price,
        d.total_tickets,
        d.jackpot_share,
        d.tier2_prize,
        d.tier3_prize,
        d.tier4_prize,
        d.tier5_prize,
        d.lucky_count,
        d.lucky_prize,
        d.rollover_in,
      ],
    )
  )?.id;

/** Sets the game's waiting jackpot (`carry`), under its lock. */
export const setCarry = (db: Db, id: number, carry: number) =>
  db.query('UPDATE games SET carry = $2, updated_at = now() WHERE id = $1', [id, carry]);

/** A draw of a game as its calendar shows it (shared/games/schemas.ts GameDraw), before its numbers are parsed. */
export type GameDrawRow = {
  lottery_id: number;
  draw_at: string;
  end_date: string;
  drawn: boolean;
  is_result_published: boolean;
  tickets_sold: number;
  jackpot: number;
  rollover_in: number;
  rollover_out: number | null;
  numbers: string | null;
  prizes_total: number;
};

/** The game's draws not drawn yet, and the last `drawn` drawn ones, the latest first. */
export const gameDraws = (db: Db, gameId: number, drawn: number) =>
  db.query<GameDrawRow>(
    `SELECT * FROM (
       SELECT l.id AS lottery_id, l.draw_at, l.end_date, (l.drawn_at IS NOT NULL) AS drawn, l.is_result_published, x.sold::int AS tickets_sold, (x.paid * l.jackpot_share / 100 + l.rollover_in)::bigint AS jackpot, l.rollover_in, l.rollover_out, c.numbers, COALESCE((SELECT sum(p.prize_money) FROM prizes p WHERE p.lottery_id = l.id), 0)::bigint AS prizes_total,
         row_number() OVER (PARTITION BY l.drawn_at IS NOT NULL ORDER BY l.draw_at DESC) AS n
       FROM lotteries l JOIN lottery_tallies x ON x.lottery_id = l.id LEFT JOIN draw_commitments c ON c.lottery_id = l.id
       WHERE l.game_id = $1) d
     WHERE NOT d.drawn OR d.n <= $2 ORDER BY d.draw_at DESC`,
    [gameId, drawn],
  );

/**
 * The games' draws due: published, not drawn, their draw's time come and their beacon's value there (verified by the
 * draw itself), the earliest first. What the draw job takes (server/games/calendar.ts).
 */
export const dueDraws = (db: Db, now: Date, limit: number) =>
  db.query<{ id: number }>(
    `SELECT l.id FROM lotteries l JOIN draw_commitments c ON c.lottery_id = l.id
     WHERE l.game_id IS NOT NULL AND l.published AND l.drawn_at IS NULL AND NOT l.is_result_published AND l.draw_at <= $1 AND c.beacon_value IS NOT NULL AND c.revealed_at IS NULL
     ORDER BY l.draw_at, l.id LIMIT $2`,
    [now.toISOString(), limit],
  );

// The charts of a game's page (docs/rules/games.md#7-charts) ------------------------------------------------------

/** A draw of the game's charts, with what its jackpot and its days are computed from. */
export type StatsDrawRow = Pick<
  GameDrawRow,
  'lottery_id' | 'draw_at' | 'end_date' | 'drawn' | 'is_result_published' | 'tickets_sold' | 'jackpot' | 'rollover_in'
> & { start_date: string; jackpot_share: number };

/** The game's draws not drawn yet and its last `drawn` drawn ones, the latest first, as gameDraws lists them. */
export const statsDraws = (db: Db, gameId: number, drawn: number) =>
  db.query<StatsDrawRow>(
    `SELECT * FROM (
       SELECT l.id AS lottery_id, l.draw_at, l.end_date, l.start_date, l.jackpot_share, (l.drawn_at IS NOT NULL) AS drawn, l.is_result_published,
         x.sold::int AS tickets_sold, (x.paid * l.jackpot_share / 100 + l.rollover_in)::bigint AS jackpot, l.rollover_in,
         row_number() OVER (PARTITION BY l.drawn_at IS NOT NULL ORDER BY l.draw_at DESC) AS n
       FROM lotteries l JOIN lottery_tallies x ON x.lottery_id = l.id
       WHERE l.game_id = $1) d
     WHERE NOT d.drawn OR d.n <= $2 ORDER BY d.draw_at DESC`,
    [gameId, drawn],
  );

/** A draw's paid (`success`) tickets bought on one Dhaka day, and what they paid. */
export type SalesDayRow = { lottery_id: number; day: string; tickets: number; paid: number };

/** The lotteries' paid tickets per Dhaka day of their purchase (`YYYY-MM-DD`), each lottery's days in order. */
export const salesDays = (db: Db, lotteryIds: number[]) =>
  lotteryIds.length
    ? db.query<SalesDayRow>(
        `SELECT t.lottery_id, to_char((t.created_at AT TIME ZONE 'Asia/Dhaka')::date, 'YYYY-MM-DD') AS day, count(*)::int AS tickets,
           sum(t.amount)::bigint AS paid
         FROM transactions t WHERE t.lottery_id = ANY($1::bigint[]) AND t.status = 'success'
         GROUP BY 1, 2 ORDER BY 1, 2`,
        [lotteryIds],
      )
    : Promise.resolve([]);

/** What each lottery's prizes owe their winners, by where the money stands (shared/games/schemas.ts OwedToWinners). */
export type OwedRow = { lottery_id: number; paid_out: number; claimed: number; unclaimed: number; withheld: number };

export const owedToWinners = (db: Db, lotteryIds: number[]) =>
  lotteryIds.length
    ? db.query<OwedRow>(
        `SELECT p.lottery_id,
           COALESCE(sum(p.prize_money) FILTER (WHERE p.withheld_at IS NULL AND c.status = 'transfer_completed'), 0)::bigint AS paid_out,
           COALESCE(sum(p.prize_money) FILTER (WHERE p.withheld_at IS NULL AND c.id IS NOT NULL AND c.status <> 'transfer_completed'), 0)::bigint AS claimed,
           COALESCE(sum(p.prize_money) FILTER (WHERE p.withheld_at IS NULL AND c.id IS NULL), 0)::bigint AS unclaimed,
           COALESCE(sum(p.prize_money) FILTER (WHERE p.withheld_at IS NOT NULL), 0)::bigint AS withheld
         FROM prizes p LEFT JOIN prize_claims c ON c.prize_id = p.id
         WHERE p.lottery_id = ANY($1::bigint[]) GROUP BY p.lottery_id`,
        [lotteryIds],
      )
    : Promise.resolve([]);
