/**
 * The embedded database on a thread of its own (docs/decisions/071-embedded-database-thread.md). PGlite runs inside
 * the thread that calls it; in the app's event loop its statements took the core that renders the pages. Here one
 * worker thread per process (server/db/pglite-worker.ts) holds every embedded database the process opens, and each
 * call is a message: a statement (outside a transaction or in one), begin, end, a transaction's last statement with its
 * end, open, close. The rows come back as they are (structured clone), already normalised by the thread.
 *
 * The folder's lock stays with this process (holdDir, in server/db/pglite.ts). When the thread dies (a crash in the
 * database's WebAssembly, the memory it may use exhausted), the statements waiting and the transactions open fail with
 * an error the API answers 503 (server/db/unavailable.ts), as when PostgreSQL goes away, and a database in a folder is
 * opened again in a new thread (PGlite recovers it from its write-ahead log as PostgreSQL would); until then every
 * statement fails the same way and the readiness probe says not ready. An in-memory database is gone with its thread.
 */
import { Worker } from 'node:worker_threads';
import { batched } from './batch.ts';
import { TxState, wrap, type Db, type Row, type Runner } from './types.ts';
import { fromWire, type WireError } from './wire-error.ts';

export type Request =
  | { id: number; op: 'open'; dir: string | null }
  | { id: number; op: 'query'; db: number; tx: number; sql: string; params: unknown[] }
  | { id: number; op: 'begin'; db: number; tx: number }
  | { id: number; op: 'end'; db: number; tx: number; commit: boolean }
  | { id: number; op: 'last'; db: number; tx: number; sql: string; params: unknown[] }
  | { id: number; op: 'run'; db: number; name: string; args: unknown }
  | { id: number; op: 'close'; db: number };
/** A request without its id (the link numbers it). */
type Ask = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** What the embedded database's thread tells the app about itself (logged there). */
export type ThreadEvent =
  | { event: 'stopped'; error: string }
  | { event: 'reopened'; afterMs: number }
  | { event: 'reopen_failed'; error: string; retryInMs: number };

/** PostgreSQL's "terminating connection due to administrator command": a database the API answers 503 for. */
const GONE = '57P01';
/** PostgreSQL's "the database system is starting up". */
const STARTING = '57P03';

const sqlError = (message: string, code: string) => Object.assign(new Error(message), { code });

/** A worker thread and the requests it has not answered. */
type Link = {
  worker: Worker;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
  seq: number;
  /** The databases open on it: when the last closes, the thread ends. */
  users: Set<Handle>;
  /** Set once the thread has stopped: every request fails with it. */
  dead?: Error;
  /**
   * Keeps the process alive while a request waits, as a socket to PostgreSQL would, where an idle thread does not: a
   * timer's ref is a counter, where the thread's own ref and unref on every statement cost a tenth of its round trip.
   */
  keepAlive: NodeJS.Timeout;
  /** Sends a request with the others of this turn of the event loop. */
  send: (r: Request) => void;
};

/** One database opened through the thread: where it is now, and whether it can be opened again. */
type Handle = {
  dir: string | null;
  link: Link | null;
  id: number;
  closed: boolean;
  onEvent: (e: ThreadEvent) => void;
};

let current: Link | undefined;
let txSeq = 0;
/**
 * The thread being ended, if one is: a new thread starts only once it has ended. A thread that set up PGlite's
 * WebAssembly while another's was being torn down once ended a test process in a fatal V8 check (decision 071).
 */
let ending: Promise<unknown> = Promise.resolve();

/** Ends a link's thread: no new database goes to it, and the next thread waits for it (`ending`). */
function terminate(link: Link): Promise<unknown> {
  if (current === link) current = undefined;
  const ended = link.worker.terminate().catch(() => undefined);
  ending = Promise.all([ending, ended]);
  return ended;
}

/**
 * From the sources (tsx, Jest, Node's type stripping) the thread's file is the .ts beside this one; in the built server
 * every chunk is in dist/server, beside pglite-worker.js (scripts/build-config.ts).
 */
const workerFile = () => new URL(import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);

function startLink(): Link {
  const worker = new Worker(workerFile(), { name: 'embedded-database' });
  const keepAlive = setInterval(() => undefined, 1 << 30).unref();
  const send = batched<Request>((batch) => {
    if (!link.dead) worker.postMessage(batch);
  });
  const link: Link = { worker, pending: new Map(), seq: 0, users: new Set(), keepAlive, send };
  worker.unref();
  worker.on('message', (replies: Reply[]) => {
    for (const r of replies) {
      const p = link.pending.get(r.id);
      if (!p) continue;
      link.pending.delete(r.id);
      if (r.ok) p.resolve(r.value);
      else p.reject(fromWire(r.error));
    }
    if (link.pending.size === 0) keepAlive.unref();
  });
  let error: Error | undefined;
  worker.on('error', (err) => (error = err));
  worker.on('exit', (code) => {
    const dead = sqlError(`the embedded database stopped (${error?.message ?? `its thread exited with code ${code}`})`, GONE);
    link.dead = dead;
    clearInterval(keepAlive);
    if (current === link) current = undefined;
    for (const p of link.pending.values()) p.reject(dead);
    link.pending.clear();
    for (const h of link.users) lost(h, dead);
  });
  return link;
}

