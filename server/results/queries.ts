/**
 * The SQL of the results archive and "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players).
 * A drawn lottery here is a published one whose results are published; its draw time is `drawn_at`, or its end of sales
 * for a lottery published without one (as the home page's results order them).
 */
import type { Db } from '../db/index.ts';
import { likePattern } from '../db/like.ts';
import { JACKPOT, PROOF_STATE } from '../lotteries/service.ts';
import type { LotteryKind } from '../../shared/draws/tiers.ts';

const DRAWN_AT = `COALESCE(l.drawn_at, l.end_date)`;
const SHOWN = `l.published AND l.is_result_published`;

export type ArchiveRow = {
  id: number;
  name: string;
  name_bn: string;
  kind: LotteryKind;
  drawn_at: string;
  total_prize: number;
  /** A numbers lottery's jackpot (null for the tickets kind). */
  jackpot: number | null;
  tier2_prize: number | null;
  tier3_prize: number | null;
  tier4_prize: number | null;
  tier5_prize: number | null;
  rollover_out: number | null;
  rollover_to: number | null;
  /** A numbers draw's result written as a ticket. */
  numbers: string | null;
  /** A game's draw's Lucky Chance: its winners' tickets in the order drawn (one per line), its commitment and each prize. */
  lucky: string | null;
  commitment: string | null;
  lucky_prize: number;
  /** Drawn by the procedure: its seed revealed (docs/rules/draws.md#9-the-proof). */
  verifiable: boolean;
  /** Where the draw stands (server/lotteries/queries.ts PROOF_STATE). */
  beacon_unverified: boolean;
  frozen: { tickets: number; tickets_digest: string } | null;
};

export type ArchiveFilter = { search: string | null; date: { from: string; to: string } | null };

/**
 * A page of drawn lotteries, newest draw first, and how many there are. The jackpot of a drawn numbers lottery that
 * nobody won is what rolled over (`rollover_out`), so the sum over its tickets is only made for a jackpot that was won.
 */
