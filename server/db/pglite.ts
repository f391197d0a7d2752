import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { messages, PGlite as PGliteType } from '@electric-sql/pglite';
import { readRows } from './pglite-rows.ts';
import './wasm-wrappers.ts';
import { DIR_MODE, FILE_MODE, makePrivate } from './private-files.ts';
import {
  MAX_PREPARED,
  normalising,
  planChanged,
  PREPARABLE,
  sharedParsers,
  TxState,
  wrap,
  type Db,
  type Row,
  type TextParser,
} from './types.ts';

/**
 * PGlite's own `query` sends six protocol messages one by one (parse, describe, bind, describe, execute, sync) and
 * plans the statement again each time. Here a statement is parsed and described once under a name (its parameter
 * types and row description kept), then each call is one batch: bind, execute, sync. Same locks as `query`
 * (the transaction lock, then the query lock; inside a transaction the query lock only), same parsers and
 * serializers, same errors (the first DatabaseError of the batch, with the query and parameters attached).
 *
 * Its transactions are its own too: `BEGIN` goes in the batch of the transaction's first statement and `COMMIT` in
 * the batch of its last (Db.commitWith), or alone at its end, where PGlite's `transaction` ran each as a statement of
 * its own (docs/decisions/098-lite-begin-commit-batched.md).
 */
