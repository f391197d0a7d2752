/**
 * A transaction's last statement sent with its commit (Db.commitWith, docs/decisions/095-last-statement-with-its-commit.md):
 * on PostgreSQL the statement and COMMIT are written together on the transaction's pipelined connection; on the embedded
 * database they are one message to its thread. Either way: kept when it runs, nothing of the transaction kept when it
 * fails, and nothing asked of the transaction after it is run anywhere. Both databases; each one's own wire below.
 */
import { committing, TX_ENDED, type Db } from '../../server/db/types.ts';
import { uniqueViolation } from '../../server/db/index.ts';
import { messagesOf } from '../helpers/db-messages.ts';
import { queriesOf } from '../helpers/pg-queries.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';
import { failure } from '../helpers/wait.ts';

const onPostgres = process.env.TEST_DATABASE_URL ? test : test.skip;
const onPglite = process.env.TEST_DATABASE_URL ? test.skip : test;

let d: TestDatabase;
let db: Db;
beforeAll(async () => {
  d = await testDatabase();
  db = await d.open({ max: 4 });
  await db.query('CREATE TABLE commit_with_kept (n int PRIMARY KEY)');
});
afterAll(async () => {
  await d.drop();
});
afterEach(async () => {
  await db.query('DELETE FROM commit_with_kept');
});

const kept = async () => (await db.query<{ n: number }>('SELECT n FROM commit_with_kept ORDER BY n')).map((r) => r.n);

test('the last statement’s rows are its answer, and what the transaction wrote before it is kept', async () => {
  const rows = await db.tx(async (tx) => {
    await tx.query('INSERT INTO commit_with_kept (n) VALUES (1)');
    return tx.commitWith<{ n: number }>('INSERT INTO commit_with_kept (n) VALUES (2), (3) RETURNING n');
  });
  expect(rows).toEqual([{ n: 2 }, { n: 3 }]);
  expect(await kept()).toEqual([1, 2, 3]);
});

test('a last statement that fails: its error, with its code and constraint; nothing of the transaction is kept', async () => {
  await db.query('INSERT INTO commit_with_kept (n) VALUES (5)');
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('INSERT INTO commit_with_kept (n) VALUES (4)');
      return tx.commitWith('INSERT INTO commit_with_kept (n) VALUES (5)');
    }),
  );
  expect(err).toMatchObject({ code: '23505' });
  expect(uniqueViolation(err)).toBe('commit_with_kept_pkey');
  expect(await kept()).toEqual([5]);
  // The connection is clean for the next transaction.
  expect(await db.tx((tx) => tx.commitWith<{ n: number }>('SELECT 6 AS n'))).toEqual([{ n: 6 }]);
});

test('after it, the transaction runs nothing: a statement is refused, never run outside it', async () => {
  const late: unknown[] = [];
  const outcome = await failure(
    db.tx(async (tx) => {
      await tx.commitWith('INSERT INTO commit_with_kept (n) VALUES (7)');
      late.push(await failure(tx.query('INSERT INTO commit_with_kept (n) VALUES (8)')));
      late.push(await failure(tx.commitWith('INSERT INTO commit_with_kept (n) VALUES (9)')));
      throw new Error('the caller’s own refusal, after the commit');
    }),
  );
  expect(outcome).toEqual(new Error('the caller’s own refusal, after the commit'));
  expect(late).toEqual([new Error(TX_ENDED), new Error(TX_ENDED)]);
  // Committed with its last statement: what the function did after that cannot undo it.
  expect(await kept()).toEqual([7]);
});

test('a statement sent before it that fails: the transaction fails with that error and nothing is kept', async () => {
  const outcome = await failure(
    db.tx(async (tx) => {
      const [first, last] = await Promise.allSettled([
        tx.query('SELECT 1 / $1::int AS n', [0]),
        tx.commitWith('INSERT INTO commit_with_kept (n) VALUES (10)'),
      ]);
      if (first.status === 'rejected') throw first.reason;
      return last;
    }),
  );
  expect(outcome).toMatchObject({ code: '22012' });
  expect(await kept()).toEqual([]);
});

test('committing(tx): the statement a query function asks for is the last; a second is refused, never run', async () => {
  const insert = (on: Db, n: number) => on.one<{ n: number }>('INSERT INTO commit_with_kept (n) VALUES ($1) RETURNING n', [n]);
  const batches = await messagesOf(() => db.tx((tx) => insert(committing(tx), 17)));
  if (db.kind === 'pglite') expect(batches.map((b) => b.map((r) => r.op).join(' + '))).toEqual(['begin + last']);
  const twice = await failure(
    db.tx(async (tx) => {
      const last = committing(tx);
      await insert(last, 18);
      return insert(last, 19);
    }),
  );
  expect(twice).toEqual(new Error(TX_ENDED));
  expect(await kept()).toEqual([17, 18]);
});

