import type { Logger } from '../log.ts';
import { notScheduled, repeat, type Stop } from '../repeat.ts';
import type { Db } from './index.ts';

/**
 * What PostgreSQL's autovacuum does, for the embedded database, which has none: PGlite runs PostgreSQL as a single
 * process, so no autovacuum worker ever vacuums or analyzes a table (docs/decisions/073-embedded-autovacuum.md). Without
 * it the planner plans on no statistics at all, dead rows are never reclaimed, and the transaction counter is never
 * frozen. Each pass asks pg_stat_user_tables which tables autovacuum would take now, by autovacuum's own default
 * thresholds, and vacuums or analyzes those only (docs/rules/operations.md#9-the-embedded-databases-upkeep).
 */
export const VACUUM_BASE = 50;
export const VACUUM_SCALE = 0.2;
export const ANALYZE_BASE = 50;
export const ANALYZE_SCALE = 0.1;
/** PostgreSQL 13's vacuum after inserts (autovacuum_vacuum_insert_threshold and its scale factor). */
export const INSERT_BASE = 1000;
export const INSERT_SCALE = 0.2;
/** A table whose oldest unfrozen transaction is this old is vacuumed whatever its changes (autovacuum_freeze_max_age). */
export const FREEZE_MAX_AGE = 200_000_000;

type TableState = { name: string; vacuum: boolean; analyze: boolean };

/** The tables of this schema that autovacuum would vacuum or analyze now. */
const DUE = `SELECT s.relname AS name,
    (s.n_dead_tup > $1 + $2 * greatest(c.reltuples, 0)
      OR s.n_ins_since_vacuum > $5 + $6 * greatest(c.reltuples, 0)
      OR age(c.relfrozenxid) > $7) AS vacuum,
    (s.n_mod_since_analyze > $3 + $4 * greatest(c.reltuples, 0) OR s.last_analyze IS NULL AND s.n_live_tup > 0) AS analyze
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE s.schemaname = current_schema()`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One pass: the tables due vacuumed (and analyzed) or analyzed; what was done, by table. */
export async function upkeep(db: Db): Promise<{ vacuumed: string[]; analyzed: string[] }> {
  // The counters this connection has not yet reported (PostgreSQL reports them at most once a second) are reported
  // after this statement, so that the next reads them.
  await db.query('SELECT pg_stat_force_next_flush()');
  const rows = await db.query<TableState>(DUE, [
    VACUUM_BASE,
    VACUUM_SCALE,
    ANALYZE_BASE,
    ANALYZE_SCALE,
    INSERT_BASE,
    INSERT_SCALE,
    FREEZE_MAX_AGE,
  ]);
  const vacuumed: string[] = [];
  const analyzed: string[] = [];
  for (const t of rows) {
    if (t.vacuum) {
      await db.query(`VACUUM (ANALYZE ${t.analyze ? 'true' : 'false'}) ${quoted(t.name)}`);
      vacuumed.push(t.name);
      if (t.analyze) analyzed.push(t.name);
    } else if (t.analyze) {
      await db.query(`ANALYZE ${quoted(t.name)}`);
      analyzed.push(t.name);
    }
  }
  return { vacuumed, analyzed };
}

/** How often the embedded database is looked over: autovacuum's naptime is a minute; a pass that finds nothing costs one query. */
export const UPKEEP_EVERY_MS = 60_000;

/**
 * The embedded database's upkeep, a first pass soon after start and then every minute, without keeping the process
 * alive for it; nothing on PostgreSQL, whose own autovacuum does it. One pass at a time.
 */
export function scheduleUpkeep(db: Db, log: Logger, everyMs = UPKEEP_EVERY_MS): Stop {
  if (db.kind !== 'pglite') return notScheduled;
  const run = async () => {
    const started = performance.now();
    const done = await upkeep(db);
    if (done.vacuumed.length || done.analyzed.length)
      log.info({ ...done, ms: Math.round(performance.now() - started) }, 'embedded database vacuumed and analyzed');
  };
  return repeat({ run, firstMs: Math.min(everyMs, 5_000), everyMs, log, failed: 'embedded database upkeep failed' });
}
