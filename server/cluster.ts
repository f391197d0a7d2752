/**
 * Every core of the machine (docs/decisions/072-one-worker-per-core.md, docs/rules/operations.md#6-several-instances):
 * with PostgreSQL the process started (`npm start`, the container) is a primary that forks WEB_CONCURRENCY workers, one
 * per core unless set, each a whole app with its own pool on the one port: the first alone (it migrates the database;
 * a failed start is then said once), the others once it listens. The primary serves nothing itself:
 * - a worker that stops is logged and replaced (after 1 s when it lived less than 10 s); one that stops before it ever
 *   listened is a failed start: the primary stops the others and exits with its code, as a single process would;
 * - SIGTERM or SIGINT goes to every worker, which drains as one process does (docs/rules/operations.md#4-stopping);
 *   the primary leaves when the last has, with 0 when all stopped cleanly;
 * - /metrics, asked of any worker, is every worker's registry merged by prom-client's aggregator: counters and
 *   histograms summed, each gauge as its metric says (the business figures, the same read on every worker, once), with
 *   the primary's own count of workers and of replacements.
 * A worker whose primary is gone (killed) stops at once: nothing may run without the process that owns the port.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import type { Logger } from './log.ts';

/** A worker lived less than this: its replacement waits RESTART_PAUSE_MS, so that a crash loop does not spin. */
const SHORT_LIFE_MS = 10_000;
const RESTART_PAUSE_MS = 1_000;
/** How long a worker waits for the merged metrics before it answers without them. */
const METRICS_WAIT_MS = 3_000;

type AskMetrics = { bhagya: 'metrics?'; id: number };
type CollectMetrics = { bhagya: 'collect'; id: number };
type Collected = { bhagya: 'collected'; id: number; metrics: object };
type Merged = { bhagya: 'metrics'; id: number; text: string | null };
type Message = AskMetrics | CollectMetrics | Collected | Merged;
const ours = (m: unknown): m is Message => typeof m === 'object' && m !== null && 'bhagya' in m;

/**
 * The primary: forks `count` workers and looks after them. `drainMs` + 20 s after a stop signal, a worker still running
 * is killed and the primary exits 1.
 */
