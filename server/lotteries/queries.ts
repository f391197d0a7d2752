import type { Db } from '../db/index.ts';
import { numbersOf, type LotteryKind } from '../../shared/draws/tiers.ts';

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
  /** The commitment `C` of the lottery's announced draw, null before it announced one. */
  commitment: string | null;
  /** Its draw's beacon value has no valid drand signature (PROOF_STATE). */
  beacon_unverified: boolean;
  /** The tickets frozen at the close of its sales, null before (PROOF_STATE). */
  frozen: { tickets: number; tickets_digest: string } | null;
  /** docs/rules/lotteries-and-sales.md#1-lottery-fields: the kind, a numbers lottery's prizes, rollover and jackpot. */
  kind: LotteryKind;
  jackpot_share: number | null;
  tier2_prize: number | null;
  tier3_prize: number | null;
  tier4_prize: number | null;
  tier5_prize: number | null;
  rollover_in: number;
  rollover_to: number | null;
  jackpot: number | null;
  /** A game's draw (docs/rules/games.md): its game and when it is drawn; its Lucky Chance (0 and 0: none). */
  game_id: number | null;
  draw_at: string | null;
  lucky_count: number;
  lucky_prize: number;
};

/**
 * How many combinations of the lottery `l` are held: pending and successful transactions, and generated tickets not
 * yet activated (docs/rules/tickets.md#6-generated-tickets); an activated one is counted as its transaction. Kept in
 * its tally by the database's triggers as the rows change (migration 022, docs/decisions/043-lottery-tallies.md), so
 * that reading it does not count a big lottery's rows again. Fails closed: a lottery without a tally is never on sale.
 */
export const HELD = `(SELECT x.held FROM lottery_tallies x WHERE x.lottery_id = l.id)`;

/**
 * The lottery `l` has been drawn: its results were published at least once, by a draw or without one (`drawn_at` is
 * set then and never cleared; a draw's prizes come with it). Taking the results back hides them; it does not undo
 * the draw (docs/rules/lotteries-and-sales.md#4-when-a-lottery-can-be-bought).
 */
export const DRAWN = `(l.drawn_at IS NOT NULL)`;

/** The commitment of the lottery `l`'s announced draw, public from the start (docs/rules/draws.md#2-the-seed-and-its-commitment). */
export const COMMITMENT = `(SELECT c.commitment FROM draw_commitments c WHERE c.lottery_id = l.id) AS commitment`;

/**
 * What a lottery card says of the lottery `l`'s draw proof (docs/rules/draws.md#12-where-it-stands), read in the list's
 * own statement (one lookup by primary key per row, no query per card):
 * - `beacon_unverified`: its beacon value has no drand signature, or is a demo sample — shared/draws/proof.ts
 *   `isUnverifiedBeacon`, the rule the proof page shows, in SQL (the server stores a signature only once verified,
 *   decision 046); false without an announced draw or before the value is known;
 * - `frozen`: once its tickets froze at the close (decision 045), their count `n` and digest `T`, as the proof has them.
 */
export const PROOF_STATE = `COALESCE((SELECT c.beacon_value IS NOT NULL AND (c.beacon_signature IS NULL OR c.beacon_sample)
    FROM draw_commitments c WHERE c.lottery_id = l.id), false) AS beacon_unverified,
  (SELECT json_build_object('tickets', f.tickets_count, 'tickets_digest', f.tickets_digest)
    FROM ticket_freezes f WHERE f.lottery_id = l.id) AS frozen`;

/**
 * A numbers lottery `l`'s jackpot, null for the tickets kind: `⌊sales × jackpot_share / 100⌋ + rollover_in`, the sales
 * being its `success` tickets' price (the rule of jackpotAmount, shared/draws/tiers.ts; docs/rules/lotteries-and-sales.md#9-the-draw),
 * kept in its tally as HELD is. After the draw it no longer changes: the paid tickets are frozen and a drawn lottery receives no rollover.
 * `jackpotOf` is the same rule for a statement that has the tally's `paid` at hand (joined rather than looked up per row).
 */
export const jackpotOf = (paid: string) => `(CASE WHEN l.kind = 'numbers' THEN ${paid} * l.jackpot_share / 100 + l.rollover_in END)`;
export const JACKPOT = jackpotOf('(SELECT x.paid FROM lottery_tallies x WHERE x.lottery_id = l.id)');

/** The kind and a numbers lottery's settings, and its jackpot (`jackpot`). */
export const NUMBERS_COLUMNS = `l.kind, l.jackpot_share, l.tier2_prize, l.tier3_prize, l.tier4_prize, l.tier5_prize, l.rollover_in, l.rollover_to,
  ${JACKPOT} AS jackpot, l.game_id, l.draw_at, l.lucky_count, l.lucky_prize`;

