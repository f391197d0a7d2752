/**
 * Statements outside a transaction on one pipelined connection (server/db/pipe.ts,
 * docs/decisions/091-statements-pipelined-on-one-connection.md): they share one backend, each answers its own statement,
 * one that fails fails alone, a slow one sends the next to the pool, and a dropped connection is replaced. PostgreSQL
 * only: skipped without TEST_DATABASE_URL; CI's jest-pg step runs it (scripts/with-postgres.sh).
 */
import net from 'node:net';
import { jest } from '@jest/globals';
import pg from 'pg';
import type { Db } from '../../server/db/index.ts';
import { databaseUnavailable } from '../../server/db/unavailable.ts';
import { openPipe, type Pipe } from '../../server/db/pipe.ts';
import { SLICE_MS } from '../../server/db/batch.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';
import { withClockStill } from '../helpers/db-messages.ts';
import { queriesOf } from '../helpers/pg-queries.ts';
import { until } from '../helpers/wait.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pidOf = async (db: Db) => (await db.one<{ pid: number }>('SELECT pg_backend_pid() AS pid'))?.pid;

/** A database of its own, its pipe connected: the pool answers a first statement while the pipe connects. */
async function pipeConnected(): Promise<{ d: TestDatabase; db: Db }> {
  const d = await testDatabase();
  const db = await d.open({ max: 4 });
  await db.query('SELECT 1');
  await until(() => db.stats?.().total === 2, 5000, 50);
  return { d, db };
}

onPostgres('statements outside a transaction, on the pipe', () => {
  let d: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    ({ d, db } = await pipeConnected());
  });
  afterAll(async () => {
    await d.drop();
  });

  test('sent together, they share one backend, and each gets its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => db.one<{ n: number; pid: number }>('SELECT $1::int AS n, pg_backend_pid() AS pid', [i])),
    );
    expect(answers.map((a) => a?.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(answers.map((a) => a?.pid)).size).toBe(1);
    // The pool's connection (opened by the first statement) is another backend, kept for transactions.
    const inTx = await db.tx(async (tx) => pidOf(tx));
    expect(inTx).not.toBe(answers[0]?.pid);
  });

  test('one that fails fails alone: those sent with it are answered, and the pipe goes on', async () => {
    const [before, failed, after] = await Promise.allSettled([
      db.one<{ n: number }>('SELECT 1 AS n'),
      db.one('SELECT 1 / $1::int AS n', [0]),
      db.one<{ n: number }>('SELECT 3 AS n'),
    ]);
    expect(before).toEqual({ status: 'fulfilled', value: { n: 1 } });
    expect(failed.status).toBe('rejected');
    expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
    expect(after).toEqual({ status: 'fulfilled', value: { n: 3 } });
    expect(await db.one('SELECT 4 AS n')).toEqual({ n: 4 });
  });

  test('a slow statement does not hold up the statements asked for after it was seen to be slow', async () => {
    const piped = await pidOf(db);
    const order: string[] = [];
    const slow = db.one<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.6)').then((r) => (order.push('slow'), r));
    await sleep(150);
    const quick = await db.one<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    order.push('quick');
    expect((await slow)?.pid).toBe(piped);
    expect(quick?.pid).not.toBe(piped); // the pool ran it
    expect(order).toEqual(['quick', 'slow']);
    expect(await pidOf(db)).toBe(piped); // answered: the pipe is used again
  });

  test('the instance opens no more connections than it may: the pipe is one of them', async () => {
    await Promise.all(Array.from({ length: 10 }, () => db.tx((tx) => tx.query('SELECT pg_sleep(0.05)'))));
    const s = db.stats?.();
    expect(s?.max).toBe(4);
    expect(s?.total).toBeLessThanOrEqual(4);
    const name = (await db.one<{ name: string }>("SELECT current_setting('application_name') AS name"))?.name;
    const open = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [name]);
    expect(open?.n).toBeLessThanOrEqual(4);
  });
});

/**
 * How many writes reach the sockets while `work` runs (a corked socket writes what it holds at once, as one `_writev`):
 * the statements of one turn of the event loop are one write (docs/decisions/096-one-write-per-turn.md). The clock stands
 * still meanwhile (`withClockStill`), unless the test is of a turn that runs long.
 */
async function writesOf(work: () => Promise<unknown>, clock: 'still' | 'running' = 'still'): Promise<number> {
  const one = jest.spyOn(net.Socket.prototype, '_write');
  const many = jest.spyOn(net.Socket.prototype, '_writev');
  try {
    await (clock === 'still' ? withClockStill(work) : work());
    return one.mock.calls.length + many.mock.calls.length;
  } finally {
    one.mockRestore();
    many.mockRestore();
  }
}

