/**
 * Statements outside a transaction on one pipelined PostgreSQL connection per pool
 * (docs/decisions/091-statements-pipelined-on-one-connection.md).
 *
 * Through the pool, every statement took a connection of its own for its round trip: a page's session check and its
 * read went to two backends, each woken for its one statement onto a core the app's workers keep busy, and each
 * statement paid the pool's checkout and return. On the pipe, node-postgres's pipeline mode sends each statement as
 * soon as it is asked for, without waiting for the answers before it, each with its own Sync (so each is its own
 * implicit transaction, and one that fails fails alone); one backend answers them in order.
 *
 * The pipe is only a faster road for what the pool would run anyway. A statement goes to the pool instead when the pipe
 * is not connected (it connects in the background, at most once a second after a failure), when `maxInFlight`
 * statements already wait on it, or when the oldest of them has waited longer than `stallMs`: one slow statement (a
 * staff search) holds up at most the few sent behind it before it was seen to be slow, not every page after it.
 */
import pg from 'pg';
import { SLICE_MS } from './batch.ts';

export type PipeOptions = {
  /** The connection's settings: the pool's own. */
  config: pg.ClientConfig;
  /** Told about a connection the server dropped; the next statement goes to the pool while a new one connects. */
  onLost: (err: Error) => void;
  /** A statement waiting this long makes the pipe busy: the next go to the pool until it is answered. */
  stallMs?: number;
  /** Statements unanswered on the pipe at most; beyond them, the pool. */
  maxInFlight?: number;
};

/** One pipelined connection: `query` answers a statement's result, or undefined when the pool should run it. */
export type Pipe = {
  query: (q: pg.QueryConfig) => Promise<pg.QueryResult> | undefined;
  /** Whether its connection is open now (counted in the pool's statistics). */
  connected: () => boolean;
  close: () => Promise<void>;
};

/** The sockets corked for the rest of this turn of the event loop, and when each was corked. */
const corked = new WeakMap<pg.Connection['stream'], number>();

/**
 * What a pipelined connection is asked in this turn of the event loop goes to PostgreSQL as one write, at its end
 * (docs/decisions/096-one-write-per-turn.md). node-postgres writes each statement as soon as it is asked, one system call
 * each; on loopback a write also wakes the backend, and a purchase's six writes were a quarter of its worker's CPU. Its
 * socket is corked at the first statement of a turn and uncorked when the turn's I/O is done (`setImmediate`), as the
 * embedded database's messages are batched (server/db/batch.ts). As there, a turn that runs long sends what it was
 * asked once the first of it has waited `SLICE_MS`, and corks again for the rest
 * (docs/decisions/101-batches-sent-in-slices.md).
 */
export function oneWritePerTurn(c: pg.Client): void {
  const stream = c.connection.stream;
  const since = corked.get(stream);
  if (since === undefined) {
    corked.set(stream, performance.now());
    stream.cork();
    setImmediate(() => {
      corked.delete(stream);
      stream.uncork();
    });
    return;
  }
  const now = performance.now();
  if (now - since < SLICE_MS) return;
  stream.uncork();
  stream.cork();
  corked.set(stream, now);
}

export const PIPE_STALL_MS = 50;
export const PIPE_MAX_IN_FLIGHT = 32;
/** After a failed connection, the pipe tries again no sooner than this. */
const RETRY_MS = 1_000;

export function openPipe(o: PipeOptions): Pipe {
  const stallMs = o.stallMs ?? PIPE_STALL_MS;
  const maxInFlight = o.maxInFlight ?? PIPE_MAX_IN_FLIGHT;
  let client: pg.Client | null = null;
  let connecting = false;
  let closed = false;
  let retryAt = 0;
  /** When each unanswered statement was sent, oldest first: the pipe answers in the order it was asked. */
  const sentAt: number[] = [];

  const connect = () => {
    if (connecting || closed || Date.now() < retryAt) return;
    connecting = true;
    const c = new pg.Client({ ...o.config, pipeline: true });
    // Only the connection in use: a replaced one ending late must not empty its successor's list.
    const gone = () => {
      if (client !== c) return;
      client = null;
      sentAt.length = 0;
    };
    c.on('error', (err) => {
      gone();
      o.onLost(err);
    });
    c.on('end', gone);
    c.connect().then(
      () => {
        connecting = false;
        if (closed) void c.end().catch(() => undefined);
        else client = c;
      },
      () => {
        connecting = false;
        retryAt = Date.now() + RETRY_MS;
      },
    );
  };

  return {
    query(q) {
      const c = client;
      if (!c) {
        connect();
        return undefined;
      }
      const now = performance.now();
      const oldest = sentAt[0];
      if (sentAt.length >= maxInFlight || (oldest !== undefined && now - oldest > stallMs)) return undefined;
      sentAt.push(now);
      const answered = () => {
        if (client === c) sentAt.shift();
      };
      oneWritePerTurn(c);
      const result = c.query(q);
      result.then(answered, answered);
      return result;
    },
    connected: () => client !== null,
    async close() {
      closed = true;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
