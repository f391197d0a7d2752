import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import type { Db, PoolStats } from '../db/index.ts';

/**
 * Prometheus metrics at /metrics (docs/rules/operations.md#2-metrics-and-alerts), with the alert rules of
 * docs/prometheus-alerts.yml built on them:
 * - request durations by area and route (the route's pattern, never the raw path);
 * - every endpoint's answers by status, however it was called (over HTTP or by a page in this process): purchases,
 *   claims and activations are these;
 * - the business backlogs read from the database at each scrape, the same on every instance (alerts take their max):
 *   bKash payments by state in the last hour, the reconciliation backlog, claims waiting for staff, SMS waiting and failed;
 * - the database pool: connections in use, idle, and requests waiting for one.
 * With METRICS_TOKEN set, a bearer token is required; in production without one, /metrics is not served.
 */

/** Every endpoint's answers, process-wide (a page's call and an HTTP call alike); registered into each app's registry. */
const endpointAnswers = new Counter({
  name: 'bhagya_endpoint_answers_total',
  help: 'Answers of the API endpoints by endpoint (method and path pattern) and status, over HTTP or in process',
  labelNames: ['endpoint', 'status'] as const,
  registers: [],
});

/** Counts one answer of an endpoint. */
export function countAnswer(e: Pick<Endpoint, 'method' | 'path'>, status: number): void {
  endpointAnswers.inc({ endpoint: `${e.method} ${e.path}`, status: String(status) });
}

/** The route a response answered, for the duration histogram: set by the API router and the pages. */
export const setRoute = (res: Response, route: string): void => {
  res.locals.metricsRoute = route;
};

/** The business figures of one scrape, in one statement (each part by an index; small sets). */
const FIGURES = /* sql */ `
SELECT
  (SELECT COALESCE(json_object_agg(state, n), '{}') FROM
     (SELECT state, count(*)::int AS n FROM bkash_payments WHERE created_at > now() - interval '1 hour' GROUP BY state) s) AS payments,
  (SELECT count(*)::int FROM bkash_payments WHERE state IN ('created', 'refund_due') AND created_at < now() - interval '3 minutes') AS reconcile_backlog,
  (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 FROM bkash_payments
     WHERE state IN ('created', 'refund_due')) AS reconcile_oldest_seconds,
  (SELECT count(*)::int FROM prize_claims WHERE status = 'payment_info_submitted') AS claims_waiting,
  (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(submitted_at)), 0)::float8 FROM prize_claims
     WHERE status = 'payment_info_submitted') AS claims_oldest_seconds,
  (SELECT count(*)::int FROM player_messages WHERE sms_state IN ('queued', 'sending')) AS sms_waiting,
  (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 FROM player_messages
     WHERE sms_state IN ('queued', 'sending')) AS sms_oldest_seconds,
  (SELECT count(*)::int FROM player_messages WHERE sms_state = 'failed') AS sms_failed,
  (SELECT count(*)::int FROM prize_payouts WHERE state = 'unknown') AS payouts_unknown,
  (SELECT count(*)::int FROM prize_payouts WHERE state = 'waiting') AS payouts_waiting,
  (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 FROM prize_payouts
     WHERE state = 'waiting') AS payouts_oldest_waiting_seconds`;

type Figures = {
  payments: Record<string, number> | string;
  reconcile_backlog: number;
  reconcile_oldest_seconds: number;
  claims_waiting: number;
  claims_oldest_seconds: number;
  sms_waiting: number;
  sms_oldest_seconds: number;
  sms_failed: number;
  payouts_unknown: number;
  payouts_waiting: number;
  payouts_oldest_waiting_seconds: number;
};

const PAYMENT_STATES = ['created', 'completed', 'failed', 'cancelled', 'expired', 'refund_due', 'refunded'] as const;

/**
 * `merged`, in a worker of several (server/cluster.ts clusterMetrics): given how to collect this worker's metrics, gives
 * every worker's merged; /metrics serves that (its own alone when the merge does not come).
 */
export type MergeMetrics = (collect: () => Promise<object>) => () => Promise<string | null>;