export function runPrimary(count: number, log: Logger, drainMs: number): void {
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
  const listened = new Set<number>();
  const registry = new Registry();
  new Gauge({
    name: 'bhagya_workers',
    help: 'Worker processes serving now',
    registers: [registry],
    collect() {
      this.set(alive().filter((w) => listened.has(w.id)).length);
    },
  });
  const replaced = new Counter({
    name: 'bhagya_worker_restarts_total',
    help: 'Worker processes that stopped unasked and were replaced',
    registers: [registry],
  });
  const born = new Map<number, number>();
  let stopping = false;
  /** The exit code of a worker that failed to start: the primary's own once the others have stopped. */
  let failedWith: number | null = null;
  let announced = false;

  const fork = () => born.set(cluster.fork().id, Date.now());

  cluster.on('listening', (w, address) => {
    listened.add(w.id);
    // The first one has migrated the database and listens: the others start now.
    if (listened.size === 1) for (let i = 1; i < count; i++) fork();
    if (announced || listened.size < count) return;
    announced = true;
    log.info({ workers: count, port: address.port }, 'every worker is listening');
    // The line an operator and the tests read, once for the whole process.
    console.log(`\n  Bhagya is running at http://localhost:${address.port} (${count} workers)`);
  });
  cluster.on('exit', (w, code, signal) => {
    if (stopping || failedWith !== null) {
      if (alive().length === 0) process.exit(failedWith ?? 0);
      return;
    }
    if (!listened.has(w.id)) {
      // It never served: a start-up failure (its own stderr line says why). Stop the rest and fail as one process does.
      failedWith = code || 1;
      log.error({ worker: w.id, code, signal }, 'a worker failed to start: stopping');
      for (const other of alive()) other.process.kill('SIGTERM');
      if (alive().length === 0) process.exit(failedWith);
      return;
    }
    replaced.inc();
    const lived = Date.now() - (born.get(w.id) ?? 0);
    log.error({ worker: w.id, pid: w.process.pid, code, signal, livedMs: lived }, 'a worker stopped: starting another');
    setTimeout(fork, lived < SHORT_LIFE_MS ? RESTART_PAUSE_MS : 0);
  });

  // /metrics: a worker asks, every worker answers with its registry, the merged text goes back to the one that asked.
  const asks = new Map<number, { from: Worker; askerId: number; waiting: Set<number>; parts: object[] }>();
  let seq = 0;
  const answer = (id: number) => {
    const a = asks.get(id);
    if (!a) return;
    asks.delete(id);
    const reply = (text: string | null) => {
      if (!a.from.isDead()) a.from.send({ bhagya: 'metrics', id: a.askerId, text } satisfies Merged);
    };
    Promise.all([AggregatorRegistry.aggregate(a.parts).metrics(), registry.metrics()]).then(
      ([theirs, own]) => reply(`${theirs}${own}`),
      () => reply(null),
    );
  };
  cluster.on('message', (w, m: unknown) => {
    if (!ours(m)) return;
    if (m.bhagya === 'metrics?') {
      const id = ++seq;
      const workers = alive();
      asks.set(id, { from: w, askerId: m.id, waiting: new Set(workers.map((x) => x.id)), parts: [] });
      for (const x of workers) x.send({ bhagya: 'collect', id } satisfies CollectMetrics);
      // A worker that does not answer in time (stopping, stuck) is left out rather than holding the scrape.
      setTimeout(() => answer(id), METRICS_WAIT_MS - 500).unref();
    } else if (m.bhagya === 'collected') {
      const a = asks.get(m.id);
      if (!a) return;
      a.parts.push(m.metrics);
      a.waiting.delete(w.id);
      if (a.waiting.size === 0) answer(m.id);
    }
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: alive().length }, 'stopping every worker');
    for (const w of alive()) w.process.kill(signal);
    setTimeout(() => {
      log.error('workers still running after the drain: killing them');
      for (const w of alive()) w.process.kill('SIGKILL');
      process.exit(1);
    }, drainMs + 20_000).unref();
    if (alive().length === 0) process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  fork();
}

/**
 * In a worker: answers the primary's collection with this worker's metrics (`collect`), and gives /metrics the merged
 * text of every worker (null when the primary did not answer in time: the worker then serves its own).
 */
export function clusterMetrics(collect: () => Promise<object>): () => Promise<string | null> {
  let seq = 0;
  const waiting = new Map<number, (text: string | null) => void>();
  process.on('message', (m: unknown) => {
    if (!ours(m)) return;
    if (m.bhagya === 'collect')
      void collect().then(
        (metrics) => process.send?.({ bhagya: 'collected', id: m.id, metrics } satisfies Collected),
        () => process.send?.({ bhagya: 'collected', id: m.id, metrics: [] } satisfies Collected),
      );
    else if (m.bhagya === 'metrics') {
      waiting.get(m.id)?.(m.text);
      waiting.delete(m.id);
    }
  });
  return () =>
    new Promise((resolve) => {
      const id = ++seq;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(null);
      }, METRICS_WAIT_MS).unref();
      waiting.set(id, (text) => {
        clearTimeout(timer);
        resolve(text);
      });
      process.send?.({ bhagya: 'metrics?', id } satisfies AskMetrics);
    });
}

/** The first worker forked (its replacements are not): the one that says at the start what the operator should know. */
export const firstWorker = (): boolean => cluster.worker?.id === 1;

/** Whether this process is a worker of runPrimary's. */
export const isWorker = (): boolean => cluster.isWorker;

/** A worker whose primary is gone stops at once, as the whole process would have. */
export function stopWithPrimary(): void {
  process.on('disconnect', () => process.exit(1));
}