export async function archivePage(db: Db, f: ArchiveFilter, limit: number, offset: number): Promise<{ rows: ArchiveRow[]; total: number }> {
  const where = `WHERE ${SHOWN}
    AND ($1::text IS NULL OR l.name ILIKE $1 OR l.name_bn ILIKE $1)
    AND ($2::timestamptz IS NULL OR (${DRAWN_AT} >= $2::timestamptz AND ${DRAWN_AT} < $3::timestamptz))`;
  const params = [f.search === null ? null : likePattern(f.search), f.date?.from ?? null, f.date?.to ?? null];
  const rows = await db.query<ArchiveRow>(
    `SELECT l.id, l.name, l.name_bn, l.kind, ${DRAWN_AT} AS drawn_at, l.total_prize,
       CASE WHEN l.kind = 'numbers' THEN COALESCE(NULLIF(l.rollover_out, 0), ${JACKPOT}) END AS jackpot,
       l.tier2_prize, l.tier3_prize, l.tier4_prize, l.tier5_prize, l.rollover_out, l.rollover_to,
       c.numbers, c.lucky, c.commitment, l.lucky_prize, (c.revealed_at IS NOT NULL) AS verifiable, ${PROOF_STATE}
     FROM lotteries l LEFT JOIN draw_commitments c ON c.lottery_id = l.id
     ${where}
     ORDER BY ${DRAWN_AT} DESC, l.id DESC LIMIT $4 OFFSET $5`,
    [...params, limit, offset],
  );
  const total = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM lotteries l ${where}`, params))?.n ?? 0;
  return { rows, total };
}

/**
 * Per numbers lottery and tier: how many prizes it paid and the most one paid (all of a tier pay the same), less a
 * Lucky Chance prize held in the same prize (docs/rules/games.md#5-lucky-chance).
 */
export const tierCounts = (db: Db, lotteryIds: number[]) =>
  lotteryIds.length
    ? db.query<{ lottery_id: number; tier: number; winners: number; each: number }>(
        `SELECT p.lottery_id, p.tier, count(*)::int AS winners, max(p.prize_money - CASE WHEN p.lucky_code IS NULL THEN 0 ELSE l.lucky_prize END) AS each
         FROM prizes p JOIN lotteries l ON l.id = p.lottery_id
         WHERE p.lottery_id = ANY($1::bigint[]) AND p.tier IS NOT NULL GROUP BY p.lottery_id, p.tier`,
        [lotteryIds],
      )
    : Promise.resolve([]);

/** The winning tickets of winning-tickets draws (a lottery has at most its `winners` of them), in the order drawn. */
export const winningTickets = (db: Db, lotteryIds: number[]) =>
  lotteryIds.length
    ? db.query<{ lottery_id: number; ticket: string; prize_money: number; withheld_reason: string | null }>(
        'SELECT lottery_id, ticket, prize_money, withheld_reason FROM prizes WHERE lottery_id = ANY($1::bigint[]) ORDER BY lottery_id, id',
        [lotteryIds],
      )
    : Promise.resolve([]);

/** Per lottery with withheld prizes: what they come to (docs/rules/lotteries-and-sales.md#9-the-draw). */
export const withheldTotals = (db: Db, lotteryIds: number[]) =>
  lotteryIds.length
    ? db.query<{ lottery_id: number; amount: number }>(
        `SELECT lottery_id, sum(prize_money)::int AS amount FROM prizes
         WHERE lottery_id = ANY($1::bigint[]) AND withheld_at IS NOT NULL GROUP BY lottery_id`,
        [lotteryIds],
      )
    : Promise.resolve([]);

export type HitLottery = { id: number; name: string; name_bn: string; kind: LotteryKind; drawn_at: string };

/**
 * The winning-tickets draws whose winners include the ticket, newest first. Driven by the drawn lotteries: each is one
 * look-up in the prizes' unique (lottery, ticket) index, whatever the number of prizes.
 */
export const ticketPrizes = (db: Db, ticket: string) =>
  db.query<HitLottery & { prize_money: number; withheld_reason: string | null }>(
    `SELECT l.id, l.name, l.name_bn, l.kind, ${DRAWN_AT} AS drawn_at, p.prize_money, p.withheld_reason
     FROM lotteries l JOIN prizes p ON p.lottery_id = l.id AND p.ticket = $1
     WHERE ${SHOWN} AND l.kind = 'tickets'
     ORDER BY ${DRAWN_AT} DESC, l.id DESC`,
    [ticket],
  );

/** The latest `limit` numbers draws with published results and their drawn numbers, newest first. */
export const numbersDraws = (db: Db, limit: number) =>
  db.query<HitLottery & { numbers: string }>(
    `SELECT l.id, l.name, l.name_bn, l.kind, ${DRAWN_AT} AS drawn_at, c.numbers
     FROM lotteries l JOIN draw_commitments c ON c.lottery_id = l.id
     WHERE ${SHOWN} AND l.kind = 'numbers' AND c.numbers IS NOT NULL
     ORDER BY ${DRAWN_AT} DESC, l.id DESC LIMIT $1`,
    [limit],
  );

/**
 * For the numbers lotteries the ticket reached a tier in: its tier prizes, what rolled over, whether the ticket was a
 * paid ticket of it and the prize it was paid (each a look-up in a (lottery, ticket) index).
 */
export const numbersHitDetails = (db: Db, ticket: string, lotteryIds: number[]) =>
  lotteryIds.length
    ? db.query<{
        id: number;
        tier2_prize: number | null;
        tier3_prize: number | null;
        tier4_prize: number | null;
        tier5_prize: number | null;
        rollover_out: number | null;
        sold: boolean;
        prize_money: number | null;
        withheld_reason: string | null;
      }>(
        `SELECT l.id, l.tier2_prize, l.tier3_prize, l.tier4_prize, l.tier5_prize, l.rollover_out,
           EXISTS (SELECT 1 FROM transactions t WHERE t.lottery_id = l.id AND t.ticket = $1 AND t.status = 'success') AS sold,
           (SELECT p.prize_money FROM prizes p WHERE p.lottery_id = l.id AND p.ticket = $1) AS prize_money,
           (SELECT p.withheld_reason FROM prizes p WHERE p.lottery_id = l.id AND p.ticket = $1) AS withheld_reason
         FROM lotteries l WHERE l.id = ANY($2::bigint[])`,
        [ticket, lotteryIds],
      )
    : Promise.resolve([]);

/**
 * The game draws whose Lucky Chance drew the code, newest first (docs/rules/draws.md#7a-lucky-chance): each with its
 * numbers and what the code paid (the draw's Lucky Chance prize). A code belongs to one ticket per draw; the same code in
 * another draw is another ticket's, which the draw's name and date tell apart.
 */
export const codePrizes = (db: Db, code: string) =>
  db.query<HitLottery & { lucky_prize: number; withheld_reason: string | null; numbers: string | null }>(
    `SELECT l.id, l.name, l.name_bn, l.kind, ${DRAWN_AT} AS drawn_at, l.lucky_prize, p.withheld_reason, c.numbers
     FROM prizes p JOIN lotteries l ON l.id = p.lottery_id LEFT JOIN draw_commitments c ON c.lottery_id = l.id
     WHERE p.lucky_code = $1 AND ${SHOWN}
     ORDER BY ${DRAWN_AT} DESC, l.id DESC`,
    [code],
  );

// How often each number was drawn (docs/rules/games.md#7-charts) -------------------------------------------------------

/** The game `gameId` (paused or not), or every active game without one, in the order they were made. */
export const frequencyGames = (db: Db, gameId: number | null) =>
  db.query<{ id: number; name: string; name_bn: string }>(
    `SELECT id, name, name_bn FROM games WHERE ($1::bigint IS NULL AND active) OR id = $1 ORDER BY created_at, id`,
    [gameId],
  );

/** The drawn numbers of the games' draws whose results are published, each with when it was drawn. */
export const gameDrawnNumbers = (db: Db, gameIds: number[]) =>
  gameIds.length
    ? db.query<{ game_id: number; numbers: string; drawn_at: string }>(
        `SELECT l.game_id, c.numbers, ${DRAWN_AT} AS drawn_at
         FROM lotteries l JOIN draw_commitments c ON c.lottery_id = l.id
         WHERE l.game_id = ANY($1::bigint[]) AND ${SHOWN} AND l.drawn_at IS NOT NULL AND c.numbers IS NOT NULL`,
        [gameIds],
      )
    : Promise.resolve([]);