async function preparedPglite(lite: PGliteType) {
  const { messages: m, parse, protocol, types } = await import('@electric-sql/pglite');
  const ser = protocol.serialize;
  type Kept = { name: string; paramTypes: number[]; fields: messages.RowDescriptionMessage | undefined };
  const kept = new Map<string, Kept>();
  let named = 0;
  const joined = (parts: Uint8Array[]) => {
    let size = 0;
    for (const p of parts) size += p.length;
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const batch = (parts: Uint8Array[]) => lite.execProtocolStream(joined(parts), { syncToFs: false });
  /** The answer's bytes as they come, without PGlite's parser (execProtocolRaw would still run it on them). */
  const exchange = async (parts: Uint8Array[]): Promise<Uint8Array> => {
    const chunks: Uint8Array[] = [];
    await lite.execProtocolRawStream(joined(parts), { syncToFs: false, onRawData: (bytes) => void chunks.push(bytes.slice()) });
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : joined(chunks);
  };
  const describe = async (sql: string, name: string): Promise<Kept> => {
    const msgs = await batch([ser.parse({ name, text: sql }), ser.describe({ type: 'S', name }), ser.sync()]);
    const fields = msgs.find((x): x is messages.RowDescriptionMessage => x instanceof m.RowDescriptionMessage);
    return { name, paramTypes: parse.parseDescribeStatementResults(msgs), fields };
  };
  const prepare = async (sql: string): Promise<Kept> => {
    const k = await describe(sql, `bh_${++named}`);
    kept.set(sql, k);
    return k;
  };
  const value = (text: string, type: number) => types.parseType(text, type, lite.parsers) as unknown;
  /** Every message of an answer, PGlite's parser reading them; its first error thrown, as execProtocolStream does. */
  const parsed = (raw: Uint8Array): messages.BackendMessage[] => {
    const msgs: messages.BackendMessage[] = [];
    new protocol.Parser().parse(raw, (x) => msgs.push(x));
    const error = msgs.find((x) => x instanceof m.DatabaseError);
    if (error) throw error;
    return msgs;
  };
  /**
   * The rows of a bound statement's answer: read in place (server/db/pglite-rows.ts); an answer with an error or
   * anything unexpected is read by PGlite's parser, and its first error thrown.
   */
  const rowsOf = (raw: Uint8Array, k: Kept): Row[] => {
    const rows = readRows(raw, k.fields?.fields, value);
    if (rows) return rows;
    const msgs = parsed(raw);
    return (parse.parseResults(k.fields ? [k.fields, ...msgs] : msgs, lite.parsers)[0]?.rows ?? []) as Row[];
  };
  /** Closes a prepared statement (its failure ignored: a statement left open costs only its memory). */
  const close = (name: string) => batch([ser.close({ type: 'S', name }), ser.sync()]).catch(() => undefined);
  const forget = async (sql: string) => {
    const k = kept.get(sql);
    if (!k) return;
    kept.delete(sql);
    await close(k.name);
  };
  /** A statement's error, with its query and parameters; a kept statement whose plan changed is forgotten first. */
  const failed = async (err: unknown, sql: string, params: unknown[]): Promise<never> => {
    if (planChanged(err)) await forget(sql);
    throw Object.assign(err as Error, { query: sql, params });
  };
  const bound = (k: Kept, params: unknown[]) => {
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serialise = lite.serializers[k.paramTypes[i] ?? 0];
      return serialise ? serialise(v) : String(v as string);
    });
    return [ser.bind({ statement: k.name, values }), ser.execute({})];
  };
  const usable = (sql: string) => PREPARABLE.test(sql) && (kept.has(sql) || kept.size < MAX_PREPARED);

  /** Outside a transaction: runs in the query lock. */
  const run = async (sql: string, params: unknown[]): Promise<Row[]> => {
    await lite._checkReady();
    let rows: Row[];
    try {
      const k = kept.get(sql) ?? (await prepare(sql));
      rows = rowsOf(await exchange([...bound(k, params), ser.sync()]), k);
    } catch (err) {
      return failed(err, sql, params);
    }
    await lite.syncToFs();
    return rows;
  };

  // A transaction's own statements, kept as the others are: bound and executed in the batch of a statement.
  const control = { begin: await prepare('BEGIN'), commit: await prepare('COMMIT'), rollback: await prepare('ROLLBACK') };
  /** What `BEGIN` answers when it runs (BindComplete, CommandComplete "BEGIN"): taken off the statement's answer. */
  const BEGUN = Uint8Array.from([0x32, 0, 0, 0, 4, 0x43, 0, 0, 0, 10, ...Buffer.from('BEGIN\0')]);
  const startsWith = (raw: Uint8Array, head: Uint8Array) => raw.length >= head.length && head.every((b, i) => raw[i] === b);
  /** The last ReadyForQuery's status: I (no transaction: committed, or rolled back), T (open), E (failed). */
  const statusOf = (raw: Uint8Array) => String.fromCharCode(raw[raw.length - 1] ?? 0x49) as 'I' | 'T' | 'E';

  /**
   * One transaction, in the transaction lock: nothing is sent until its first statement, which goes with `BEGIN`;
   * `commit` sends a statement with `COMMIT`. `end` commits what is still open when the function has returned, or
   * rolls it back; a transaction whose statement failed is rolled back and its function's return refused (25P02),
   * as PGlite's `transaction` refuses a `COMMIT` answered `ROLLBACK`.
   */
  class LiteTx {
    private status: 'none' | 'I' | 'T' | 'E' = 'none';
    /** Its COMMIT was answered: committed. */
    private committed = false;
    async statement(sql: string, params: unknown[], commit: boolean): Promise<Row[]> {
      return lite._runExclusiveQuery(async () => {
        await lite._checkReady();
        const keep = usable(sql);
        try {
          if (!PREPARABLE.test(sql) && params.length === 0 && !commit) return await this.simple(sql);
          const k = kept.get(sql) ?? (keep ? await prepare(sql) : await describe(sql, `bh_once_${++named}`));
          try {
            const begin = this.status === 'none' ? bound(control.begin, []) : [];
            const end = commit ? bound(control.commit, []) : [];
            const raw = await exchange([...begin, ...bound(k, params), ...end, ser.sync()]);
            this.status = statusOf(raw);
            const rows = rowsOf(begin.length && startsWith(raw, BEGUN) ? raw.subarray(BEGUN.length) : raw, k);
            if (commit) this.committed = true;
            return rows;
          } finally {
            if (!keep) await close(k.name);
          }
        } catch (err) {
          return failed(err, sql, params);
        }
      });
    }
    /** A statement that is not kept (DDL, a session's setting: migrations): the simple protocol, after `BEGIN`. */
    private async simple(sql: string): Promise<Row[]> {
      if (this.status === 'none') {
        await this.control('begin');
        this.status = 'T';
      }
      const raw = await exchange([ser.query(sql)]);
      this.status = statusOf(raw);
      return (parse.parseResults(parsed(raw), lite.parsers)[0]?.rows ?? []) as Row[];
    }
    /** `BEGIN`, `COMMIT` or `ROLLBACK` alone: its answer's messages, its error thrown. */
    private async control(which: keyof typeof control): Promise<messages.BackendMessage[]> {
      return parsed(await exchange([...bound(control[which], []), ser.sync()]));
    }
    /** After the function: `returned` whether it returned (else it threw). */
    async end(returned: boolean): Promise<void> {
      await lite._runExclusiveQuery(async () => {
        if (this.status === 'T' && returned) {
          // Answered ROLLBACK when the transaction had failed where its status was not seen (a statement's parse).
          const answer = await this.control('commit');
          this.committed = answer.some((x) => x instanceof m.CommandCompleteMessage && x.text === 'COMMIT');
          this.status = 'I';
        } else if (this.status === 'T' || this.status === 'E') await this.control('rollback').catch(() => undefined);
      });
      if (returned && this.status !== 'none' && !this.committed)
        throw Object.assign(new Error('Transaction was rolled back instead of committed'), { code: '25P02', query: 'COMMIT' });
    }
  }

  return {
    /** Outside a transaction: as `lite.query` does, the transaction lock first. A changed plan is prepared again once. */
    query: async (sql: string, params: unknown[]): Promise<Row[]> => {
      if (!usable(sql)) return (await lite.query<Row>(sql, params)).rows;
      const once = () => lite._runExclusiveTransaction(() => lite._runExclusiveQuery(() => run(sql, params)));
      try {
        return await once();
      } catch (err) {
        if (!planChanged(err)) throw err;
        return once();
      }
    },
    /** Runs `fn` in a transaction (holding the transaction lock); a thrown error rolls it back. */
    transaction: async <T>(fn: (t: LiteTx) => Promise<T>): Promise<T> => {
      await lite._checkReady();
      return lite._runExclusiveTransaction(async () => {
        const t = new LiteTx();
        let result: T;
        try {
          result = await fn(t);
        } catch (err) {
          await t.end(false);
          throw err;
        }
        await t.end(true);
        await lite.syncToFs();
        return result;
      });
    },
  };
}

