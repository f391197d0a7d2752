import type { ErrorRequestHandler } from 'express';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { problemsByField } from '../../shared/fields.ts';
import type { Logger } from '../log.ts';

/** Error bodies in the Django REST style (docs/rules/api.md#2-errors): `{detail, code}` or `{field: [messages]}`. */
export type ErrorBody = { detail: string; code?: string; [extra: string]: unknown } | Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : JSON.stringify(body));
  }
  static detail(status: number, detail: string, code?: string, extra: Record<string, unknown> = {}): ApiError {
    return new ApiError(status, { detail, ...(code ? { code } : {}), ...extra });
  }
  static fields(errors: Record<string, string[]>, status = 400): ApiError {
    return new ApiError(status, errors);
  }
}

/** zod issues → `{field: [messages]}` in the caller's language (the problems as shared/fields.ts reads them). */
export function zodToFieldErrors(error: z.ZodError, t: TFunction): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [field, problems] of Object.entries(problemsByField(error))) out[field] = problems.map((p) => t(p.key, p.vars ?? {}));
  return out;
}

/** The last middleware for /api: client mistakes get their 4xx, anything else a logged 500 without internals. */
export function apiErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof ApiError) {
      res.set(err.headers).status(err.status).json(err.body);
      return;
    }
    const t = req.t ?? ((k: string) => k);
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.parse.failed') return void res.status(400).json({ detail: t('api:malformedJson'), code: 'parse_error' });
    if (e.type === 'entity.too.large') return void res.status(400).json({ detail: t('api:bodyTooLarge'), code: 'body_too_large' });
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
      return void res.status(415).json({ detail: t('api:unsupportedMediaType'), code: 'unsupported_media_type' });
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
      return void res.status(e.status).json({ detail: t('api:badRequest'), code: 'bad_request' });
    log.error({ err, url: req.originalUrl, method: req.method }, 'unhandled error');
    res.status(500).json({ detail: t('api:serverError'), code: 'server_error' });
  };
}
