/**
 * Numbers draws made by the tests (numbers-draw, numbers-pages, results-archive), on a real drand beacon: only drand's
 * signed value draws (docs/rules/draws.md#4-the-beacon, decision 046), so a test cannot choose the beacon; it fixes the
 * seed instead, as test data, and so knows which numbers the draw gives before it enters the beacon's signature
 * (docs/rules/draws.md#7-numbers-draw).
 */
import { createHash } from 'node:crypto';
import { commitment, drawKey, numbersOfKey, roundTime } from '../../server/draws/verifiable.ts';
import type { TestApp } from '../helpers/app.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';

/** The seed a numbers draw of the tests uses unless a test chose another (the bytes 0 to 31). */
export const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

/** The real quicknet beacon every numbers draw of the tests is on: its round is the lottery's, its signature is pasted. */
export const SIGNED = REAL_BEACONS[1];

/** The numbers drawn with this digest and seed on SIGNED (the procedure's step 4, without hashing the tickets each try). */
export const numbersWith = (digest: string, seed: string): number[] => numbersOfKey(drawKey(seed, digest, SIGNED.randomness));

/** The seeds the tests try, one after another: SHA-256 of "seed <i>". */
export const seedNumber = (i: number): string => createHash('sha256').update(`seed ${i}`).digest('hex');

/** The lottery's seed, and its commitment, replaced by `seed` (as if the server had drawn it). */
export const fixSeed = (t: TestApp, id: number, seed: string) =>
  t.db.query('UPDATE draw_commitments SET seed_sealed = $2, commitment = $3 WHERE lottery_id = $1', [
    id,
    t.keys.seal('draw-seed', seed),
    commitment(seed),
  ]);

/**
 * A game's draw `id` moved into the past onto the real drand round `b` (SIGNED unless told): its sales closed and its
 * draw's time come there, its beacon that round's as the beacon job stores it, its seed SEED; the calendar's next
 * drawDue draws it.
 */
export async function dueOnRound(t: TestApp, id: number, b: (typeof REAL_BEACONS)[number] = SIGNED): Promise<void> {
  const end = roundTime(b.round - 1);
  await t.db.query(`UPDATE lotteries SET start_date = $2::timestamptz - interval '7 days', end_date = $2, draw_at = $2 WHERE id = $1`, [
    id,
    end,
  ]);
  await t.db.query('UPDATE draw_commitments SET beacon_round = $2, beacon_value = $3, beacon_signature = $4 WHERE lottery_id = $1', [
    id,
    b.round,
    b.randomness,
    b.signature,
  ]);
  await fixSeed(t, id, SEED);
}

/** Many paid tickets of `userId` at once, straight in the database. */
export const sellMany = (t: TestApp, userId: number, id: number, tickets: string[]) =>
  t.db.query(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status)
     SELECT $1, $2, x, 100, 'bkash', 'success' FROM unnest($3::text[]) AS x`,
    [userId, id, tickets],
  );

/**
 * Sales ended an hour ago, the beacon round SIGNED's (a real round whose signature the tests have, long past), the seed
 * SEED (so that the test knows the draw in advance).
 */
export async function endSales(t: TestApp, id: number): Promise<void> {
  await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 hour' WHERE id = $1`, [id]);
  await t.db.query('UPDATE draw_commitments SET seed_sealed = $2, commitment = $3, beacon_round = $4 WHERE lottery_id = $1', [
    id,
    t.keys.seal('draw-seed', SEED),
    commitment(SEED),
    SIGNED.round,
  ]);
}

/**
 * As endSales, but the end of sales put where SIGNED's round is the one after it (in August 2025): for a test that
 * changes the lottery after its sales closed, which announces the round of its end of sales again and must find the
 * same one (docs/rules/draws.md#4-the-beacon).
 */
export async function endSalesAtRound(t: TestApp, id: number): Promise<void> {
  const end = roundTime(SIGNED.round - 1);
  await t.db.query(`UPDATE lotteries SET start_date = $2::timestamptz - interval '1 day', end_date = $2 WHERE id = $1`, [id, end]);
  await t.db.query('UPDATE draw_commitments SET seed_sealed = $2, commitment = $3, beacon_round = $4 WHERE lottery_id = $1', [
    id,
    t.keys.seal('draw-seed', SEED),
    commitment(SEED),
    SIGNED.round,
  ]);
}

/** The lottery's paid tickets. */
export const soldTickets = async (t: TestApp, id: number) =>
  (await t.db.query<{ ticket: string }>(`SELECT ticket FROM transactions WHERE lottery_id = $1 AND status = 'success'`, [id])).map(
    (r) => r.ticket,
  );
