/** Games made by the tests (games, games-pages): a game's body as staff send it, and the tables a test starts without. */
import type { TestApp } from '../helpers/app.ts';

/** A Saturday 8 PM numbers game with Lucky Chance, three draws on sale ahead (docs/rules/games.md#1-the-game). */
export const GAME_BODY = {
  name: 'Bhagya Lotto',
  name_bn: 'ভাগ্য লোটো',
  ticket_price: 100,
  tickets_per_draw: 100_000,
  jackpot_share: 50,
  tier2_prize: 100_000,
  tier3_prize: 5_000,
  tier4_prize: 500,
  tier5_prize: 100,
  lucky_count: 3,
  lucky_prize: 100_000,
  draw_days: ['sat'],
  draw_time: '20:00',
  close_minutes: 30,
  draws_ahead: 3,
};

/** No games, lotteries or what hangs on them: each test starts from an empty calendar. */
export async function clearGames(t: TestApp): Promise<void> {
  for (const table of [
    'audit_log',
    'prizes',
    'transactions',
    'ticket_freezes',
    'draw_commitments',
    'player_messages',
    'lotteries',
    'games',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
}
