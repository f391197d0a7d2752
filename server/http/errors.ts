import type { ErrorRequestHandler } from 'express';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { problemsByField } from '../../shared/fields.ts';
import { databaseUnavailable, UNAVAILABLE_RETRY_AFTER } from '../db/unavailable.ts';
import type { Logger } from '../log.ts';

/**
 * Error bodies in the Django REST style (docs/rules/api.md#2-errors): `{detail, code}` or `{field: [messages]}`; a
 * refusal of one field carries its code beside the field (`{ticket: [message], code: 'ticket_taken'}`).
 */
export type ErrorBody =
  | { detail: string; code?: string; [extra: string]: unknown }
  | Record<string, string[]>
  | { code: string; [field: string]: string[] | string };

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: number, body: ErrorBody, headers: Record<string, string> = {}) {
    super(typeof body.detail === 'string' ? body.detail : JSON.stringify(body));
    this.status = status;
    this.body = body;
    this.headers = headers;
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

/** An error as the API answers it: client mistakes get their 4xx, anything else a 500 without internals (logged). */
export function errorAnswer(
  err: unknown,
  t: TFunction | ((k: string) => string),
  logUnexpected: (err: unknown) => void,
): { status: number; headers: Record<string, string>; body: ErrorBody } {
  if (err instanceof ApiError) return { status: err.status, headers: err.headers, body: err.body };
  const e = err as { type?: string; status?: number };
  const answer = (status: number, detail: string, code: string) => ({ status, headers: {}, body: { detail: t(detail), code } });
  if (e.type === 'entity.parse.failed') return answer(400, 'api:malformedJson', 'parse_error');
  if (e.type === 'entity.too.large') return answer(400, 'api:bodyTooLarge', 'body_too_large');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return answer(415, 'api:unsupportedMediaType', 'unsupported_media_type');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return answer(e.status, 'api:badRequest', 'bad_request');
  // The database out of reach (docs/rules/operations.md#5-when-the-database-goes-away): not the caller's fault, not a
  // bug, and said plainly; the pool's own warning has logged it once.
  if (databaseUnavailable(err))
    return { ...answer(503, 'api:databaseUnavailable', 'unavailable'), headers: { 'Retry-After': UNAVAILABLE_RETRY_AFTER } };
  logUnexpected(err);
  return answer(500, 'api:serverError', 'server_error');
}

/** The last middleware for /api and /bff: the error's answer (errorAnswer); a file already under way is cut off. */
export function apiErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const a = errorAnswer(err, req.t ?? ((k: string) => k), (e) =>
      log.error({ err: e, url: req.originalUrl, method: req.method }, 'unhandled error'),
    );
    if (res.headersSent) return void res.destroy();
    res.set(a.headers).status(a.status).json(a.body);
  };
}
