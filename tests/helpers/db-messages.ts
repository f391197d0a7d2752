/**
 * The messages the app sends to the embedded database's thread (server/db/pglite-worker.ts), counted by transaction: a
 * transaction holds the one connection from its BEGIN to its end while every other statement waits, so the number of
 * its round trips is a cost tests can hold (docs/decisions/089-purchase-reads-sent-with-the-lock.md, 090).
 */
import { Worker } from 'node:worker_threads';
import { jest } from '@jest/globals';

type Sent = { op: string; tx?: number; sql?: string; params?: unknown[]; name?: string; args?: unknown };

/**
 * While `work` runs, the clock the batches read stands still: what is asked in one turn goes in one message, however
 * long the test's machine takes over the turn. A batch is otherwise sent early once its first item has waited a slice
 * of time (docs/decisions/101-batches-sent-in-slices.md, held by tests/unit/batch.test.ts), and a test process that
 * loses its core between two statements of a turn would count two messages where the code asked for one.
 */
export async function withClockStill<T>(work: () => Promise<T>): Promise<T> {
  const clock = jest.spyOn(performance, 'now').mockReturnValue(0);
  try {
    return await work();
  } finally {
    clock.mockRestore();
  }
}

/** What `work` sent to the database's thread, message by message (the clock still: `withClockStill`). */
export async function messagesOf(work: () => Promise<unknown>): Promise<Sent[][]> {
  const sent = jest.spyOn(Worker.prototype, 'postMessage');
  try {
    await withClockStill(work);
    return sent.mock.calls.map(([batch]) => batch as Sent[]);
  } finally {
    sent.mockRestore();
  }
}

/**
 * The transactions that began by locking with `param` (a `FOR UPDATE` or `FOR SHARE` statement whose first parameter
 * it is), in the order they began, each as its messages' operations: `['begin + query + query', 'last']`.
 */
export const transactionsLocking = (batches: Sent[][], param: unknown): string[][] =>
  transactionsWith(batches, (r) => /FOR (UPDATE|SHARE)/.test(r.sql ?? '') && r.params?.[0] === param);

/** The transactions with a statement that `asked` picks, in the order they began, each as its messages' operations. */
export function transactionsWith(batches: Sent[][], asked: (r: Sent) => boolean): string[][] {
  const ids = [...new Set(batches.flat().flatMap((r) => (r.op === 'query' && asked(r) ? [r.tx] : [])))];
  return ids.map((id) =>
    batches
      .map((b) =>
        b
          .filter((r) => r.tx === id)
          .map((r) => r.op)
          .join(' + '),
      )
      .filter(Boolean),
  );
}

/** The arguments of each procedure `name` the app asked the thread to run (Db.run), in the order asked. */
export const runsOf = (batches: Sent[][], name: string): unknown[] =>
  batches.flat().flatMap((r) => (r.op === 'run' && r.name === name ? [r.args] : []));