onPostgres('what is asked in one turn of the event loop is one write', () => {
  let d: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    ({ d, db } = await pipeConnected());
  });
  afterAll(async () => {
    await d.drop();
  });

  test('on the pipe: statements asked together go in one write, each answered', async () => {
    let answers: unknown[] = [];
    const writes = await writesOf(async () => {
      answers = await Promise.all([1, 2, 3, 4, 5].map((n) => db.one('SELECT $1::int AS n', [n])));
    });
    expect(answers).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(writes).toBe(1);
  });

  test('a turn that runs long: what was asked before a slice had passed goes at once, the rest at the turn’s end', async () => {
    let answers: unknown[] = [];
    const writes = await writesOf(async () => {
      const first = [1, 2].map((n) => db.one('SELECT $1::int AS n', [n]));
      const end = performance.now() + 2 * SLICE_MS;
      while (performance.now() < end);
      const later = [3, 4, 5].map((n) => db.one('SELECT $1::int AS n', [n]));
      answers = await Promise.all([...first, ...later]);
    }, 'running');
    expect(answers).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    // Two, unless the test's process also lost its core for a slice between two statements asked together.
    expect(writes).toBeGreaterThanOrEqual(2);
  });

  test('in a transaction: BEGIN, then its statements asked together, then the last with its COMMIT: three writes', async () => {
    let answers: unknown[] = [];
    const writes = await writesOf(() =>
      db.tx(async (tx) => {
        answers = await Promise.all([tx.one('SELECT 1 AS n'), tx.one('SELECT 2 AS n'), tx.one('SELECT 3 AS n')]);
        answers.push(...(await tx.commitWith('SELECT 4 AS n')));
      }),
    );
    expect(answers).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(writes).toBe(3);
  });

  test('statements asked one after another, each after the last’s answer, are a write each', async () => {
    const writes = await writesOf(async () => {
      for (const n of [1, 2, 3]) expect(await db.one('SELECT $1::int AS n', [n])).toEqual({ n });
    });
    expect(writes).toBe(3);
  });
});

