import type { TFunction } from 'i18next';
import type { Db } from '../db/index.ts';
import { ApiError } from './errors.ts';

export type Limit = { max: number; windowSec: number };

/** The rate limits (docs/rules/limits.md#1-rate-limits); state lives in the database so that several instances share it. */
export const LIMITS = {
  /** Every login attempt from one address, whatever the account. */
  loginPerIp: { max: 50, windowSec: 15 * 60 },
  /** Every code check (verification, reset) from one address. */
  codeCheckPerIp: { max: 60, windowSec: 15 * 60 },
  /** Codes sent from one address, and to one phone or e-mail (so that nobody can flood a phone with SMS). */
  codePerIp: { max: 60, windowSec: 15 * 60 },
  codePerIdentifier: { max: 10, windowSec: 15 * 60 },
  signupPerIp: { max: 20, windowSec: 60 * 60 },
  uploadPerIp: { max: 30, windowSec: 60 * 60 },
  contactPerIp: { max: 5, windowSec: 60 * 60 },
} as const satisfies Record<string, Limit>;

/**
 * Failed logins and failed code checks count per address and account together, in steps that wait longer and
 * longer (5 failures: up to 15 minutes; 20: up to a day). Counted per address, a stranger failing against a
 * player's phone from many addresses never locks the player out: his own address has its own count.
 */
export const FAILURE_STEPS = [
  { max: 5, windowSec: 15 * 60 },
  { max: 20, windowSec: 24 * 60 * 60 },
] as const satisfies readonly Limit[];

/** Counts one hit in a fixed window; returns the seconds to wait when the limit is passed, else 0. */
export async function hit(db: Db, key: string, limit: Limit): Promise<number> {
  const row = await db.one<{ hits: number; retry: number }>(
    `INSERT INTO rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.hits + 1 END,
       window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
     RETURNING hits, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => $2) - now())))::int AS retry`,
    [key, limit.windowSec],
  );
  if (!row) return 0;
  return row.hits > limit.max ? Math.max(1, row.retry) : 0;
}

/** The one answer to a limited request: 429, the wait in the message, the body and the Retry-After header. */
export const tooManyRequests = (t: TFunction, wait: number): ApiError =>
  new ApiError(429, { detail: t('api:tooManyRequests', { seconds: wait }), code: 'throttled', wait }, { 'Retry-After': String(wait) });

/** Counts one hit against each limit in turn; the first limit passed throws tooManyRequests. */
export async function throttle(db: Db, checks: readonly (readonly [key: string, limit: Limit])[], t: TFunction): Promise<void> {
  for (const [key, limit] of checks) {
    const wait = await hit(db, key, limit);
    if (wait) throw tooManyRequests(t, wait);
  }
}

/** Seconds to wait before another try under these failure steps (0: go ahead). Counts nothing. */
export async function backoffWait(db: Db, key: string, steps: readonly Limit[] = FAILURE_STEPS): Promise<number> {
  let wait = 0;
  for (const [i, step] of steps.entries()) {
    const row = await db.one<{ hits: number; retry: number }>(
      `SELECT hits, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => $2) - now())))::int AS retry
         FROM rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [`${key}:${i}`, step.windowSec],
    );
    if (row && row.hits >= step.max) wait = Math.max(wait, Math.max(1, row.retry));
  }
  return wait;
}

/** Refuses with tooManyRequests while the failures counted under `key` ask to wait. */
export async function refuseWhileBackingOff(db: Db, key: string, t: TFunction): Promise<void> {
  const wait = await backoffWait(db, key);
  if (wait) throw tooManyRequests(t, wait);
}

/** Counts one failure under `key` in every step. */
export async function countFailure(db: Db, key: string, steps: readonly Limit[] = FAILURE_STEPS): Promise<void> {
  for (const [i, step] of steps.entries()) await hit(db, `${key}:${i}`, step);
}
