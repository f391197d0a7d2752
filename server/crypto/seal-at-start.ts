import type { Db } from '../db/index.ts';
import { underStartLock } from '../db/migrate.ts';
import { SealError, sealSecret, type Keyring } from './sealed.ts';

/** Rows sealed per statement: a large table is sealed in steps, each a bounded statement. */
const BATCH = 500;

export type Sealed = {
  seeds: number;
  secrets: number;
  /** Values this server cannot open (sealed by a key it does not hold, or changed): left as they are, and reported. */
  unopenable: number;
};

/**
 * The start-up step that follows the migrations (docs/decisions/049-secrets-sealed-at-rest.md): every seed of an
 * undrawn lottery and every generated ticket's secret still in clear (kept so before migration 027, or written by hand)
 * is sealed and its clear column emptied; every one sealed by a previous SECRET_KEY is sealed again under the current
 * one, with its lookup hash. Under the start lock, so instances starting together take turns; a row done is no longer
 * selected, so it runs once per row and a second start finds nothing to do. A value that cannot be opened (a rotation
 * without SECRET_KEY_PREVIOUS) is left as it is and counted: the rest of the lottery keeps working.
 */
export async function sealAtStart(db: Db, keys: Keyring): Promise<Sealed> {
  return underStartLock(db, async (tx) => {
    // `v1:<kid>:%` — a sealed value of the current key; anything else sealed is of a previous key.
    const current = `v1:${keys.kid}:%`;
    const done: Sealed = { seeds: 0, secrets: 0, unopenable: 0 };
    const opened = (purpose: 'draw-seed' | 'generated-secret', clear: string | null, sealed: string | null): string | null => {
      if (sealed === null) return clear;
      try {
        return keys.open(purpose, sealed);
      } catch (err) {
        if (!(err instanceof SealError)) throw err;
        done.unopenable++;
        return null;
      }
    };
    for (let after = 0; ;) {
      const rows = await tx.query<{ lottery_id: number; seed: string | null; seed_sealed: string | null }>(
        `SELECT lottery_id, seed, seed_sealed FROM draw_commitments
         WHERE ((seed_sealed IS NULL AND revealed_at IS NULL) OR seed_sealed NOT LIKE $1) AND lottery_id > $2
         ORDER BY lottery_id LIMIT $3`,
        [current, after, BATCH],
      );
      for (const r of rows) {
        const seed = opened('draw-seed', r.seed, r.seed_sealed);
        if (seed === null) continue;
        await tx.query('UPDATE draw_commitments SET seed = NULL, seed_sealed = $2 WHERE lottery_id = $1', [
          r.lottery_id,
          keys.seal('draw-seed', seed),
        ]);
        done.seeds++;
      }
      if (rows.length < BATCH) break;
      after = Number(rows[rows.length - 1]?.lottery_id);
    }
    for (let after = 0; ;) {
      const rows = await tx.query<{ id: number; secret_number: string | null; secret_sealed: string | null }>(
        `SELECT id, secret_number, secret_sealed FROM generated_tickets
         WHERE (secret_sealed IS NULL OR secret_sealed NOT LIKE $1) AND id > $2 ORDER BY id LIMIT $3`,
        [current, after, BATCH],
      );
      const sealed = rows.flatMap((r) => {
        const secret = opened('generated-secret', r.secret_number, r.secret_sealed);
        return secret === null ? [] : [{ id: r.id, ...sealSecret(keys, secret) }];
      });
      if (sealed.length)
        await tx.query(
          `UPDATE generated_tickets g SET secret_number = NULL, secret_sealed = x.sealed, secret_lookup = x.lookup
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS x(id, sealed, lookup) WHERE g.id = x.id`,
          [sealed.map((s) => s.id), sealed.map((s) => s.secret_sealed), sealed.map((s) => s.secret_lookup)],
        );
      done.secrets += sealed.length;
      if (rows.length < BATCH) break;
      after = Number(rows[rows.length - 1]?.id);
    }
    return done;
  });
}
