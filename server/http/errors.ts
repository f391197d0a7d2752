import type { ErrorRequestHandler } from 'express';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { Logger } from '../log.ts';

/** Error bodies in the Django REST style the spec's client reads: `{detail, code}` or `{field: [messages]}`. */
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

/** zod issues → `{field: [messages]}`, with unknown keys and root problems under non_field_errors. */
export function zodToFieldErrors(error: z.ZodError, t: TFunction): Record<string, string[]> {
  // No prototype: a body key like "__proto__" is then an ordinary field name, not Object.prototype.
  const out: Record<string, string[]> = Object.create(null);
  const push = (field: string, msg: string) => (out[field] ??= []).push(msg);
  const wrongType = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) push(k, t('api:unknownField'));
      continue;
    }
    const field = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    // A value of the wrong type gets that one message, not also the length checks zod runs on it.
    if (wrongType.has(field)) continue;
    if (issue.code === 'invalid_type') wrongType.add(field);
    push(field, issueMessage(issue, t));
  }
  return out;
}

function issueMessage(issue: z.core.$ZodIssue, t: TFunction): string {
  // A schema may name a translation key as its message ("api:..."): use it as is.
  if (issue.message.startsWith('api:')) return t(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? t('api:required') : t('api:wrongType', { expected: issue.expected });
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? t('api:blank') : t('api:tooSmall', { min: issue.minimum });
    case 'too_big':
      return t('api:tooBig', { max: issue.maximum });
    default:
      return t('api:invalid');
  }
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
