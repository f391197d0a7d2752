/**
 * The embedded database's own transactions (server/db/pglite.ts, docs/decisions/098-lite-begin-commit-batched.md):
 * `BEGIN` goes to PGlite in the batch of the transaction's first statement and `COMMIT` in the batch of its last, where
 * PGlite's `transaction` ran each as a statement of its own. Opened here in the test's own thread (the app's database
 * thread opens it the same way), so that PGlite's calls can be counted.
 */
import { PGlite } from '@electric-sql/pglite';
import { jest } from '@jest/globals';
import { openLiteDb } from '../../server/db/pglite.ts';
import { TX_ENDED, type Db } from '../../server/db/types.ts';
import { failure } from '../helpers/wait.ts';

let db: Db;
beforeAll(async () => {
  db = await openLiteDb(undefined);
  await db.query('CREATE TABLE lite_tx (n int PRIMARY KEY)');
  await db.query(`CREATE FUNCTION lite_tx_noisy(v int) RETURNS int LANGUAGE plpgsql AS $$
    BEGIN RAISE NOTICE 'noisy %', v; RETURN v; END $$`);
});
afterAll(async () => {
  await db.close();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await db.query('DELETE FROM lite_tx');
});

const kept = async () => (await db.query<{ n: number }>('SELECT n FROM lite_tx ORDER BY n')).map((r) => r.n);
/** PGlite's calls that carry protocol messages: each a batch the database runs. */
const counting = () => ({
  raw: jest.spyOn(PGlite.prototype, 'execProtocolRawStream'),
  parsed: jest.spyOn(PGlite.prototype, 'execProtocolStream'),
});
/**
 * Each batch PGlite was sent, as its messages: B (bind) with the prepared statement's name, E (execute), S (sync).
 * A message is its code, its length (which counts itself) and its body; a bind's body starts with the portal's name
 * and the statement's, each ended by a zero.
 */
const batches = (spy: ReturnType<typeof counting>['raw']) =>
  spy.mock.calls.map(([bytes]) => {
    const b = Buffer.from(bytes);
    const out: string[] = [];
    for (let at = 0; at < b.length; at += 1 + b.readUInt32BE(at + 1)) {
      const code = String.fromCharCode(b[at] as number);
      const portalEnd = b.indexOf(0, at + 5);
      out.push(code === 'B' ? `B ${b.toString('latin1', portalEnd + 1, b.indexOf(0, portalEnd + 1))}` : code);
    }
    return out;
  });

test('a transaction of known statements is one batch each: BEGIN with the first, COMMIT with the last', async () => {
  // Prepared before counting, as every statement of the app is after its first use.
  await db.tx(async (tx) => {
    await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [1]);
    await tx.commitWith('INSERT INTO lite_tx (n) VALUES ($1) RETURNING n', [2]);
  });
  await db.query('DELETE FROM lite_tx');
  const calls = counting();
  const rows = await db.tx(async (tx) => {
    await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [3]);
    return tx.commitWith<{ n: number }>('INSERT INTO lite_tx (n) VALUES ($1) RETURNING n', [4]);
  });
  expect(rows).toEqual([{ n: 4 }]);
  expect(calls.parsed).not.toHaveBeenCalled();
  // BEGIN and the first statement; the last statement and COMMIT: four statements bound, two batches.
  const [first, last, ...more] = batches(calls.raw);
  expect(more).toEqual([]);
  expect(first).toEqual([expect.stringMatching(/^B bh_/), 'E', expect.stringMatching(/^B bh_/), 'E', 'S']);
  expect(last).toEqual([expect.stringMatching(/^B bh_/), 'E', expect.stringMatching(/^B bh_/), 'E', 'S']);
  const [begin, insert, returning, commit] = [first?.[0], first?.[2], last?.[0], last?.[2]];
  expect(new Set([begin, insert, returning, commit]).size).toBe(4);
  calls.raw.mockRestore();
  calls.parsed.mockRestore();
  expect(await kept()).toEqual([3, 4]);
});

test('a transaction whose function returns without a last statement is committed by one batch of its own', async () => {
  await db.tx((tx) => tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [5]));
  await db.query('DELETE FROM lite_tx');
  const calls = counting();
  await db.tx(async (tx) => {
    await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [6]);
    await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [7]);
  });
  expect(calls.parsed).not.toHaveBeenCalled();
  // BEGIN with the first; the second alone; COMMIT alone, once the function has returned.
  const [first, second, end, ...more] = batches(calls.raw);
  expect(more).toEqual([]);
  expect(first).toEqual([expect.stringMatching(/^B bh_/), 'E', expect.stringMatching(/^B bh_/), 'E', 'S']);
  expect(second).toEqual([first?.[2], 'E', 'S']);
  expect(end).toEqual([expect.stringMatching(/^B bh_/), 'E', 'S']);
  expect(new Set([first?.[0], first?.[2], end?.[0]]).size).toBe(3);
  calls.raw.mockRestore();
  calls.parsed.mockRestore();
  expect(await kept()).toEqual([6, 7]);
});

test('a transaction that asks nothing sends nothing, and gives its function’s value', async () => {
  const calls = counting();
  expect(await db.tx(async () => 'nothing asked')).toBe('nothing asked');
  expect(calls.raw).not.toHaveBeenCalled();
  expect(calls.parsed).not.toHaveBeenCalled();
});

