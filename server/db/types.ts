/** What both databases share: the data-access interface, the row normalisation, the statement-naming rules. */

export type Row = Record<string, unknown>;

/** The one data-access interface: the same SQL (PostgreSQL dialect) on PGlite and on a real server. */
export interface Db {
  readonly kind: 'pglite' | 'postgres';
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  one<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs fn in one transaction; a thrown error rolls it back. */
  tx<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * A transaction's last statement, sent with its COMMIT: the transaction ends as soon as the statement has run, not a
   * round trip later, and the locks it holds go with it (docs/decisions/095-last-statement-with-its-commit.md).
   * Its rows when both succeed; when it fails, nothing of the transaction is kept and its error is thrown. Nothing may be
   * asked of the transaction after it (refused: `TX_ENDED`). Outside a transaction: the statement alone.
   */
  commitWith<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Runs a procedure (its function and its arguments) in one transaction where the database is: on the embedded
   * database's thread, so that its statements follow each other there and the database is held for them only, not
   * while the app's thread is busy with pages between them; elsewhere as `tx` (docs/decisions/099-writes-run-on-the-database-thread.md).
   * In a transaction: in that transaction.
   */
  run<A, R>(p: Procedure<A, R>, args: A): Promise<R>;
  close(): Promise<void>;
  /** The connection pool's state (PostgreSQL only; the embedded database has one connection). */
  stats?: () => PoolStats;
}

/**
 * A transaction's whole work under a name, so that the embedded database's thread can run it (Db.run): its function
 * takes the transaction and plain data, and gives back plain data (both cross between threads as structured clones:
 * no Date, class or function; a thrown refusal crosses as itself, a database error with its code and fields). It must
 * be listed in server/procedures.ts, where the thread finds it by name, and must use nothing of the app's thread
 * (its clients, its logger, its caches): only the transaction and its arguments.
 */
export type Procedure<A, R> = { readonly name: string; readonly run: (tx: Db, args: A) => Promise<R> };

/** A procedure: `name` must be unique (server/procedures.ts checks it). */
export const procedure = <A, R>(name: string, run: (tx: Db, args: A) => Promise<R>): Procedure<A, R> => ({ name, run });

/** Connections open, idle and at most, and queries waiting for a connection. */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

export const INT8 = 20;
export const NUMERIC = 1700;
/** A calendar day (a date of birth): kept as its text `YYYY-MM-DD`, never a Date at some hour of some time zone. */
export const DATE = 1082;

export const TIMESTAMPTZ = 1184;

/** A column's text as a driver gives it to the data layer. */
export type TextParser = (v: string) => unknown;

/**
 * The parsers both drivers share (server/db/pglite.ts, server/db/index.ts), each over the driver's own parser of the
 * type (`own`): int8 checked into a number, numeric and date kept as their text, and a `timestamptz` read straight
 * as its ISO string (isoOfTimestamptz), the driver's own parser taking what that does not read.
 */
export function sharedParsers(own: (oid: number) => TextParser): Record<number, TextParser> {
  const ownTimestamptz = own(TIMESTAMPTZ);
  const keepText = (v: string) => v;
  return {
    [INT8]: parseInt8,
    [NUMERIC]: keepText,
    [DATE]: keepText,
    [TIMESTAMPTZ]: (v) => isoOfTimestamptz(v) ?? ownTimestamptz(v),
  };
}

/**
 * A `timestamptz` as PostgreSQL writes it in the UTC session both drivers run (`2026-11-30 03:39:11.123456+00`), as
 * the ISO-8601 string the data layer gives (`2026-11-30T03:39:11.123Z`): the microseconds cut to milliseconds, as the
 * drivers' Dates cut them. Read straight from the text, without a Date made and formatted again (normaliseRow), which
 * cost the embedded database's thread a tenth of its time reading My Lotteries (bench/RESULTS.md, issue 32).
 * Undefined for anything else (another offset, a year before 1000, infinity): the driver's own parser reads it.
 */
