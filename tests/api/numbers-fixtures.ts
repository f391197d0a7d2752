/**
 * Numbers draws made by the tests (numbers-draw, numbers-pages, results-archive): the seed fixed as test data, so that a
 * test knows which numbers a beacon value draws before it enters it (docs/rules/draws.md#7-numbers-draw).
 */
import { commitment, drawKey, numbersOfKey, quicknetRound } from '../../server/draws/verifiable.ts';
import type { TestApp } from '../helpers/app.ts';

/** The seed every numbers draw of the tests uses (the bytes 0 to 31). */
export const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

/** The numbers drawn with this digest and beacon (the procedure's step 4, without hashing the tickets each try). */
export const numbersWith = (digest: string, beacon: string): number[] => numbersOfKey(drawKey(SEED, digest, beacon));

/** Many paid tickets of `userId` at once, straight in the database. */
export const sellMany = (t: TestApp, userId: number, id: number, tickets: string[]) =>
  t.db.query(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status)
     SELECT $1, $2, x, 100, 'bkash', 'success' FROM unnest($3::text[]) AS x`,
    [userId, id, tickets],
  );

/** Sales ended an hour ago, the beacon round the one after, the seed fixed (so that the test knows the draw in advance). */
export async function endSales(t: TestApp, id: number): Promise<void> {
  await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 hour' WHERE id = $1`, [id]);
  const end = (await t.db.one<{ end_date: string }>('SELECT end_date FROM lotteries WHERE id = $1', [id]))!.end_date;
  await t.db.query('UPDATE draw_commitments SET seed_sealed = $2, commitment = $3, beacon_round = $4 WHERE lottery_id = $1', [
    id,
    t.keys.seal('draw-seed', SEED),
    commitment(SEED),
    quicknetRound(new Date(end)),
  ]);
}

/** The lottery's paid tickets. */
export const soldTickets = async (t: TestApp, id: number) =>
  (await t.db.query<{ ticket: string }>(`SELECT ticket FROM transactions WHERE lottery_id = $1 AND status = 'success'`, [id])).map(
    (r) => r.ticket,
  );