test('a function that throws: nothing is kept, and the database takes the next transaction', async () => {
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [8]);
      throw new Error('the caller’s own refusal');
    }),
  );
  expect(err).toEqual(new Error('the caller’s own refusal'));
  expect(await kept()).toEqual([]);
  expect(await db.tx((tx) => tx.commitWith<{ n: number }>('INSERT INTO lite_tx (n) VALUES ($1) RETURNING n', [9]))).toEqual([{ n: 9 }]);
  expect(await kept()).toEqual([9]);
});

test('a first statement that fails: its error; nothing kept; the next transaction runs', async () => {
  await db.query('INSERT INTO lite_tx (n) VALUES (10)');
  const err = await failure(db.tx((tx) => tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [10])));
  expect(err).toMatchObject({ code: '23505', query: 'INSERT INTO lite_tx (n) VALUES ($1)', params: [10] });
  expect(await db.tx((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM lite_tx'))).toEqual([{ n: 1 }]);
});

test('a last statement that fails with its COMMIT: its error, nothing of the transaction kept, the database clean', async () => {
  await db.query('INSERT INTO lite_tx (n) VALUES (12)');
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [11]);
      return tx.commitWith('INSERT INTO lite_tx (n) VALUES ($1)', [12]);
    }),
  );
  expect(err).toMatchObject({ code: '23505' });
  expect(await kept()).toEqual([12]);
  expect(await db.tx((tx) => tx.commitWith<{ n: number }>('SELECT 13 AS n'))).toEqual([{ n: 13 }]);
});

test('a function that swallows a failed statement and returns: refused as rolled back, nothing kept', async () => {
  await db.query('INSERT INTO lite_tx (n) VALUES (14)');
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [15]);
      await failure(tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [14]));
      return 'as if nothing happened';
    }),
  );
  expect(err).toMatchObject({ code: '25P02' });
  expect(await kept()).toEqual([14]);
});

test('a function that swallows its failed last statement: refused as rolled back, nothing kept', async () => {
  await db.query('INSERT INTO lite_tx (n) VALUES (16)');
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [17]);
      await failure(tx.commitWith('INSERT INTO lite_tx (n) VALUES ($1)', [16]));
      return 'as if nothing happened';
    }),
  );
  expect(err).toMatchObject({ code: '25P02' });
  expect(await kept()).toEqual([16]);
});

test('a statement refused as it is prepared fails the transaction too: its function’s return is refused', async () => {
  await db.tx((tx) => tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [27]));
  await db.query('DELETE FROM lite_tx');
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [27]);
      // Refused by PostgreSQL's parse (no such column), before anything is bound: the transaction is aborted.
      expect(await failure(tx.query('SELECT no_such_column FROM lite_tx WHERE n = $1', [27]))).toMatchObject({ code: '42703' });
      return 'as if nothing happened';
    }),
  );
  expect(err).toMatchObject({ code: '25P02' });
  expect(await kept()).toEqual([]);
});

test('after the last statement the transaction is ended: what follows is refused, the commit stands', async () => {
  const late = await db.tx(async (tx) => {
    await tx.commitWith('INSERT INTO lite_tx (n) VALUES ($1)', [18]);
    return failure(tx.query('INSERT INTO lite_tx (n) VALUES ($1)', [19]));
  });
  expect(late).toEqual(new Error(TX_ENDED));
  expect(await kept()).toEqual([18]);
});

test('statements that are not kept run in the transaction too: a table made in it is gone with its rollback', async () => {
  const err = await failure(
    db.tx(async (tx) => {
      await tx.query('CREATE TABLE lite_tx_made (n int)');
      await tx.query('INSERT INTO lite_tx_made (n) VALUES ($1)', [20]);
      throw new Error('undone');
    }),
  );
  expect(err).toEqual(new Error('undone'));
  expect(await failure(db.query('SELECT n FROM lite_tx_made'))).toMatchObject({ code: '42P01' });
  // A DDL statement first and a statement with parameters that is not kept (VALUES): both in one transaction.
  const rows = await db.tx(async (tx) => {
    await tx.query('CREATE TABLE lite_tx_made (n int)');
    await tx.query('INSERT INTO lite_tx_made (n) VALUES ($1)', [21]);
    return tx.commitWith<{ column1: number }>('VALUES ($1::int)', [22]);
  });
  expect(rows).toEqual([{ column1: 22 }]);
  expect(await db.query('SELECT n FROM lite_tx_made')).toEqual([{ n: 21 }]);
  await db.query('DROP TABLE lite_tx_made');
});

test('a first statement whose answer carries a notice: its own rows, not BEGIN’s', async () => {
  expect(await db.tx((tx) => tx.query('SELECT lite_tx_noisy($1) AS v', [23]))).toEqual([{ v: 23 }]);
  expect(await db.tx((tx) => tx.commitWith('SELECT lite_tx_noisy($1) AS v', [24]))).toEqual([{ v: 24 }]);
});

test('statements outside a transaction wait for it, and see only what it committed', async () => {
  let release!: () => void;
  let begun!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const inside = new Promise<void>((r) => (begun = r));
  const tx = db.tx(async (t) => {
    await t.query('INSERT INTO lite_tx (n) VALUES ($1)', [25]);
    begun();
    await held;
    await t.commitWith('INSERT INTO lite_tx (n) VALUES ($1)', [26]);
  });
  await inside;
  let outside: number[] | undefined;
  const read = kept().then((k) => (outside = k));
  await new Promise((r) => setTimeout(r, 50));
  const whileOpen = outside;
  release();
  await tx;
  await read;
  expect(whileOpen).toBeUndefined();
  expect(outside).toEqual([25, 26]);
});
