import pg from 'pg';
import { openPgliteThread, type ThreadEvent } from './pglite-thread.ts';
import { oneWritePerTurn, openPipe } from './pipe.ts';
import { holdDir, pgliteDir } from './pglite.ts';
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
  type Runner,
} from './types.ts';

export type { Db, PoolStats, Row } from './types.ts';
export { committing, procedure } from './types.ts';
export type { Procedure } from './types.ts';
export type { ThreadEvent } from './pglite-thread.ts';
export { dumpPglite, holdDir, loadPglite, pgliteDir } from './pglite.ts';

/** Connection limits of the PostgreSQL pool (config: DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DATABASE_POOL_MAX). */
export type PoolOptions = {
  /** How long to wait for a new connection before the query fails. */
  connectTimeoutMs?: number;
  /** Connections at most (10 unless told: config's poolMax). */
  max?: number;
  /** The server cancels a statement running longer than this (0: no limit). Migrations lift it for themselves. */
  statementTimeoutMs?: number;
  /** Told about a connection the server dropped (a restart, pg_terminate_backend); the pool replaces it. */
  onConnectionError?: (err: Error) => void;
};

/** What statements are asked of: the pipe or the pool, or a transaction's connection. */
type Asked = Pick<pg.Pool, 'query'>;

/** A dropped connection, of an idle pooled client or of one checked out between two queries: the pool replaces it. */
const connectionLost = (o: PoolOptions) => (err: Error) => o.onConnectionError?.(err);

async function openPostgres(url: string, schema: string | undefined, o: PoolOptions): Promise<Db> {
  const shared = sharedParsers((oid) => pg.types.getTypeParser(oid, 'text'));
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      shared[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
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
    (c: Asked, inTx: boolean) =>
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
  // The pipe is one of the connections the pool may open (DATABASE_POOL_MAX): the pool keeps the others.
  const poolMax = Math.max(1, (o.max ?? 10) - 1);
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    types,
    connectionTimeoutMillis: o.connectTimeoutMs ?? 5_000,
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
  };
  // Pipelined (docs/decisions/093-writes-hold-the-lottery-for-less.md): the statements a transaction asks
  // for at once are written at once and answered in order, one round trip instead of one each.
  const pool = new pg.Pool({ ...clientConfig, pipeline: true, max: poolMax, idleTimeoutMillis: 30_000 });
  // Without a listener, an idle connection the server drops (restart, pg_terminate_backend) is an unhandled
  // 'error' event that ends the process. The pool has already removed that client; the next query opens a new one.
  const lost = connectionLost(o);
  pool.on('error', lost);
  // Statements outside a transaction go on the pipe while it keeps up, else through the pool (server/db/pipe.ts).
  const pipe = openPipe({ config: clientConfig, onLost: lost });
  /**
   * A transaction's last statement and its COMMIT, written together on its pipelined connection: the server runs the
   * COMMIT as soon as the statement has run, and answers it with ROLLBACK when the statement failed
   * (docs/decisions/095-last-statement-with-its-commit.md).
   */
  const lastOn =
    (c: Asked): Runner =>
    async (sql, params) => {
      const rows = runOn(c, true)(sql, params); // asked now: runOn asks the client before its first await
      const commit = c.query('COMMIT');
      const [ran, ended] = await Promise.allSettled([rows, commit]);
      if (ran.status === 'rejected') throw ran.reason;
      if (ended.status === 'rejected') throw ended.reason;
      if (ended.value.command !== 'COMMIT') throw new Error(`the transaction ended with ${ended.value.command}, not COMMIT`);
      return ran.value;
    };
  /** The Db of a transaction open on c: its statements, its last with the commit, nested transactions the same. */
  const inTx = (c: Asked, state: TxState): Db => {
    const t: Db = wrap(
      'postgres',
      normalising(state.guard(runOn(c, true))),
      (fn) => fn(t),
      async () => undefined,
      normalising(state.last(lastOn(c))),
    );
    return t;
  };
  const transaction: Db['tx'] = async (fn) => {
    const c = await pool.connect();
    // Checked out, the client has no pool listener: a drop between two statements would be unhandled too.
    // The statement that follows fails instead, the transaction rolls back and release(err) discards the client.
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
      lost(err);
    };
    c.on('error', onError);
    const state = new TxState();
    // What the transaction asks for in one turn of the event loop is one write (oneWritePerTurn).
    const asked = { query: (q: pg.QueryConfig | string) => (oneWritePerTurn(c), c.query(q)) } as Asked;
    try {
      // BEGIN is answered before any statement of the transaction is written: one that ran outside it, because
      // BEGIN alone failed, could commit by itself.
      await asked.query('BEGIN');
      const result = await fn(inTx(asked, state));
      state.over();
      // Ended by its last statement (commitWith): committed, or rolled back when that failed, by the server.
      if (state.ended) await state.ended;
      else await asked.query('COMMIT');
      return result;
    } catch (err) {
      // Nothing asked late by the function's work reaches the connection after its ROLLBACK or its release.
      state.over();
      if (state.ended) await state.ended;
      else await asked.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.off('error', onError);
      c.release(broken);
    }
  };
  const piped = { query: (q: pg.QueryConfig) => pipe.query(q) ?? pool.query(q) } as Asked;
  const db = wrap('postgres', normalising(runOn(piped, false)), transaction, async () => {
    await pipe.close();
    await pool.end();
  });
  db.stats = () => {
    const open = pipe.connected() ? 1 : 0;
    return { total: pool.totalCount + open, idle: pool.idleCount, waiting: pool.waitingCount, max: poolMax + 1 };
  };
  return db;
}

/**
 * DATABASE_URL set: a real PostgreSQL server; unset: embedded PGlite in DATA_DIR/pglite (or in memory for tests), on
 * a thread of its own (server/db/pglite-thread.ts), its folder held by this process (holdDir).
 */
export async function openDb(opts: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  inMemory?: boolean;
  schema?: string;
  pool?: PoolOptions;
  /** Told when the embedded database's thread stops and when the database is open again. */
  onThreadEvent?: (e: ThreadEvent) => void;
}): Promise<Db> {
  if (opts.schema && !/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error('schema must be a plain identifier');
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.schema, opts.pool ?? {});
  if (opts.inMemory) return openPgliteThread(undefined, opts.onThreadEvent);
  const dir = pgliteDir(opts.dataDir ?? './data');
  const release = holdDir(dir);
  try {
    const db = await openPgliteThread(dir, opts.onThreadEvent);
    const close = db.close;
    db.close = () => close().finally(release);
    return db;
  } catch (err) {
    release();
    throw err;
  }
}

/** Postgres unique-violation (23505) with the constraint name, for turning races into clean field errors. */
export function uniqueViolation(err: unknown): string | null {
  if (err && typeof err === 'object' && 'code' in err && (err as { code?: unknown }).code === '23505') {
    const c = (err as { constraint?: unknown }).constraint;
    return typeof c === 'string' ? c : '';
  }
  return null;
}
