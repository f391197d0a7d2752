/**
 * Secrets at rest as the tests read them (docs/decisions/049-secrets-sealed-at-rest.md): a draw's commitment row with
 * its seed opened by the app's keys, and whether the row keeps the seed in clear.
 */
import { seedOf } from '../../server/draws/commitments.ts';
import type { TestApp } from './app.ts';

export type StoredCommitment = {
  /** The seed, opened from its sealed form (or read in clear once revealed). */
  seed: string;
  /** The seed as the row keeps it in clear: null while the draw is not revealed. */
  clear: string | null;
  seed_sealed: string | null;
  commitment: string;
  beacon_round: number | string;
};

export async function storedCommitment(t: TestApp, lotteryId: number): Promise<StoredCommitment | undefined> {
  const row = await t.db.one<{ seed: string | null; seed_sealed: string | null; commitment: string; beacon_round: number | string }>(
    'SELECT seed, seed_sealed, commitment, beacon_round FROM draw_commitments WHERE lottery_id = $1',
    [lotteryId],
  );
  return row && { ...row, clear: row.seed, seed: seedOf(t.keys, row) };
}
