/**
 * PostgreSQL drops connections (a restart, a failover, pg_terminate_backend): the pool notices, replaces them, and the
 * server keeps answering (server/db/index.ts). PostgreSQL only: skipped without TEST_DATABASE_URL; CI's jest-pg step
 * runs it (scripts/with-postgres.sh).
 */
import pg from 'pg';
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;

/**
 * Terminates the backends of this test's connections. Only those: other test files run in parallel on the same
 * database, each in a schema of its own, and the pool names its connections after the schema (application_name).
 */
async function terminateBackends(applicationName: string): Promise<number> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    const r = await c.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = $1`,
      [applicationName],
    );
    // Wait until the server has really let them go, so that the pool has had its 'error' events.
    for (let i = 0; i < 50; i++) {
      const left = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      if (left.rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return r.rowCount ?? 0;
  } finally {
    await c.end();
  }
}

const schemaOf = async (t: TestApp) =>
  (await t.db.one<{ name: string }>("SELECT current_setting('application_name') AS name"))?.name as string;

onPostgres('the database drops every connection under a running server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  // Without a handler, the pool's 'error' event is an uncaught exception: in a server the process ends, here Jest
  // fails the suite with "Unhandled error. (error: terminating connection due to administrator command …)".
  test('idle connections dropped: no crash, the next requests succeed on new connections', async () => {
    // Several pooled connections, idle when the server drops them.
    await Promise.all(Array.from({ length: 4 }, () => request(t.url).get('/api/v1/published-lotteries/').expect(200)));
    expect(await terminateBackends(await schemaOf(t))).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    await request(t.url).get('/readyz').expect(200, { status: 'ready' });
    await request(t.url).get('/api/v1/published-lotteries/').expect(200);
  });

  test('a connection dropped inside a transaction, between two statements: that transaction fails, nothing crashes', async () => {
    const d = await testDatabase();
    const lost: Error[] = [];
    try {
      const db = await d.open({ onConnectionError: (err) => void lost.push(err) });
      const name = (await db.one<{ name: string }>("SELECT current_setting('application_name') AS name"))?.name as string;
      const failed = db.tx(async (tx) => {
        await tx.query('SELECT 1');
        await terminateBackends(name); // between two statements of the transaction
        await new Promise((r) => setTimeout(r, 100));
        await tx.query('SELECT 1');
      });
      await expect(failed).rejects.toThrow();
      expect(lost.length).toBeGreaterThan(0);
      expect(await db.one('SELECT 1 AS one')).toEqual({ one: 1 });
    } finally {
      await d.drop();
    }
  });
});
