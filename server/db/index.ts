import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DIR_MODE, FILE_MODE, makePrivate } from './private-files.ts';
import path from 'node:path';
import pg from 'pg';
import type { messages, PGlite as PGliteType } from '@electric-sql/pglite';

export type Row = Record<string, unknown>;

/** The one data-access interface: the same SQL (PostgreSQL dialect) on PGlite and on a real server. */
export interface Db {
  readonly kind: 'pglite' | 'postgres';
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  one<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs fn in one transaction; a thrown error rolls it back. */
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The connection pool's state (PostgreSQL only; the embedded database has one connection). */
  stats?: () => PoolStats;
}

/** Connections open, idle and at most, and queries waiting for a connection. */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

const INT8 = 20;
const NUMERIC = 1700;
/** A calendar day (a date of birth): kept as its text `YYYY-MM-DD`, never a Date at some hour of some time zone. */
const DATE = 1082;

/** int8 holds money and ids; beyond 2^53 a JS number would silently lose digits, so refuse. */
function parseInt8(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${v} is outside the safe integer range`);
  return n;
}

/** Dates leave the data layer as ISO-8601 UTC strings, so rows are JSON as they are. */
function normaliseRow<T extends Row>(row: Row): T {
  for (const k in row) {
    const v = row[k];
    if (v instanceof Date) row[k] = v.toISOString();
  }
  return row as T;
}

function wrap(kind: Db['kind'], run: (sql: string, params: unknown[]) => Promise<Row[]>, tx: Db['tx'], close: () => Promise<void>): Db {
  const db: Db = {
    kind,
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const rows = await run(sql, [...params]);
      return rows.map((r) => normaliseRow<T>(r));
    },
    async one<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const rows = await db.query<T>(sql, params);
      return rows[0];
    },
    tx,
    close,
  };
  return db;
}

/**
 * Statements that are parsed and planned once and then only bound and executed: the SQL of this app is fixed text with
 * parameters, so a handful of statements serve every request (docs/decisions/013-logged-in-pages.md). DML only: DDL
 * and session commands (migrations, SET) are run as they come. Bounded: past the limit a new text is not kept.
 */
const PREPARABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;
const MAX_PREPARED = 500;

/** "cached plan must not change result type": a table under a kept `SELECT *` changed its columns. */
const planChanged = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '0A000' && /cached plan/.test(String((err as Error).message));

/**
 * PGlite's own `query` sends six protocol messages one by one (parse, describe, bind, describe, execute, sync) and
 * plans the statement again each time. Here a statement is parsed and described once under a name (its parameter
 * types and row description kept), then each call is one batch: bind, execute, sync. Same locks as `query`
 * (the transaction lock, then the query lock; inside a transaction the query lock only), same parsers and
 * serializers, same errors (the first DatabaseError of the batch, with the query and parameters attached).
 */
async function preparedPglite(lite: PGliteType) {
  const { parse, protocol } = await import('@electric-sql/pglite');
  const ser = protocol.serialize;
  type Kept = { name: string; paramTypes: number[]; fields: messages.BackendMessage | undefined };
  const kept = new Map<string, Kept>();
  let named = 0;
  const batch = (parts: Uint8Array[]) => {
    let size = 0;
    for (const p of parts) size += p.length;
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return lite.execProtocolStream(out, { syncToFs: false });
  };
  const prepare = async (sql: string): Promise<Kept> => {
    const name = `bh_${++named}`;
    const msgs = await batch([ser.parse({ name, text: sql }), ser.describe({ type: 'S', name }), ser.sync()]);
    const k = { name, paramTypes: parse.parseDescribeStatementResults(msgs), fields: msgs.find((m) => m.name === 'rowDescription') };
    kept.set(sql, k);
    return k;
  };
  const forget = async (sql: string) => {
    const k = kept.get(sql);
    if (!k) return;
    kept.delete(sql);
    await batch([ser.close({ type: 'S', name: k.name }), ser.sync()]).catch(() => undefined);
  };
  /** Runs in the query lock. */
  const run = async (sql: string, params: unknown[], inTx: boolean): Promise<Row[]> => {
    await lite._checkReady();
    let k: Kept | undefined;
    let msgs: messages.BackendMessage[];
    try {
      k = kept.get(sql) ?? (await prepare(sql));
      const types = k.paramTypes;
      const values = params.map((v, i) => {
        if (v === null || v === undefined) return null;
        const serialise = lite.serializers[types[i] ?? 0];
        return serialise ? serialise(v) : String(v as string);
      });
      msgs = await batch([ser.bind({ statement: k.name, values }), ser.execute({}), ser.sync()]);
    } catch (err) {
      if (planChanged(err)) await forget(sql);
      throw Object.assign(err as Error, { query: sql, params });
    }
    if (!inTx) await lite.syncToFs();
    return (parse.parseResults(k.fields ? [k.fields, ...msgs] : msgs, lite.parsers)[0]?.rows ?? []) as Row[];
  };
  const usable = (sql: string) => PREPARABLE.test(sql) && (kept.has(sql) || kept.size < MAX_PREPARED);
  return {
    /** Outside a transaction: as `lite.query` does, the transaction lock first. A changed plan is prepared again once. */
    query: async (sql: string, params: unknown[]): Promise<Row[]> => {
      if (!usable(sql)) return (await lite.query<Row>(sql, params)).rows;
      const once = () => lite._runExclusiveTransaction(() => lite._runExclusiveQuery(() => run(sql, params, false)));
      try {
        return await once();
      } catch (err) {
        if (!planChanged(err)) throw err;
        return once();
      }
    },
    /** Inside a transaction (which holds the transaction lock). */
    txQuery:
      (t: Pick<PGliteType, 'query'>) =>
      async (sql: string, params: unknown[]): Promise<Row[]> =>
        usable(sql) ? lite._runExclusiveQuery(() => run(sql, params, true)) : (await t.query<Row>(sql, params)).rows,
  };
}

async function openPglite(dataDir: string | undefined): Promise<Db> {
  const release = dataDir ? holdDir(dataDir) : () => undefined;
  try {
    const { lite } = await openLite(dataDir);
    const db = await wrapLite(lite);
    const close = db.close;
    db.close = () => close().finally(release);
    return db;
  } catch (err) {
    release();
    throw err;
  }
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
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  const lite: PGliteType = await PGlite.create(dataDir, {
    parsers: { [INT8]: parseInt8, [NUMERIC]: (v: string) => v, [DATE]: (v: string) => v },
    ...(dump ? { loadDataDir: dump } : {}),
  });
  return { lite };
}

async function wrapLite(lite: PGliteType): Promise<Db> {
  await lite.exec(`SET TIME ZONE 'UTC'`);
  const prepared = await preparedPglite(lite);
  const make = (runner: (sql: string, params: unknown[]) => Promise<Row[]>, inTx: boolean): Db =>
    wrap(
      'pglite',
      runner,
      inTx ? (fn) => fn(make(runner, true)) : (fn) => lite.transaction((t) => fn(make(prepared.txQuery(t), true))),
      async () => {
        if (!inTx) await lite.close();
      },
    );
  return make(prepared.query, false);
}

/** Connection limits of the PostgreSQL pool (config: DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS). */
export type PoolOptions = {
  /** How long to wait for a new connection before the query fails. */
  connectTimeoutMs?: number;
  /** The server cancels a statement running longer than this (0: no limit). Migrations lift it for themselves. */
  statementTimeoutMs?: number;
  /** Told about a connection the server dropped (a restart, pg_terminate_backend); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
};

/** A dropped connection, of an idle pooled client or of one checked out between two queries: the pool replaces it. */
const connectionLost = (o: PoolOptions) => (err: Error) => o.onConnectionError?.(err);

async function openPostgres(url: string, schema: string | undefined, o: PoolOptions): Promise<Db> {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return parseInt8;
      if (oid === NUMERIC || oid === DATE) return (v: string) => v;
      return pg.types.getTypeParser(oid, format as 'text');
    }) as typeof pg.types.getTypeParser,
  };
  const statementTimeout = o.statementTimeoutMs ?? 30_000;
  // Named statements (docs/decisions/013-logged-in-pages.md): each connection parses and plans one the first time it
  // runs it, then only binds and executes. A changed plan gets a new name (every connection prepares it again).
  const names = new Map<string, string>();
  let named = 0;
  const nameOf = (sql: string) => {
    if (!PREPARABLE.test(sql)) return undefined;
    let name = names.get(sql);
    if (!name && names.size < MAX_PREPARED) names.set(sql, (name = `bh_${++named}`));
    return name;
  };
  const runOn =
    (c: Pick<pg.Pool, 'query'>, inTx: boolean) =>
    async (sql: string, params: unknown[]): Promise<Row[]> => {
      const once = async () => {
        const name = nameOf(sql);
        try {
          return (await c.query<Row>(name ? { name, text: sql, values: params } : { text: sql, values: params })).rows;
        } catch (err) {
          if (name && planChanged(err)) names.delete(sql);
          throw err;
        }
      };
      try {
        return await once();
      } catch (err) {
        if (inTx || !planChanged(err)) throw err;
        return once();
      }
    };
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: 10,
    connectionTimeoutMillis: o.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    // Named, so that an operator (or a test) can tell this app's connections apart in pg_stat_activity.
    application_name: schema ? `bhagya:${schema}` : 'bhagya',
    options: [
      '-c timezone=UTC',
      schema ? `-c search_path=${schema}` : '',
      `-c statement_timeout=${statementTimeout}`,
      // A transaction left open (a bug, a hung request) must not hold its locks for ever.
      `-c idle_in_transaction_session_timeout=${Math.max(statementTimeout, 60_000)}`,
    ]
      .filter(Boolean)
      .join(' '),
  });
  // Without a listener, an idle connection the server drops (restart, pg_terminate_backend) is an unhandled
  // 'error' event that ends the process. The pool has already removed that client; the next query opens a new one.
  const lost = connectionLost(o);
  pool.on('error', lost);
  const make = (runner: (sql: string, params: unknown[]) => Promise<Row[]>, client: pg.PoolClient | null): Db =>
    wrap(
      'postgres',
      runner,
      async (fn) => {
        if (client) return fn(make(runner, client)); // nested: same transaction
        const c = await pool.connect();
        // Checked out, the client has no pool listener: a drop between two statements would be unhandled too.
        // The statement that follows fails instead, the transaction rolls back and release(err) discards the client.
        let broken: Error | undefined;
        const onError = (err: Error) => {
          broken = err;
          lost(err);
        };
        c.on('error', onError);
        try {
          await c.query('BEGIN');
          const result = await fn(make(runOn(c, true), c));
          await c.query('COMMIT');
          return result;
        } catch (err) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          c.off('error', onError);
          c.release(broken);
        }
      },
      async () => {
        if (!client) await pool.end();
      },
    );
  const db = make(runOn(pool, false), null);
  db.stats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 });
  return db;
}

/** DATABASE_URL set: a real PostgreSQL server; unset: embedded PGlite in DATA_DIR/pglite (or in memory for tests). */
export async function openDb(opts: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  inMemory?: boolean;
  schema?: string;
  pool?: PoolOptions;
}): Promise<Db> {
  if (opts.schema && !/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error('schema must be a plain identifier');
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.schema, opts.pool ?? {});
  return opts.inMemory ? openPglite(undefined) : openPglite(pgliteDir(opts.dataDir ?? './data'));
}

/** Postgres unique-violation (23505) with the constraint name, for turning races into clean field errors. */
export function uniqueViolation(err: unknown): string | null {
  if (err && typeof err === 'object' && 'code' in err && (err as { code?: unknown }).code === '23505') {
    const c = (err as { constraint?: unknown }).constraint;
    return typeof c === 'string' ? c : '';
  }
  return null;
}