const COLUMNS = `l.id, l.name, l.name_bn, l.description, l.description_bn, l.start_date, l.end_date, l.ticket_price, l.total_tickets, l.winners,
  l.total_prize, l.published, l.featured, l.is_result_published, ${DRAWN} AS drawn, ${HELD}::int AS tickets_sold, ${COMMITMENT},
  ${PROOF_STATE}, ${NUMBERS_COLUMNS}`;

/**
 * Purchasable: published, sales open (end_date authoritative), result not out and never drawn, tickets left; a condition on the
 * lottery `l`, by the database's clock. A purchase checks it under its share of the lottery's lock, and its last ticket again
 * under the tally's row (server/purchases/queries.ts insertPurchase).
 */
export const PURCHASABLE = `l.published AND NOT l.is_result_published AND NOT ${DRAWN} AND l.start_date <= now() AND l.end_date > now()
  AND ${HELD} < l.total_tickets`;

/**
 * Locks the lottery's row until the transaction ends: every status change of one lottery, its close and its draw take
 * this lock first, so that they take turns with one another and with its purchases (which share it, below), and each
 * sees what the other committed. Undefined when there is no such lottery.
 */
export const lockLottery = (db: Db, id: number) => db.one<{ id: number }>('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE', [id]);

/**
 * A purchase's share of the lottery's lock, until the transaction ends: purchases of one lottery no longer wait for one
 * another here, only for the close, the draw and every change that moves a ticket (FOR UPDATE), and those for them.
 * The last ticket is then decided by the tally's row (insertPurchase). Only while its sales have not ended by the
 * transaction's clock: a purchase after the end takes no share, so that the close, which waits for every holder, is
 * not held off by buyers it will refuse (docs/decisions/094-purchases-share-the-lottery.md). Undefined when there is
 * no such lottery or its sales ended.
 */
export const shareLotteryForPurchase = (db: Db, id: number) =>
  db.one<{ id: number }>('SELECT id FROM lotteries WHERE id = $1 AND end_date > now() FOR SHARE', [id]);

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
export const saleState = (db: Db, id: number) => db.one<SaleState>(`SELECT ${SALE_COLUMNS} FROM lotteries l WHERE l.id = $1`, [id]);

/** SaleState's columns of the lottery `l`, for a statement that reads more beside them (a purchase: who holds its combination). */
export const SALE_COLUMNS = `l.id, l.published, l.is_result_published, ${DRAWN} AS drawn, l.start_date, l.end_date, l.ticket_price,
  l.total_tickets, ${HELD}::int AS tickets_sold, (${PURCHASABLE}) AS purchasable`;

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
  lottery: Pick<
    LotteryRow,
    'id' | 'name' | 'name_bn' | 'start_date' | 'end_date' | 'total_prize' | 'kind' | 'beacon_unverified' | 'frozen'
  > & { drawn_at: string | null };
  prizes: { id: number; ticket: string; prize_money: number; tier: number | null; withheld_reason: string | null }[];
  /** A numbers draw's `[m1, …, m5, last]`; null for a winning-tickets draw. */
  numbers: number[] | null;
  rollover: { amount: number; to: number } | null;
};

/**
 * Latest published results: the ten most recent draws, each with its winning tickets (a numbers draw's by tier, the
 * jackpot first), its drawn numbers and its rollover (docs/rules/lotteries-and-sales.md#10-results-for-players).
 */
export async function latestResults(db: Db, limit = 10): Promise<ResultRow[]> {
  const lotteries = await db.query<
    Omit<ResultRow['lottery'], 'total_prize'> & {
      total_prize: number;
      jackpot: number | null;
      numbers: string | null;
      rollover_out: number | null;
      rollover_to: number | null;
    }
  >(
    `SELECT l.id, l.name, l.name_bn, l.start_date, l.end_date, l.total_prize, l.kind, ${JACKPOT} AS jackpot, l.drawn_at,
       (SELECT c.numbers FROM draw_commitments c WHERE c.lottery_id = l.id) AS numbers, l.rollover_out, l.rollover_to,
       ${PROOF_STATE}
     FROM lotteries l
      WHERE l.published AND l.is_result_published ORDER BY COALESCE(l.drawn_at, l.end_date) DESC, l.id DESC LIMIT $1`,
    [limit],
  );
  if (!lotteries.length) return [];
  const prizes = await db.query<ResultRow['prizes'][number] & { lottery_id: number }>(
    `SELECT id, lottery_id, ticket, prize_money, tier, withheld_reason FROM prizes WHERE lottery_id = ANY($1::bigint[])
     ORDER BY tier NULLS FIRST, id`,
    [lotteries.map((l) => l.id)],
  );
  return lotteries.map(({ jackpot, numbers, rollover_out, rollover_to, ...lottery }) => ({
    lottery: { ...lottery, total_prize: jackpot ?? lottery.total_prize },
    prizes: prizes.filter((p) => p.lottery_id === lottery.id).map(({ lottery_id: _l, ...p }) => p),
    numbers: numbersOf(numbers),
    rollover: rollover_out !== null && rollover_to !== null ? { amount: rollover_out, to: rollover_to } : null,
  }));
}