// A transaction's statements asked for at once are written at once on its connection, and answered in order
// (docs/decisions/093-writes-hold-the-lottery-for-less.md). BEGIN is answered first.
onPostgres('a transaction’s statements asked for at once', () => {
  let d: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    d = await testDatabase();
    db = await d.open({ max: 4 });
    await db.query('CREATE TABLE tx_pipe_kept (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await d.drop();
  });

  /** What node-postgres is asked for, in order, and when each answer comes: `ask:` and `answer:` with the SQL. */
  const traced = async <T>(fn: () => Promise<T>): Promise<{ result: T; events: string[] }> => {
    const events: string[] = [];
    const result = await queriesOf(({ sql, answer }) => {
      events.push(`ask:${sql}`);
      if (answer instanceof Promise)
        answer.then(
          () => events.push(`answer:${sql}`),
          () => events.push(`failed:${sql}`),
        );
    }, fn);
    return { result, events };
  };

  test('they are all written before the first is answered, and each gets its own answer, in order', async () => {
    const slow = 'SELECT 1 AS n, pg_sleep(0.05)';
    const { result, events } = await traced(() =>
      db.tx((tx) =>
        Promise.all([tx.one<{ n: number }>(slow), tx.one<{ n: number }>('SELECT 2 AS n'), tx.one<{ n: number }>('SELECT 3 AS n')]),
      ),
    );
    expect(result.map((r) => r?.n)).toEqual([1, 2, 3]);
    const at = (e: string) => events.indexOf(e);
    // BEGIN is answered before the transaction's first statement is written.
    expect(at('answer:BEGIN')).toBeGreaterThanOrEqual(0);
    expect(at('answer:BEGIN')).toBeLessThan(at(`ask:${slow}`));
    // The two after it were written while the first still ran.
    expect(at('ask:SELECT 3 AS n')).toBeLessThan(at(`answer:${slow}`));
    expect(at('answer:COMMIT')).toBeGreaterThan(at('answer:SELECT 3 AS n'));
  });

  test('one that fails fails the transaction: those written with it fail too and nothing of it is kept', async () => {
    const outcome = await db
      .tx((tx) =>
        Promise.all([
          tx.query('INSERT INTO tx_pipe_kept (n) VALUES (1)'),
          tx.query('SELECT 1 / $1::int AS n', [0]),
          tx.query('INSERT INTO tx_pipe_kept (n) VALUES (2)'),
        ]),
      )
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(outcome).toMatchObject({ code: '22012' });
    expect(await db.query('SELECT n FROM tx_pipe_kept')).toEqual([]);
    // The connection is clean for the next transaction.
    expect(await db.tx((tx) => tx.one<{ n: number }>('SELECT 5 AS n'))).toEqual({ n: 5 });
  });

  test('a statement asked for after another failed is refused as the transaction is aborted; nothing is kept', async () => {
    const late: unknown[] = [];
    const outcome = await db
      .tx(async (tx) => {
        await tx.query('INSERT INTO tx_pipe_kept (n) VALUES (3)');
        // Both settled before the transaction ends: its ROLLBACK's answer may otherwise come before the second's
        // refusal is seen.
        const [failed, after] = await Promise.allSettled([
          tx.query('SELECT 1 / $1::int AS n', [0]),
          tx.query('INSERT INTO tx_pipe_kept (n) VALUES (4)'),
        ]);
        late.push(after.status === 'rejected' ? after.reason : after.value);
        if (failed.status === 'rejected') throw failed.reason;
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(outcome).toMatchObject({ code: '22012' });
    expect(late).toEqual([expect.objectContaining({ code: '25P02' })]);
    expect(await db.query('SELECT n FROM tx_pipe_kept')).toEqual([]);
  });
});

onPostgres('the pipe on its own', () => {
  let d: TestDatabase;
  let admin: Db;
  const pipes: Pipe[] = [];
  beforeAll(async () => {
    d = await testDatabase();
    admin = await d.open();
  });
  afterAll(async () => {
    for (const p of pipes) await p.close();
    await d.drop();
  });
  const open = (o: Partial<Parameters<typeof openPipe>[0]> = {}) => {
    const p = openPipe({ config: { connectionString: pgUrl, application_name: 'bhagya:pipe-test' }, onLost: () => undefined, ...o });
    pipes.push(p);
    return p;
  };

  test('until it is connected it runs nothing (the pool does), and then it does', async () => {
    const p = open();
    expect(p.connected()).toBe(false);
    expect(p.query({ text: 'SELECT 1 AS n' })).toBeUndefined();
    await until(() => p.connected(), 5000, 50);
    expect((await p.query({ text: 'SELECT 1 AS n' }))?.rows).toEqual([{ n: 1 }]);
  });

  test('it takes at most maxInFlight statements unanswered', async () => {
    const p = open({ maxInFlight: 2 });
    p.query({ text: 'SELECT 1' });
    await until(() => p.connected(), 5000, 50);
    const a = p.query({ text: 'SELECT pg_sleep(0.1)' });
    const b = p.query({ text: 'SELECT 2 AS n' });
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(p.query({ text: 'SELECT 3' })).toBeUndefined();
    await Promise.all([a, b]);
    expect((await p.query({ text: 'SELECT 4 AS n' }))?.rows).toEqual([{ n: 4 }]);
  });

  test('its connection dropped: what was in flight fails as unavailable, it is told, and a new connection takes over', async () => {
    const lost: Error[] = [];
    const p = open({ onLost: (err) => void lost.push(err), config: { connectionString: pgUrl, application_name: 'bhagya:pipe-drop' } });
    p.query({ text: 'SELECT 1' });
    await until(() => p.connected(), 5000, 50);
    const pid = (await p.query({ text: 'SELECT pg_backend_pid() AS pid' }))?.rows[0].pid as number;
    const inFlight = p.query({ text: 'SELECT pg_sleep(5)' });
    await sleep(100);
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const err = await inFlight?.then(
      () => null,
      (e: unknown) => e,
    );
    expect(databaseUnavailable(err)).toBe(true);
    await until(() => lost.length > 0 && !p.connected(), 5000, 50);
    // The next statement goes to the pool while a new connection is made, then the pipe runs them again.
    expect(p.query({ text: 'SELECT 1' })).toBeUndefined();
    await until(() => p.connected(), 5000, 50);
    const again = (await p.query({ text: 'SELECT pg_backend_pid() AS pid' }))?.rows[0].pid as number;
    expect(again).not.toBe(pid);
  });

  test('a server that cannot be reached: it stays unconnected and leaves every statement to the pool', async () => {
    const closedPort = new URL(pgUrl as string);
    closedPort.port = '9';
    const p = open({ config: { connectionString: closedPort.toString(), connectionTimeoutMillis: 500 } });
    expect(p.query({ text: 'SELECT 1' })).toBeUndefined();
    await sleep(300);
    expect(p.connected()).toBe(false);
    expect(p.query({ text: 'SELECT 1' })).toBeUndefined();
  });

  test('closed, it ends its connection', async () => {
    const p = open({ config: { connectionString: pgUrl, application_name: 'bhagya:pipe-close' } });
    p.query({ text: 'SELECT 1' });
    await until(() => p.connected(), 5000, 50);
    await p.close();
    expect(p.connected()).toBe(false);
    expect(p.query({ text: 'SELECT 1' })).toBeUndefined();
    const sessions = async () =>
      (await admin.one<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bhagya:pipe-close'`))?.n;
    await until(async () => (await sessions()) === 0, 2500, 50);
    expect(await sessions()).toBe(0);
  });
});

// The driver's own pipeline mode is what the pipe relies on; fail here, naming it, if a version of pg drops it.
test('node-postgres still has its pipeline mode', () => {
  expect(new pg.Client({ pipeline: true }).pipeline).toBe(true);
});
