import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics at /metrics: process defaults and request durations by area (page, api, bff, asset).
 * With METRICS_TOKEN set, a bearer token is required; in production without one, /metrics is not served.
 */
export function createMetrics(opts: { token: string | undefined; production: boolean }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by area, method and status class',
    labelNames: ['area', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const area = (p: string) =>
    p.startsWith('/api/') ? 'api' : p.startsWith('/bff/') ? 'bff' : /^\/(assets|fonts|locales)\//.test(p) ? 'asset' : 'page';

  return {
    observe(req: Request, res: Response, next: NextFunction) {
      const end = duration.startTimer();
      res.on('finish', () => end({ area: area(req.path), method: req.method, status: `${Math.floor(res.statusCode / 100)}xx` }));
      next();
    },
    async serve(req: Request, res: Response, next: NextFunction) {
      if (!opts.token && opts.production) return next();
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`)
        return void res.status(401).json({ detail: 'metrics token required' });
      res.set('Content-Type', registry.contentType).send(await registry.metrics());
    },
  };
}
