/**
 * The embedded database on its own thread (server/db/pglite-thread.ts, docs/decisions/071-embedded-database-thread.md):
 * the values, errors and transactions come through the messages as they did in process, and a thread that dies fails
 * what was waiting with the error the API answers 503, then opens the database in its folder again.
 * Embedded database only: skipped on PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { jest } from '@jest/globals';
import { openDb, procedure, uniqueViolation, type Db, type ThreadEvent } from '../../server/db/index.ts';
import { crashThread } from '../../server/db/pglite-thread.ts';
import { databaseUnavailable, errorCode } from '../../server/db/unavailable.ts';
import { until } from '../helpers/wait.ts';
import { messagesOf } from '../helpers/db-messages.ts';

const onPglite = process.env.TEST_DATABASE_URL ? describe.skip : describe;

onPglite('the embedded database thread', () => {
  let dir: string;
  let db: Db;
  const events: ThreadEvent[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bhagya-thread-'));
    db = await openDb({ dataDir: dir, onThreadEvent: (e) => events.push(e) });
    await db.query(
      'CREATE TABLE t (id int8 PRIMARY KEY, amount numeric(12,2), born date, at timestamptz, data bytea, tags text[], doc jsonb)',
    );
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('values come back as the data layer gives them: int8 a number, numeric and date text, times ISO, bytes, arrays, JSON', async () => {
    await db.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      7,
      '12.50',
      '2001-02-03',
      new Date('2026-11-29T10:00:00.123Z'),
      Buffer.from([1, 2, 255]),
      ['a', 'খ'],
      { k: [1, 'দুই'] },
    ]);
    const row = await db.one<Record<string, unknown>>('SELECT * FROM t WHERE id = $1', [7]);
    expect(row).toEqual({
      id: 7,
      amount: '12.50',
      born: '2001-02-03',
      at: '2026-11-29T10:00:00.123Z',
      data: new Uint8Array([1, 2, 255]),
      tags: ['a', 'খ'],
      doc: { k: [1, 'দুই'] },
    });
    await expect(db.query('SELECT $1::int8 AS n', ['9007199254740993'])).rejects.toThrow('outside the safe integer range');
  });

  test("an error keeps PostgreSQL's fields: a unique violation names its constraint", async () => {
    const err: unknown = await db.query('INSERT INTO t (id) VALUES (7)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(errorCode(err)).toBe('23505');
    expect(uniqueViolation(err)).toBe('t_pkey');
    expect(databaseUnavailable(err)).toBe(false);
    const syntax: unknown = await db.query('SELEC 1').catch((e: unknown) => e);
    expect(errorCode(syntax)).toBe('42601');
  });

  test('a transaction commits, rolls back when its function throws, and holds the database until it ends', async () => {
    await db.tx(async (t) => {
      await t.query('INSERT INTO t (id) VALUES (8)');
      await t.tx(async (nested) => nested.query('INSERT INTO t (id) VALUES (9)'));
    });
    await expect(
      db.tx(async (t) => {
        await t.query('INSERT INTO t (id) VALUES (10)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A failed statement rolls back the whole transaction.
    await expect(
      db.tx(async (t) => {
        await t.query('INSERT INTO t (id) VALUES (11)');
        await t.query('INSERT INTO t (id) VALUES (7)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const ids = (await db.query<{ id: number }>('SELECT id FROM t ORDER BY id')).map((r) => r.id);
    expect(ids).toEqual([7, 8, 9]);

    // A statement outside waits for the transaction: it sees the row only once it is committed.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const inside = db.tx(async (t) => {
      await t.query('INSERT INTO t (id) VALUES (12)');
      await held;
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = db.one<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 12');
    let answered = false;
    void outside.then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    release();
    await inside;
    expect((await outside)?.n).toBe(1);
  });

  test("a transaction's BEGIN goes to the thread in one message with its first statement; a first statement that fails fails the transaction", async () => {
    const batches = await messagesOf(() =>
      db.tx(async (t) => {
        await t.query('SELECT 1');
        await t.query('SELECT 2');
      }),
    );
    expect(batches.map((b) => b.map((r) => r.op).join(' + '))).toEqual(['begin + query', 'query', 'end']);

    // Its first statement refused: rolled back, the statement's own error, and the database free again.
    await expect(db.tx(async (t) => t.query('INSERT INTO t (id) VALUES (7)'))).rejects.toMatchObject({ code: '23505' });
    expect((await db.one<{ n: number }>('SELECT count(*)::int AS n FROM t'))?.n).toBe(4);
  });

  test('a procedure the thread does not list is refused there, and nothing of it runs', async () => {
    let ran = false;
    const stray = procedure('not-listed', async (tx) => {
      ran = true;
      await tx.query('INSERT INTO t (id) VALUES (99)');
    });
    await expect(db.run(stray, null)).rejects.toThrow("the embedded database's thread has no procedure not-listed");
    expect(ran).toBe(false);
    expect(await db.query('SELECT id FROM t WHERE id = 99')).toEqual([]);
    // In a transaction, a procedure is that transaction's work, run here.
    await db.tx((tx) => tx.run(stray, null));
    expect(ran).toBe(true);
    expect(await db.query('SELECT id FROM t WHERE id = 99')).toEqual([{ id: 99 }]);
    await db.query('DELETE FROM t WHERE id = 99');
  });

  test('two databases on the one thread are apart', async () => {
    const other = await openDb({ inMemory: true });
    try {
      await other.query('CREATE TABLE t (id int8)');
      await other.query('INSERT INTO t VALUES (1)');
      expect((await other.query('SELECT id FROM t')).length).toBe(1);
      expect((await db.query('SELECT id FROM t')).length).toBe(4);
    } finally {
      await other.close();
    }
  });

  test('a second open of the same folder is refused while it is held', async () => {
    await expect(openDb({ dataDir: dir })).rejects.toThrow(`in use by process ${process.pid}`);
  });

  test('the thread dies: what waited fails as unavailable, the folder is opened again with what was committed', async () => {
    const memory = await openDb({ inMemory: true });
    await memory.query('SELECT 1');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let began!: () => void;
    const begun = new Promise<void>((r) => (began = r));
    const open = db.tx(async (t) => {
      await t.query('INSERT INTO t (id) VALUES (13)');
      began();
      await held;
      await t.query('INSERT INTO t (id) VALUES (14)');
    });
    await begun;
    const waiting = db.query('SELECT count(*) FROM t');
    // A transaction that begins as the thread dies (its BEGIN and first statement in one message): it fails as unavailable, nothing of it kept.
    const beginning = db.tx(async (t) => t.query('INSERT INTO t (id) VALUES (16)'));
    await crashThread();
    const failed: unknown = await waiting.catch((e: unknown) => e);
    expect(databaseUnavailable(failed)).toBe(true);
    release();
    expect(databaseUnavailable(await open.catch((e: unknown) => e))).toBe(true);
    expect(databaseUnavailable(await beginning.catch((e: unknown) => e))).toBe(true);
    expect(events.some((e) => e.event === 'stopped')).toBe(true);

    // Until it is open again, a statement fails at once as unavailable.
    const meanwhile: unknown = await db.query('SELECT 1').catch((e: unknown) => e);
    if (meanwhile instanceof Error) expect(databaseUnavailable(meanwhile)).toBe(true);
    await until(() => events.some((e) => e.event === 'reopened'), 20_000, 50);
    const ids = (await db.query<{ id: number }>('SELECT id FROM t ORDER BY id')).map((r) => r.id);
    expect(ids).toEqual([7, 8, 9, 12]);
    await db.tx(async (t) => t.query('INSERT INTO t (id) VALUES (15)'));
    expect((await db.one<{ n: number }>('SELECT count(*)::int AS n FROM t'))?.n).toBe(5);

    // An in-memory database has nothing to be opened from: it stays gone.
    const gone: unknown = await memory.query('SELECT 1').catch((e: unknown) => e);
    expect(databaseUnavailable(gone)).toBe(true);
    await memory.close();
  });
});

onPglite('the next database thread', () => {
  test('starts only once the one before it has ended: a database that fails to open, then another at once', async () => {
    const { openPgliteThread } = await import('../../server/db/pglite-thread.ts');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bhagya-thread-')), 'not-a-folder');
    writeFileSync(file, 'a file where the database folder would be');
    // Each message to a thread, with whether the thread of the first message had ended when it was sent.
    const post = Worker.prototype.postMessage;
    const sent: { to: Worker; firstEnded: boolean }[] = [];
    let firstEnded = false;
    const spy = jest.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, value: unknown) {
      if (sent.length === 0) this.once('exit', () => (firstEnded = true));
      sent.push({ to: this, firstEnded });
      post.call(this, value);
    });
    try {
      await expect(openPgliteThread(file)).rejects.toThrow();
      // Its thread is being ended (no database of its own left on it); the next opens in a thread of its own.
      const db = await openPgliteThread(undefined);
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await db.close();
    } finally {
      spy.mockRestore();
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
    const first = sent[0]?.to;
    const later = sent.filter((m) => m.to !== first);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((m) => m.firstEnded)).toBe(true);
  });
});
