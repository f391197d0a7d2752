/**
 * The demo data's running game (issue 33; docs/rules/games.md): "Bhagya Lotto", a Saturday 8 PM numbers game with
 * Lucky Chance, whose last few draws are drawn — by the numbers draw itself, on a sample beacon as every demo draw is
 * (docs/rules/draws.md#12-where-it-stands) — with their jackpots rolled on from draw to draw into the draws on sale,
 * and Lucky Chance winners among the sample players' entries.
 */
import { daysMask, nextDraws, salesCloseOf } from '../../shared/games/calendar.ts';
import { formatTicket, randomTicket } from '../../shared/ticket.ts';
import type { Db } from '../db/index.ts';
import type { Keyring } from '../crypto/sealed.ts';
import { numbersDraw, numbersLottery } from '../draws/numbers-draw.ts';
import { BEACON_SOURCE, commitment, newSeed, quicknetRound } from '../draws/verifiable.ts';
import * as q from './queries.ts';
import { drawName, keepOnSale } from './service.ts';

const WEEK = 7 * 24 * 3600 * 1000;

export const DEMO_GAME: q.GameValues = {
  name: 'Bhagya Lotto',
  name_bn: 'ভাগ্য লোটো',
  description:
    'Pick five numbers from 1 to 55 and one from 1 to 15. Drawn every Saturday at 8 PM; the jackpot rolls on until someone wins it, and three Lucky Chance codes win TK. 100,000 each.',
  description_bn:
    '১ থেকে ৫৫-এর মধ্যে পাঁচটি আর ১ থেকে ১৫-এর মধ্যে একটি সংখ্যা বেছে নিন। প্রতি শনিবার রাত ৮টায় ড্র; কেউ না জেতা পর্যন্ত জ্যাকপট বাড়তে থাকে, আর তিনটি লাকি চান্স কোড প্রতিটি ৳১,০০,০০০ জেতে।',
  ticket_price: 100,
  tickets_per_draw: 1_000_000,
  jackpot_share: 50,
  tier2_prize: 100_000,
  tier3_prize: 5_000,
  tier4_prize: 500,
  tier5_prize: 100,
  lucky_count: 3,
  lucky_prize: 100_000,
  draw_days: daysMask(['sat']),
  draw_minute: 20 * 60,
  close_minutes: 30,
  draws_ahead: 5,
  starts_at: '',
  active: true,
};

/** How many of the game's draws are already drawn in the demo, and how many entries each sold. */
const PAST_DRAWS = 3;
const ENTRIES = 200;

/**
 * The demo game, in the seed's transaction: the game, its last PAST_DRAWS draws made and sold to the sample players
 * (`players`), its next draws put on sale, then the past ones drawn in order, each rolling its jackpot into the next.
 * `sampleBeacon` gives a round's sample value (server/db/seed.ts).
 */
export async function seedDemoGame(
  tx: Db,
  keys: Keyring,
  players: readonly number[],
  sampleBeacon: (round: number) => string,
  now = Date.now(),
): Promise<void> {
  const past = nextDraws({ ...DEMO_GAME, starts_at: new Date(0) }, now - (PAST_DRAWS + 1) * WEEK, PAST_DRAWS + 2)
    .filter((d) => d.getTime() + 60_000 <= now)
    .slice(-PAST_DRAWS);
  const id = await q.insertGame(tx, { ...DEMO_GAME, starts_at: (past[0] ?? new Date(now)).toISOString() });
  const drawn: { id: number; seed: string; round: number }[] = [];
  for (const drawAt of past) {
    const end = salesCloseOf(drawAt, DEMO_GAME.close_minutes);
    const lotteryId = await q.insertDraw(tx, {
      ...DEMO_GAME,
      game_id: id,
      draw_at: drawAt,
      start_date: new Date(drawAt.getTime() - WEEK),
      end_date: end,
      name: drawName(DEMO_GAME.name, drawAt, 'en'),
      name_bn: drawName(DEMO_GAME.name_bn, drawAt, 'bn'),
      total_tickets: DEMO_GAME.tickets_per_draw,
      rollover_in: 0,
    });
    if (lotteryId === undefined) continue;
    const seed = newSeed();
    const round = quicknetRound(end);
    await tx.query(
      `INSERT INTO draw_commitments (lottery_id, seed, commitment, beacon_source, beacon_round, beacon_value, beacon_sample, beacon_entered_at)
       VALUES ($1, $2, $3, $4, $5, $6, true, $7)`,
      [lotteryId, seed, commitment(seed), BEACON_SOURCE, round, sampleBeacon(round), end.toISOString()],
    );
    const tickets = new Set<string>();
    while (tickets.size < ENTRIES) tickets.add(formatTicket(randomTicket()));
    // Bought over its week on sale, more of them as the draw comes (the n-th at √(n/ENTRIES) of the week): its
    // staff charts (docs/rules/games.md#7-charts) show sales growing day by day.
    await tx.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status, created_at)
       SELECT ($1::bigint[])[1 + (n - 1) % cardinality($1::bigint[])], $2, x, $3, 'bkash', 'success',
         $4::timestamptz + ($6::timestamptz - $4::timestamptz) * sqrt(n::float8 / $7)
       FROM unnest($5::text[]) WITH ORDINALITY AS u(x, n)`,
      [
        players,
        lotteryId,
        DEMO_GAME.ticket_price,
        new Date(drawAt.getTime() - WEEK).toISOString(),
        [...tickets],
        new Date(end.getTime() - 3600_000).toISOString(),
        ENTRIES,
      ],
    );
    drawn.push({ id: lotteryId, seed, round });
  }
  // The draws on sale, so that the last drawn one's jackpot has a draw to roll into.
  const g = await q.gameForUpdate(tx, id);
  if (g) await keepOnSale(tx, keys, g, null, now);
  for (const d of drawn) {
    const lottery = await numbersLottery(tx, d.id);
    if (!lottery) continue;
    await numbersDraw(tx, null, lottery, { seed: d.seed, beacon_value: sampleBeacon(d.round), beacon_round: d.round });
    // Drawn a minute after its time, as the calendar would have.
    await tx.query(`UPDATE lotteries SET drawn_at = draw_at + interval '1 minute' WHERE id = $1;`, [d.id]);
    await tx.query(`UPDATE draw_commitments SET revealed_at = (SELECT drawn_at FROM lotteries WHERE id = $1) WHERE lottery_id = $1`, [
      d.id,
    ]);
  }
}