export function isoOfTimestamptz(v: string): string | undefined {
  const m = TIMESTAMPTZ_TEXT.exec(v);
  return m ? `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z` : undefined;
}
const TIMESTAMPTZ_TEXT = /^([1-9]\d{3}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/** int8 holds money and ids; beyond 2^53 a JS number would silently lose digits, so refuse. */
export function parseInt8(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${v} is outside the safe integer range`);
  return n;
}

/** What runs one statement and gives its rows. */
export type Runner = (sql: string, params: unknown[]) => Promise<Row[]>;

/** Dates leave the data layer as ISO-8601 UTC strings, so rows are JSON as they are. */
function normaliseRow(row: Row): Row {
  for (const k in row) {
    const v = row[k];
    if (v instanceof Date) row[k] = v.toISOString();
  }
  return row;
}

/** A driver's runner whose rows leave with their dates as ISO strings (the drivers give Date objects). */
export const normalising =
  (run: Runner): Runner =>
  async (sql, params) =>
    (await run(sql, params)).map(normaliseRow);

/**
 * A Db from the runner of its statements (rows as the data layer gives them), its transaction and its close; `last`
 * runs a transaction's last statement with its commit (Db.commitWith), the statement alone unless told.
 */
export function wrap(kind: Db['kind'], run: Runner, tx: Db['tx'], close: () => Promise<void>, last: Runner = run): Db {
  const db: Db = {
    kind,
    query: async <T extends Row>(sql: string, params: readonly unknown[] = []) => (await run(sql, [...params])) as T[],
    // Through db.query: what watches the statements (a test's spy) sees every one.
    one: async <T extends Row>(sql: string, params: readonly unknown[] = []) => (await db.query<T>(sql, params))[0],
    tx,
    commitWith: async <T extends Row>(sql: string, params: readonly unknown[] = []) => (await last(sql, [...params])) as T[],
    // In this process: the procedure's function in a transaction (in a transaction, in that one).
    run: (p, args) => db.tx((t) => p.run(t, args)),
    close,
  };
  return db;
}

/**
 * The transaction `tx` as a query function's handle for its last statement: the one statement asked of it runs with the
 * transaction's COMMIT (Db.commitWith). `q.setTrxId(committing(tx), …)` makes that update the transaction's last; a
 * function that asked for a second statement would be refused (TX_ENDED), never run outside the transaction.
 */
export const committing = (tx: Db): Db => {
  const last: Runner = (sql, params) => tx.commitWith(sql, params);
  return wrap(tx.kind, last, tx.tx, tx.close, last);
};

/** What a transaction that has ended (TxState) answers when asked for anything more. */
export const TX_ENDED = 'the transaction has ended (its last statement, its commit or its rollback): nothing more may be asked of it';

/**
 * A transaction's state as its Db sees it: open until its last statement is sent (Db.commitWith) or its function has
 * returned or thrown (`over`), after which every statement is refused (TX_ENDED), never run outside it. A statement asked
 * late by work the function began without waiting for it (a chain of `Promise.all` whose sibling failed) would otherwise
 * reach the connection after its COMMIT or ROLLBACK, or once it serves another transaction
 * (docs/decisions/097-writes-asked-together.md). `ended` is the promise of the last statement with its commit.
 */
export class TxState {
  ended: Promise<unknown> | undefined;
  private done = false;
  /** The transaction's function has returned or thrown: its end is on its way, and nothing more is asked of it. */
  over(): void {
    this.done = true;
  }
  private refused(): boolean {
    return this.done || this.ended !== undefined;
  }
  /** The runner, refusing once the transaction has ended. */
  guard(run: Runner): Runner {
    return (sql, params) => (this.refused() ? Promise.reject(new Error(TX_ENDED)) : run(sql, params));
  }
  /** Sends the last statement (and its commit) with `send`, once; the transaction is ended from then on. */
  last(send: Runner): Runner {
    return (sql, params) => {
      if (this.refused()) return Promise.reject(new Error(TX_ENDED));
      const rows = send(sql, params);
      this.ended = rows.catch(() => undefined);
      return rows;
    };
  }
}

/**
 * Statements that are parsed and planned once and then only bound and executed: the SQL of this app is fixed text with
 * parameters, so a handful of statements serve every request (docs/decisions/013-logged-in-pages.md). DML only: DDL
 * and session commands (migrations, SET) are run as they come. Bounded: past the limit a new text is not kept.
 */
export const PREPARABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;
export const MAX_PREPARED = 500;

/** "cached plan must not change result type": a table under a kept `SELECT *` changed its columns. */
export const planChanged = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '0A000' && /cached plan/.test(String((err as Error).message));