function call(link: Link, ask: Ask): Promise<unknown> {
  if (link.dead) return Promise.reject(link.dead);
  const id = ++link.seq;
  if (link.pending.size === 0) link.keepAlive.ref();
  return new Promise((resolve, reject) => {
    link.pending.set(id, { resolve, reject });
    link.send({ ...ask, id } as Request);
  });
}

async function attach(h: Handle): Promise<void> {
  if (!current) await ending;
  const link = (current ??= startLink());
  link.users.add(h);
  try {
    h.id = (await call(link, { op: 'open', dir: h.dir })) as number;
    h.link = link;
  } catch (err) {
    link.users.delete(h);
    if (link.users.size === 0) void terminate(link);
    throw err;
  }
}

/** Its thread died: opened again in a new one when it has a folder, with a growing pause after each failure. */
function lost(h: Handle, dead: Error): void {
  h.link = null;
  if (h.closed) return;
  h.onEvent({ event: 'stopped', error: dead.message });
  if (h.dir === null) return;
  const since = Date.now();
  const retry = (pauseMs: number) =>
    setTimeout(() => {
      if (h.closed) return;
      attach(h).then(
        () => h.onEvent({ event: 'reopened', afterMs: Date.now() - since }),
        (err: unknown) => {
          const next = Math.min(pauseMs * 2, 30_000);
          h.onEvent({ event: 'reopen_failed', error: err instanceof Error ? err.message : String(err), retryInMs: next });
          retry(next);
        },
      );
    }, pauseMs).unref();
  retry(100);
}

/** Where a request goes now; while the database is being opened again, the error a PostgreSQL starting up gives. */
function linkOf(h: Handle): Link {
  if (h.closed) throw new Error('the embedded database is closed');
  if (h.link) return h.link;
  throw h.dir === null
    ? sqlError('the in-memory embedded database is gone with its thread', GONE)
    : sqlError('the embedded database is being opened again', STARTING);
}

/** Opens an embedded database (in `dir`, or in memory) on the process's database thread. */
export async function openPgliteThread(dir: string | undefined, onEvent: (e: ThreadEvent) => void = () => undefined): Promise<Db> {
  const h: Handle = { dir: dir ?? null, link: null, id: 0, closed: false, onEvent };
  await attach(h);
  // Rows come from the thread as the data layer gives them (it normalised them).
  const runOn =
    (link: () => Link, tx: number): Runner =>
    (sql, params) =>
      call(link(), { op: 'query', db: h.id, tx, sql, params }) as Promise<Row[]>;
  const inTx = (link: Link, tx: number, state: TxState): Db => {
    const t: Db = wrap(
      'pglite',
      state.guard(runOn(() => link, tx)),
      (fn) => fn(t), // nested: the same transaction
      async () => undefined,
      // The last statement and the end in one message: the thread commits as soon as the statement has run, or rolls
      // back when it failed (docs/decisions/095-last-statement-with-its-commit.md).
      state.last((sql, params) => call(link, { op: 'last', db: h.id, tx, sql, params }) as Promise<Row[]>),
    );
    return t;
  };
  const db = wrap(
    'pglite',
    runOn(() => linkOf(h), 0),
    async (fn) => {
      const link = linkOf(h);
      const tx = ++txSeq;
      // BEGIN is not waited for: it goes in one message with the transaction's first statement, which the thread runs
      // once BEGIN has (docs/decisions/083-begin-with-the-first-statement.md). One round trip less per transaction,
      // and the database, which a transaction holds from its BEGIN, is not held while the answer to BEGIN travels.
      const began = call(link, { op: 'begin', db: h.id, tx });
      began.catch(() => undefined); // answered below, after the function
      const state = new TxState();
      let result;
      try {
        result = await fn(inTx(link, tx, state));
        state.over();
        await began;
      } catch (err) {
        // Nothing asked late by the function's work is sent after its end.
        state.over();
        // A transaction whose BEGIN failed was never open: its statements failed with BEGIN's error, and so does it.
        const begin = await began.then(
          () => ({ open: true as const }),
          (error: unknown) => ({ open: false as const, error }),
        );
        if (!begin.open) throw begin.error;
        // Ended by its last statement: the thread committed it, or rolled it back when that failed.
        if (state.ended) await state.ended;
        else await call(link, { op: 'end', db: h.id, tx, commit: false }).catch(() => undefined);
        throw err;
      }
      if (state.ended) await state.ended;
      else await call(link, { op: 'end', db: h.id, tx, commit: true });
      return result;
    },
    async () => {
      if (h.closed) return;
      h.closed = true;
      const link = h.link;
      h.link = null;
      if (!link) return;
      try {
        await call(link, { op: 'close', db: h.id });
      } finally {
        link.users.delete(h);
        if (link.users.size === 0) await terminate(link);
      }
    },
  );
  // A procedure runs on the thread, in a transaction of its own there: one message each way, and the database held
  // only while its statements run (docs/decisions/099-writes-run-on-the-database-thread.md).
  db.run = (p, args) => call(linkOf(h), { op: 'run', db: h.id, name: p.name, args }) as Promise<Awaited<ReturnType<typeof p.run>>>;
  return db;
}

/**
 * Ends the thread of the database at once, as a crash would (for the tests of what follows one): its statements and
 * transactions fail and it is opened again.
 */
export async function crashThread(): Promise<void> {
  if (current) await terminate(current);
}
