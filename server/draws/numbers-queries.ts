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
  /** A game's draw: its game and instant (docs/rules/games.md); null for a one-off lottery. */
  game_id: number | null;
  draw_at: string | null;
  /** Its Lucky Chance: how many codes are drawn and what each pays (0 and 0: none; docs/rules/draws.md#7a-lucky-chance). */
  lucky_count: number;
  lucky_prize: number;
};

/** The lottery's numbers-draw settings; undefined for a winning-tickets lottery (or none). */
export const numbersLottery = (db: Db, id: number) =>
  db.one<NumbersLottery>(
    `SELECT id, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize, rollover_in, rollover_to, game_id, draw_at, lucky_count, lucky_prize
     FROM lotteries WHERE id = $1 AND kind = 'numbers'`,
    [id],
  );

/**
 * The lottery its jackpot would roll into, read without a lock (the draw then locks both in id order): the one staff
 * named, or for a game's draw the game's next draw not drawn yet (docs/rules/games.md#4-the-jackpot-rolls-on).
 */
export const rolloverTargetOf = async (db: Db, id: number): Promise<number | null> =>
  (
    await db.one<{ target: number | null }>(
      `SELECT CASE WHEN l.game_id IS NULL THEN l.rollover_to ELSE (SELECT n.id FROM lotteries n WHERE n.game_id = l.game_id AND n.draw_at > l.draw_at AND n.drawn_at IS NULL AND NOT n.is_result_published ORDER BY n.draw_at LIMIT 1) END AS target FROM lotteries l WHERE l.id = $1 AND l.kind = 'numbers'`,
      [id],
    )
  )?.target ?? null;
/**
 * The game's next draw after `drawAt` not drawn yet, locked: where a jackpot nobody won rolls (docs/rules/games.md#4-the-jackpot-rolls-on).
 */
export const lockNextDraw = (db: Db, gameId: number, drawAt: string) =>
  db.one<{ id: number; rollover_in: number }>(
    `SELECT id, rollover_in FROM lotteries WHERE game_id = $1 AND draw_at > $2 AND drawn_at IS NULL AND NOT is_result_published ORDER BY draw_at LIMIT 1 FOR UPDATE`,
    [gameId, drawAt],
  );

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

/**
 * What the draw rolled out of the lottery (0: its jackpot was won, or was 0), and for a game's draw the draw it rolled
 * into (`to`, recorded as its rollover_to; null: none, or the game's carry).
 */
export const setRolloverOut = (db: Db, id: number, amount: number, to: number | null) =>
  db.query(
    'UPDATE lotteries SET rollover_out = $2, rollover_to = CASE WHEN game_id IS NULL THEN rollover_to ELSE $3 END, updated_at = now() WHERE id = $1',
    [id, amount, to],
  );

/** A numbers draw's prize: its tier (null: Lucky Chance's alone) and its Lucky Chance code when it holds that prize too. */
export type TierPrizeRow = PrizeRow & { tier: number | null; lucky_code: string | null };

export async function insertTierPrize(
  db: Db,
  p: Omit<PrizeRow, 'id'> & { tier: Tier | null; lucky_code: string | null },
): Promise<TierPrizeRow> {
  const row = await db.one<TierPrizeRow>(
    `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money, tier, lucky_code) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, lottery_id, transaction_id, ticket, prize_money, tier, lucky_code`,
    [p.lottery_id, p.transaction_id, p.ticket, p.prize_money, p.tier, p.lucky_code],
  );
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/** The numbers draw by the procedure: the tickets it saw, their digest, the numbers (written as a ticket), the seed revealed. */
export const recordNumbersDraw = (
  db: Db,
  lotteryId: number,
  d: { seed: string; tickets: string; ticketsDigest: string; numbers: string; lucky: string | null },
) =>
  db.query(
    `UPDATE draw_commitments SET tickets = $2, tickets_digest = $3, numbers = $4, seed = $5, lucky = $6, seed_sealed = NULL, revealed_at = now(),
       updated_at = now()
     WHERE lottery_id = $1`,
    [lotteryId, d.tickets, d.ticketsDigest, d.numbers, d.seed, d.lucky],
  );

/** Locks the game's row, for its waiting jackpot (`carry`), and reads it. */
export const lockGameCarry = (db: Db, gameId: number) =>
  db.one<{ id: number; carry: number }>('SELECT id, carry FROM games WHERE id = $1 FOR UPDATE', [gameId]);

export const addCarry = (db: Db, gameId: number, amount: number) =>
  db.query('UPDATE games SET carry = carry + $2, updated_at = now() WHERE id = $1', [gameId, amount]);
