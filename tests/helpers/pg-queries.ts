/**
 * The statements node-postgres is asked for while `work` runs, on any of its clients (the pipe's, the pool's): how they
 * reach PostgreSQL is what tests of the pipe and of transactions hold (docs/decisions/091, 093).
 */
import { jest } from '@jest/globals';
import pg from 'pg';

/** One statement as it was asked for: whether its client was running one already, and in pipeline mode; its answer. */
export type Asked = { sql: string; busy: boolean; pipelined: boolean; answer: unknown };

/** Runs `work`, telling `seen` of every statement asked for meanwhile, in the order they were asked. */
export async function queriesOf<T>(seen: (q: Asked) => void, work: () => PromiseLike<T>): Promise<T> {
  const query = pg.Client.prototype.query;
  const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    // node-postgres's own state, read before the statement is handed over: a client running one is not ready.
    const c = this as unknown as { readyForQuery: boolean; pipeline: boolean };
    const busy = !c.readyForQuery;
    const q = args[0] as string | { text: string };
    const answer = (query as (...a: unknown[]) => unknown).apply(this, args);
    seen({ sql: typeof q === 'string' ? q : q.text, busy, pipelined: c.pipeline, answer });
    return answer as never;
  });
  try {
    return await work();
  } finally {
    spy.mockRestore();
  }
}
