import type { Db } from '../db/index.ts';
import { underStartLock } from '../db/migrate.ts';
import type { Keyring } from './sealed.ts';

/** Rows sealed per statement: a large table is sealed in steps, each a bounded statement. */
const BATCH = 500;

/**
 * The start-up step that follows the migrations (docs/decisions/049-secrets-sealed-at-rest.md): every seed of an
 * undrawn lottery and every generated ticket's secret still in clear (kept so before migration 027, or written by hand)
 * is sealed and its clear column emptied; every one sealed by a previous SECRET_KEY is sealed again under the current
 * one, with its lookup hash. Under the start lock, so instances starting together take turns; a row done is no longer
 * selected, so it runs once per row and a second start finds nothing to do.
 */
export async function sealAtStart(db: Db, keys: Keyring): Promise<{ seeds: number; secrets: number }> {
  return underStartLock(db, async (tx) => {
    // `v1:<kid>:%` — a sealed value of the current key; anything else sealed is of a previous key.
    const current = `v1:${keys.kid}:%`;
    let seeds = 0;
    for (;;) {
      const rows = await tx.query<{ lottery_id: number; seed: string | null; seed_sealed: string | null }>(
        `SELECT lottery_id, seed, seed_sealed FROM draw_commitments
         WHERE (seed_sealed IS NULL AND revealed_at IS NULL) OR seed_sealed NOT LIKE $1 ORDER BY lottery_id LIMIT $2`,
        [current, BATCH],
      );
      for (const r of rows) {
        const seed = r.seed_sealed === null ? (r.seed as string) : keys.open('draw-seed', r.seed_sealed);
        await tx.query('UPDATE draw_commitments SET seed = NULL, seed_sealed = $2 WHERE lottery_id = $1', [
          r.lottery_id,
          keys.seal('draw-seed', seed),
        ]);
      }
      seeds += rows.length;
      if (rows.length < BATCH) break;
    }
    let secrets = 0;
    for (;;) {
      const rows = await tx.query<{ id: number; secret_number: string | null; secret_sealed: string | null }>(
        `SELECT id, secret_number, secret_sealed FROM generated_tickets
         WHERE secret_sealed IS NULL OR secret_sealed NOT LIKE $1 ORDER BY id LIMIT $2`,
        [current, BATCH],
      );
      if (!rows.length) break;
      const sealed = rows.map((r) => {
        const secret = r.secret_sealed === null ? (r.secret_number as string) : keys.open('generated-secret', r.secret_sealed);
        return { id: r.id, ...sealSecret(keys, secret) };
      });
      await tx.query(
        `UPDATE generated_tickets g SET secret_number = NULL, secret_sealed = x.sealed, secret_lookup = x.lookup
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS x(id, sealed, lookup) WHERE g.id = x.id`,
        [sealed.map((s) => s.id), sealed.map((s) => s.secret_sealed), sealed.map((s) => s.secret_lookup)],
      );
      secrets += rows.length;
      if (rows.length < BATCH) break;
    }
    return { seeds, secrets };
  });
}

/** A generated ticket's secret as it is stored: sealed, and its lookup hash (docs/rules/tickets.md#6-generated-tickets). */
export const sealSecret = (keys: Keyring, secret: string) => ({
  secret_sealed: keys.seal('generated-secret', secret),
  secret_lookup: keys.lookup('generated-secret', secret),
});
