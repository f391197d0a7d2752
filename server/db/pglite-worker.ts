/**
 * The embedded database's thread (docs/decisions/071-embedded-database-thread.md): PGlite and its prepared statements
 * live here, so that its work runs beside the rendering thread, on another core. It answers the requests of
 * server/db/pglite-thread.ts one message each; its databases are the ones that thread opened (several in a test
 * process, one in the app), each with the transactions it began. PGlite's own locks order them as before: a
 * transaction holds its database until it ends, and the statements outside it wait.
 *
 * Plain TypeScript only (Node strips the types when the sources run): the thread is started from this file's path.
 */
import { parentPort } from 'node:worker_threads';
import { batched } from './batch.ts';
import { openLiteDb } from './pglite.ts';
import type { Db, Procedure } from './types.ts';
import type { Reply, Request } from './pglite-thread.ts';
import { toWire } from './wire-error.ts';

const port = parentPort;
if (!port) throw new Error('server/db/pglite-worker.ts runs as a worker thread (server/db/pglite-thread.ts starts it)');

const dbs = new Map<number, Db>();
/** The procedures the thread may run (server/procedures.ts), once the first is asked for. */
let registry: Promise<typeof import('../procedures.ts')> | undefined;
let opened = 0;
/** An open transaction: its handle, how to end it, and the promise of the whole transaction. */
type Tx = { db: Db; end: (commit: boolean) => void; done: Promise<unknown> };
/**
 * Each transaction begun, as the promise of it once its BEGIN has run: a statement sent in one message with the BEGIN
 * (server/db/pglite-thread.ts) waits for it, and fails with BEGIN's error when that failed (and the entry is removed).
 */
const txs = new Map<number, Promise<Tx>>();

/** What ends a transaction the caller rolls back: PGlite rolls back when the transaction's function throws. */
class RolledBack extends Error {}

/** A request for a database, or a transaction, that is not (or no longer) here: never run as if it were. */
const unknown = (what: string, id: number) => Object.assign(new Error(`the embedded database has no ${what} ${id}`), { code: '57P01' });

async function run(m: Request): Promise<unknown> {
  switch (m.op) {
    case 'open': {
      const db = await openLiteDb(m.dir ?? undefined);
      dbs.set(++opened, db);
      return opened;
    }
    case 'query': {
      const on = m.tx ? (await txs.get(m.tx))?.db : dbs.get(m.db);
      if (!on) throw m.tx ? unknown('transaction', m.tx) : unknown('database', m.db);
      return on.query(m.sql, m.params);
    }
    case 'begin': {
      const db = dbs.get(m.db);
      if (!db) throw unknown('database', m.db);
      const began = new Promise<Tx>((begun, failed) => {
        const done = db.tx(
          (t) => new Promise<void>((commit, rollback) => begun({ db: t, end: (c) => (c ? commit() : rollback(new RolledBack())), done })),
        );
        // The transaction could not start (before the function ran: the database closed, or its thread ending): the
        // caller's begin fails with it. BEGIN itself goes to PGlite with the transaction's first statement (decision 098).
        done.catch(failed);
      });
      txs.set(m.tx, began);
      began.catch(() => txs.delete(m.tx));
      await began;
      return null;
    }
    case 'end': {
      const t = await txs.get(m.tx);
      if (!t) throw unknown('transaction', m.tx);
      txs.delete(m.tx);
      t.end(m.commit);
      try {
        await t.done;
      } catch (err) {
        if (!(err instanceof RolledBack)) throw err;
      }
      return null;
    }
    case 'last': {
      // A transaction's last statement with its COMMIT (in one batch to PGlite, decision 098), then its end at once:
      // committed when it ran, rolled back when it failed.
      const t = await txs.get(m.tx);
      if (!t) throw unknown('transaction', m.tx);
      txs.delete(m.tx);
      let rows: unknown;
      try {
        rows = await t.db.commitWith(m.sql, m.params);
      } catch (err) {
        t.end(false);
        await t.done.catch(() => undefined);
        throw err;
      }
      t.end(true);
      await t.done;
      return rows;
    }
    case 'run': {
      // A procedure, found by its name (server/procedures.ts), run here in a transaction of its own.
      const db = dbs.get(m.db);
      if (!db) throw unknown('database', m.db);
      // Imported at the first procedure, not at the thread's start: most test files never ask for one, and the
      // features' modules cost a thread started from the sources some 200 ms (docs/decisions/099-writes-run-on-the-database-thread.md).
      const { procedures } = await (registry ??= import('../procedures.ts'));
      const p = procedures.get(m.name);
      if (!p) throw new Error(`the embedded database's thread has no procedure ${m.name} (server/procedures.ts lists them)`);
      return db.run(p as Procedure<unknown, unknown>, m.args);
    }
    case 'close': {
      const db = dbs.get(m.db);
      dbs.delete(m.db);
      await db?.close();
      return null;
    }
  }
}

/** A reply goes with the others of this turn of the thread's event loop. */
const send = batched<Reply>((batch) => port.postMessage(batch));

port.on('message', (batch: Request[]) => {
  for (const m of batch)
    run(m).then(
      (value) => send({ id: m.id, ok: true, value }),
      (err: unknown) => send({ id: m.id, ok: false, error: toWire(err) }),
    );
});