export function createMetrics(opts: {
  token: string | undefined;
  production: boolean;
  db?: Db;
  pool?: () => PoolStats;
  merged?: MergeMetrics;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(endpointAnswers);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by area, route pattern, method and status class',
    labelNames: ['area', 'route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const area = (p: string) =>
    p.startsWith('/api/') ? 'api' : p.startsWith('/bff/') ? 'bff' : /^\/(assets|fonts|locales)\//.test(p) ? 'asset' : 'page';

  if (opts.pool) {
    const pool = opts.pool;
    new Gauge({
      name: 'bhagya_db_pool_connections',
      help: 'Database pool connections by state (in_use, idle, max) and requests waiting for one (waiting)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = pool();
        this.set({ state: 'in_use' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'max' }, s.max);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  /** Reads the business figures into their gauges, before each scrape is answered. */
  let readFigures: (() => Promise<void>) | null = null;
  if (opts.db) {
    const db = opts.db;
    // The same figures on every worker: merged as the largest, not summed.
    const gauge = (name: string, help: string, labelNames: string[] = [], aggregator: 'max' | 'min' = 'max') =>
      new Gauge({ name, help, labelNames, registers: [registry], aggregator });
    const up = gauge(
      'bhagya_figures_up',
      'Whether the last scrape could read the business figures from the database (1) or not (0)',
      [],
      'min',
    );
    const payments = gauge('bhagya_bkash_payments_last_hour', 'bKash checkout payments begun in the last hour, by state', ['state']);
    const backlog = gauge('bhagya_reconciliation_backlog', 'bKash payments and refunds whose outcome is open after 3 minutes');
    const backlogAge = gauge('bhagya_reconciliation_oldest_seconds', 'Age of the oldest bKash payment or refund whose outcome is open');
    const claims = gauge('bhagya_claims_waiting', 'Prize claims with payment details given, waiting for staff to pay');
    const claimsAge = gauge('bhagya_claims_oldest_waiting_seconds', 'How long the oldest claim waiting for staff has waited');
    const smsWaiting = gauge('bhagya_sms_waiting', "Players' SMS waiting to be sent");
    const smsAge = gauge('bhagya_sms_oldest_waiting_seconds', "Age of the oldest players' SMS waiting to be sent");
    const smsFailed = gauge('bhagya_sms_failed', "Players' SMS given up after their retries (grows; alert on its increase)");
    const payoutsUnknown = gauge('bhagya_payouts_unknown', 'Prize payouts sent to bKash whose outcome is unknown: staff settle them');
    const payoutsWaiting = gauge('bhagya_payouts_waiting', "Prize payouts waiting for bKash's disbursement balance to cover them");
    const payoutsWaitingAge = gauge(
      'bhagya_payouts_oldest_waiting_seconds',
      'How long the oldest payout waiting for the balance has waited',
    );
    // One read per scrape, shared by the gauges; bounded so that a slow database does not hold the scrape.
    readFigures = async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const f = await Promise.race([
          db.one<Figures>(FIGURES),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('figures timed out')), 2000).unref();
          }),
        ]);
        if (!f) throw new Error('no figures');
        const byState = typeof f.payments === 'string' ? (JSON.parse(f.payments) as Record<string, number>) : f.payments;
        for (const s of PAYMENT_STATES) payments.set({ state: s }, byState[s] ?? 0);
        backlog.set(f.reconcile_backlog);
        backlogAge.set(f.reconcile_oldest_seconds);
        claims.set(f.claims_waiting);
        claimsAge.set(f.claims_oldest_seconds);
        smsWaiting.set(f.sms_waiting);
        smsAge.set(f.sms_oldest_seconds);
        smsFailed.set(f.sms_failed);
        payoutsUnknown.set(f.payouts_unknown);
        payoutsWaiting.set(f.payouts_waiting);
        payoutsWaitingAge.set(f.payouts_oldest_waiting_seconds);
        up.set(1);
      } catch {
        up.set(0);
      } finally {
        clearTimeout(timer);
      }
    };
  }

  const collect = async () => {
    await readFigures?.();
    return registry.getMetricsAsJSON();
  };
  const merged = opts.merged?.(collect);

  return {
    observe(req: Request, res: Response, next: NextFunction) {
      const end = duration.startTimer();
      const a = area(req.path); // before a mounted app rewrites it
      res.on('finish', () => {
        const route = typeof res.locals.metricsRoute === 'string' ? res.locals.metricsRoute : a === 'page' ? 'other' : a;
        end({ area: a, route, method: req.method, status: `${Math.floor(res.statusCode / 100)}xx` });
      });
      next();
    },
    async serve(req: Request, res: Response, next: NextFunction) {
      if (!opts.token && opts.production) return next();
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`)
        return void res.status(401).json({ detail: 'metrics token required' });
      const text = await merged?.();
      if (text) return void res.set('Content-Type', registry.contentType).send(text);
      await readFigures?.();
      res.set('Content-Type', registry.contentType).send(await registry.metrics());
    },
  };
}
