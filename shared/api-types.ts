/** Shapes of the API's answers as both sides read them, inferred from the schemas of the contract (docs/rules/api.md). */
import type { z } from 'zod';
import type { SessionUser as SessionUserSchema, UserProfile as UserProfileSchema } from './accounts/schemas.ts';
import type { DrawResult as DrawResultSchema, Lottery as LotterySchema } from './lotteries/schemas.ts';

export type SessionUser = z.output<typeof SessionUserSchema>;
export type Lottery = z.output<typeof LotterySchema>;
export type DrawResult = z.output<typeof DrawResultSchema>;
export type UserProfile = z.output<typeof UserProfileSchema>;

/** Django REST style error body: `{detail, code}` or `{field: [messages]}` (non_field_errors for the form). */
export type ApiErrorBody = { detail?: string; code?: string; wait?: number; identifier?: string } & { [field: string]: unknown };

export type ApiResult<T> = { ok: true; status: number; data: T; total: number | null } | { ok: false; status: number; error: ApiErrorBody };

/** The spec's rule for showing a failed call: field lists and non_field_errors joined by '. ', else detail. */
export function errorText(e: ApiErrorBody, fallback: string): string {
  if (typeof e.detail === 'string' && e.detail) return e.detail;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'code' || k === 'wait' || k === 'identifier') continue;
    if (Array.isArray(v)) parts.push(...v.filter((x): x is string => typeof x === 'string'));
    else if (typeof v === 'string' && k === 'error') parts.push(v);
  }
  return parts.length ? parts.join('. ') : fallback;
}

/** Field errors of a body as `{field: firstMessage}` for showing under inputs. */
export function fieldErrors(e: ApiErrorBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e)) {
    if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
  }
  return out;
}