/**
 * The embedded database opened in this thread, without the lock on its folder: the database thread opens it so
 * (server/db/pglite-worker.ts), while the process that started the thread holds the lock (server/db/pglite-thread.ts).
 */
export async function openLiteDb(dataDir: string | undefined): Promise<Db> {
  const { lite } = await openLite(dataDir);
  return wrapLite(lite);
}

/** Whether a process of this id is running (EPERM: it is, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database's files belong to one process at a time: a second process opening them (a second app on the
 * same DATA_DIR, a backup while the app runs) would corrupt them. `<dir>.lock` holds the id of the process that has
 * them; another live process is refused, a stale lock (its process gone) is taken over. Returns the release.
 */
export function holdDir(dir: string): () => void {
  const lock = `${dir}.lock`;
  if (heldHere.has(lock)) throw new Error(`the embedded database in ${dir} is in use by process ${process.pid}: stop it first`);
  mkdirSync(path.dirname(lock), { recursive: true, mode: DIR_MODE });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: FILE_MODE });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      const holder = Number(readFileSync(lock, 'utf8').trim());
      if (holder !== process.pid && Number.isInteger(holder) && holder > 0 && alive(holder))
        throw new Error(`the embedded database in ${dir} is in use by process ${holder}: stop it first`, { cause: e });
      rmSync(lock, { force: true });
    }
  }
  heldHere.add(lock);
  return () => {
    heldHere.delete(lock);
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) rmSync(lock, { force: true });
    } catch {
      // already gone
    }
  };
}

/** The locks this process holds: a second open in the same process is refused too. */
const heldHere = new Set<string>();

/** The embedded database's folder under DATA_DIR. */
export const pgliteDir = (dataDir: string): string => path.join(dataDir, 'pglite');

/**
 * A consistent copy of an embedded database's files (PGlite's dump, a gzipped tar), made with the files held: the app
 * must not be running on them (holdDir refuses then).
 */
export async function dumpPglite(dir: string): Promise<Blob> {
  const release = holdDir(dir);
  try {
    const { lite } = await openLite(dir);
    try {
      return await lite.dumpDataDir('gzip');
    } finally {
      await lite.close();
    }
  } finally {
    release();
  }
}

/** Makes an embedded database in `dir` from a dump of dumpPglite; `dir` must not hold a database already. */
export async function loadPglite(dir: string, dump: Blob): Promise<void> {
  let present: string[] = [];
  try {
    present = readdirSync(dir);
  } catch {
    // not there yet: made below
  }
  if (present.length > 0) throw new Error(`${dir} already holds a database: restore into an empty DATA_DIR`);
  const release = holdDir(dir);
  try {
    const { lite } = await openLite(dir, dump);
    await lite.close();
    // The restored files are the app's alone, as at every start (docs/rules/security.md#11-the-data-folder).
    makePrivate(dir);
  } finally {
    release();
  }
}

/** `dump`: a data folder as PGlite dumps it (a restore). */
async function openLite(dataDir: string | undefined, dump?: Blob): Promise<{ lite: PGliteType }> {
  const { PGlite, types } = await import('@electric-sql/pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  const lite: PGliteType = await PGlite.create(dataDir, {
    parsers: sharedParsers((oid) => types.parsers[oid] as TextParser),
    ...(dump ? { loadDataDir: dump } : {}),
  });
  return { lite };
}

async function wrapLite(lite: PGliteType): Promise<Db> {
  await lite.exec(`SET TIME ZONE 'UTC'`);
  const prepared = await preparedPglite(lite);
  // In a transaction the last statement (commitWith) goes with its COMMIT, in one batch (decision 098).
  const db = wrap(
    'pglite',
    normalising(prepared.query),
    (fn) =>
      prepared.transaction(async (lt) => {
        const state = new TxState();
        const t: Db = wrap(
          'pglite',
          normalising(state.guard((sql, params) => lt.statement(sql, params, false))),
          (inner) => inner(t),
          async () => undefined,
          normalising(state.last((sql, params) => lt.statement(sql, params, true))),
        );
        try {
          return await fn(t);
        } finally {
          // Nothing asked late by the function's work runs after its end.
          state.over();
        }
      }),
    () => lite.close(),
  );
  return db;
}
