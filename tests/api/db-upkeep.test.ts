/**
 * The embedded database's upkeep (server/db/maintenance.ts, docs/decisions/073-embedded-autovacuum.md): PGlite has no
 * autovacuum, so the app vacuums and analyzes the tables that autovacuum would take, by its own thresholds, and leaves
 * the others alone. Nothing is done on PostgreSQL, whose autovacuum does it.
 */
import pino from 'pino';
import type { Db } from '../../server/db/index.ts';
import { ANALYZE_BASE, scheduleUpkeep, upkeep, VACUUM_BASE } from '../../server/db/maintenance.ts';
import { freshPglite } from '../helpers/database.ts';
import { until } from '../helpers/wait.ts';

const onPglite = process.env.TEST_DATABASE_URL ? describe.skip : describe;

type Stat = { n_dead_tup: number; last_vacuum: string | null; last_analyze: string | null };
const stat = async (db: Db, table: string) => {
  await db.query('SELECT pg_stat_force_next_flush()');
  return (await db.one<Stat>(
    'SELECT n_dead_tup::int AS n_dead_tup, last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname = $1',
    [table],
  )) as Stat;
};

onPglite('the embedded database upkeep', () => {
  let db: Db;
  beforeAll(async () => {
    db = await freshPglite();
    await db.query('CREATE TABLE busy (id int PRIMARY KEY, v text)');
    await db.query('CREATE TABLE quiet (id int PRIMARY KEY, v text)');
    // A first pass takes every table that has rows and was never analyzed: afterwards only what changes counts.
    await db.query(`INSERT INTO quiet SELECT g, 'q' FROM generate_series(1, 10) g`);
    await upkeep(db);
  });
  afterAll(() => db.close());

  test('a table that changed past the thresholds is analyzed, then vacuumed of its dead rows; a quiet one is left alone', async () => {
    const quietBefore = await stat(db, 'quiet');
    expect(quietBefore.last_analyze).not.toBeNull();

    await db.query(`INSERT INTO busy SELECT g, 'x' FROM generate_series(1, $1::int) g`, [ANALYZE_BASE + 200]);
    await db.query(`INSERT INTO quiet VALUES (11, 'q')`);
    const first = await upkeep(db);
    expect(first.analyzed).toEqual(['busy']);
    expect(first.vacuumed).toEqual([]);
    expect((await stat(db, 'busy')).last_analyze).not.toBeNull();
    // The planner has the table's statistics now.
    expect(await db.query(`SELECT attname FROM pg_stats WHERE tablename = 'busy' ORDER BY attname`)).toEqual([
      { attname: 'id' },
      { attname: 'v' },
    ]);

    // Nothing changed since: nothing to do.
    expect(await upkeep(db)).toEqual({ vacuumed: [], analyzed: [] });

    // Every row updated: past both thresholds (50 + 20 % of the rows dead, 50 + 10 % changed).
    await db.query(`UPDATE busy SET v = 'y'`);
    expect((await stat(db, 'busy')).n_dead_tup).toBeGreaterThan(VACUUM_BASE);
    const second = await upkeep(db);
    expect(second).toEqual({ vacuumed: ['busy'], analyzed: ['busy'] });
    const after = await stat(db, 'busy');
    expect(after.n_dead_tup).toBe(0);
    expect(after.last_vacuum).not.toBeNull();
    expect((await stat(db, 'quiet')).last_analyze).toBe(quietBefore.last_analyze);
  });

  test('the schedule runs a pass by itself and stops', async () => {
    await db.query(`INSERT INTO busy SELECT g, 'z' FROM generate_series(100000, 100400) g`);
    const lines: unknown[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    const stop = scheduleUpkeep(db, log, 50);
    try {
      await until(async () => lines.length > 0);
    } finally {
      await stop();
    }
    expect(lines[0]).toMatchObject({ msg: 'embedded database vacuumed and analyzed', analyzed: ['busy'] });
  });
});

test('on PostgreSQL the schedule does nothing: its own autovacuum does the work', async () => {
  const asked: string[] = [];
  const pg = {
    kind: 'postgres',
    query: async (sql: string) => {
      asked.push(sql);
      return [];
    },
  } as unknown as Db;
  const stop = scheduleUpkeep(pg, pino({ level: 'silent' }), 10);
  await new Promise((r) => setTimeout(r, 60));
  await stop();
  expect(asked).toEqual([]);
});