test('work the function began and did not wait for: once the function has failed or returned, its statements are refused, never run', async () => {
  // A chain of Promise.all whose sibling failed (docs/decisions/097-writes-asked-together.md): the transaction rolls back,
  // and the chain's next statement must not reach the connection after the ROLLBACK, nor once it serves another.
  let late: Promise<unknown> = Promise.resolve();
  const failed = await failure(
    db.tx(async (tx) => {
      late = tx.query('SELECT 1').then(async () => {
        await new Promise((r) => setTimeout(r, 50));
        return tx.query('INSERT INTO commit_with_kept (n) VALUES (20)');
      });
      late.catch(() => undefined);
      await Promise.all([late, tx.query('SELECT 1/0')]);
    }),
  );
  expect(failed).toMatchObject({ code: '22012' });
  expect(await failure(late)).toMatchObject({ message: TX_ENDED });
  // Committed the same way: the function returned without waiting for its work.
  let after: Promise<unknown> = Promise.resolve();
  await db.tx(async (tx) => {
    await tx.query('INSERT INTO commit_with_kept (n) VALUES (21)');
    after = new Promise((r) => setTimeout(r, 50)).then(() => tx.query('INSERT INTO commit_with_kept (n) VALUES (22)'));
    after.catch(() => undefined);
  });
  expect(await failure(after)).toMatchObject({ message: TX_ENDED });
  // Wait past anything still in flight, then look: only what the committed transaction asked before it returned.
  await new Promise((r) => setTimeout(r, 100));
  expect(await kept()).toEqual([21]);
});

test('outside a transaction it is the statement alone', async () => {
  expect(await db.commitWith<{ n: number }>('INSERT INTO commit_with_kept (n) VALUES (11) RETURNING n')).toEqual([{ n: 11 }]);
  expect(await db.commitWith<{ n: number }>('SELECT 12 AS n')).toEqual([{ n: 12 }]);
  expect(await kept()).toEqual([11]);
});

onPostgres('PostgreSQL: the statement and COMMIT are written before the statement is answered', async () => {
  const events: string[] = [];
  const slow = 'INSERT INTO commit_with_kept (n) SELECT 13 FROM pg_sleep(0.05) RETURNING n';
  await queriesOf(
    ({ sql, answer }) => {
      events.push(`ask:${sql}`);
      if (answer instanceof Promise) answer.then(() => events.push(`answer:${sql}`)).catch(() => undefined);
    },
    () => db.tx((tx) => tx.commitWith(slow)),
  );
  const at = (e: string) => events.indexOf(e);
  expect(at('ask:COMMIT')).toBeGreaterThan(at(`ask:${slow}`));
  expect(at('ask:COMMIT')).toBeLessThan(at(`answer:${slow}`));
  expect(at('answer:COMMIT')).toBeGreaterThan(at(`answer:${slow}`));
  // One COMMIT: the transaction is not committed a second time when its function returns.
  expect(events.filter((e) => e === 'ask:COMMIT')).toHaveLength(1);
  expect(events.filter((e) => e === 'ask:ROLLBACK')).toEqual([]);
  expect(await kept()).toEqual([13]);
});

onPglite('the embedded database: the statement and the end are one message to its thread', async () => {
  const batches = await messagesOf(() =>
    db.tx(async (tx) => {
      await tx.query('INSERT INTO commit_with_kept (n) VALUES (14)');
      return tx.commitWith('INSERT INTO commit_with_kept (n) VALUES (15)');
    }),
  );
  expect(batches.map((b) => b.map((r) => r.op).join(' + '))).toEqual(['begin + query', 'last']);
  expect(await kept()).toEqual([14, 15]);
});

onPglite('the embedded database: a last statement that fails ends the transaction with no other message', async () => {
  const batches = await messagesOf(() => failure(db.tx((tx) => tx.commitWith('INSERT INTO commit_with_kept (n) VALUES (NULL)'))));
  expect(batches.map((b) => b.map((r) => r.op).join(' + '))).toEqual(['begin + last']);
  // The database takes the next transaction: the failed one was ended on its thread.
  expect(await db.tx((tx) => tx.commitWith<{ n: number }>('INSERT INTO commit_with_kept (n) VALUES (16) RETURNING n'))).toEqual([
    { n: 16 },
  ]);
  expect(await kept()).toEqual([16]);
});
