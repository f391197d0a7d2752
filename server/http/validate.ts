import type { Request } from 'express';
import type { z } from 'zod';
import { ApiError, zodToFieldErrors } from './errors.ts';

/** Parses a JSON body against a strict schema; unknown fields, wrong types and missing fields become 400 field errors. */
export function parseBody<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw ApiError.detail(400, req.t('api:expectedObject'), 'parse_error');
  }
  // reportInput: the issues carry the value, so a wrong type is told apart from a missing field.
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw ApiError.fields(zodToFieldErrors(result.error, req.t));
  return result.data;
}

/** Route ids are positive integers; anything else is a 404 rather than a database error. */
export function idParam(req: Request, name: string): number {
  const raw = req.params[name];
  const n = typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw ApiError.detail(404, req.t('api:notFound'), 'not_found');
  return n;
}
