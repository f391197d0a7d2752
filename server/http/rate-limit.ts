import { refusal } from '../../shared/api/refusals.ts';
import type { Refusal } from '../../shared/api/refusal.ts';
import type { Db } from '../db/index.ts';

export type Limit = { max: number; windowSec: number };

/**
 * The rate limits (docs/rules/limits.md#1-rate-limits); state lives in the database so that several instances share it.
 * Many mobile players share one public address (carrier-grade NAT): a limit on one address alone counts only failures,
 * or is a ceiling against sheer floods far above what a whole carrier's players do; successful actions are counted per
 * account or identifier.
 */
export const LIMITS = {
  /** Every login attempt from one address, whatever the account: a flood ceiling only. */
  loginFloodPerIp: { max: 3000, windowSec: 60 * 60 },
  /**
   * Failed logins from one address, whatever the account (one machine trying many accounts): past them a device the
   * account does not know answers a challenge first; never a refusal (server/accounts/challenge.ts).
   */
  loginFailuresPerIp: { max: 100, windowSec: 15 * 60 },
  /** Failed code checks (verification, reset) from one address, whatever the account. */
  codeCheckFailuresPerIp: { max: 60, windowSec: 15 * 60 },
  /** Codes sent from one address (a flood ceiling), and to one phone or e-mail (so that nobody can flood a phone with SMS). */
  codeFloodPerIp: { max: 2000, windowSec: 60 * 60 },
  codePerIdentifier: { max: 10, windowSec: 15 * 60 },
  /** Sign-ups from one address: a flood ceiling; each sign-up also counts as a code sent to its phone or e-mail. */
  signupFloodPerIp: { max: 1000, windowSec: 60 * 60 },
  /** Notices to an account's owner that someone tried to sign up with his phone or e-mail: one a day. */
  signupNoticePerAccount: { max: 1, windowSec: 24 * 60 * 60 },
  /** Pictures of a logged-in player (profile and NID photos together). */
  uploadPerUser: { max: 30, windowSec: 60 * 60 },
  /** Pictures sent without a login (the sign-up picture) from one address: a flood ceiling. */
  anonymousUploadPerIp: { max: 300, windowSec: 60 * 60 },
  contactPerIp: { max: 5, windowSec: 60 * 60 },
} as const satisfies Record<string, Limit>;

/**
 * The growing delay of an account's failed logins from anywhere (a botnet guessing one player's password): counted per
 * identifier over a day; the first `free` failures cost nothing, then each further attempt waits 2, 4, 8, …
 * seconds after the last failure, at most `capSec`. A device that logged in before is not held back by it
 * (docs/decisions/025-limits-for-shared-addresses.md).
 */
export const ACCOUNT_DELAY = { windowSec: 24 * 60 * 60, free: 10, capSec: 60 * 60 } as const;

/** Seconds to wait after the last failure when `failures` were counted (0: no wait). Pure: the schedule itself. */
export function delayAfter(failures: number, rule: { free: number; capSec: number } = ACCOUNT_DELAY): number {
  if (failures < rule.free) return 0;
  // 2^k with k = failures − free + 1; the exponent is bounded so that the number stays small before the cap.
  return Math.min(rule.capSec, 2 ** Math.min(failures - rule.free + 1, 30));
}

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

/**
 * A limit passed is the `throttled` refusal (docs/decisions/064-refusals-as-data.md), which run() answers 429 with the
 * wait in the text, as `wait` in the body and in the Retry-After header.
 */
export const throttled = (wait: number): Refusal =>
  refusal('throttled', { vars: { seconds: wait }, extra: { wait }, headers: { 'Retry-After': String(wait) } });

/** Counts one hit against each limit in turn; the first limit passed refuses (throttled). */
export async function throttle(db: Db, checks: readonly (readonly [key: string, limit: Limit])[]): Promise<void> {
  for (const [key, limit] of checks) {
    const wait = await hit(db, key, limit);
    if (wait) throw throttled(wait);
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

/** Refuses (throttled) while the failures counted under `key` ask to wait. */
export async function refuseWhileBackingOff(db: Db, key: string, steps: readonly Limit[] = FAILURE_STEPS): Promise<void> {
  const wait = await backoffWait(db, key, steps);
  if (wait) throw throttled(wait);
}

/** Counts one failure under `key` in every step. */
export async function countFailure(db: Db, key: string, steps: readonly Limit[] = FAILURE_STEPS): Promise<void> {
  for (const [i, step] of steps.entries()) await hit(db, `${key}:${i}`, step);
}

/**
 * Seconds to wait under the growing delay of `key`; 0: go ahead. Once the delay is due, only one attempt takes the
 * turn (it moves the time of the last failure, compared and set in one statement): a botnet's attempts sent at the
 * same moment get one try, not one each. Counts no failure.
 */
export async function delayTurn(db: Db, key: string, rule: typeof ACCOUNT_DELAY = ACCOUNT_DELAY): Promise<number> {
  const row = await db.one<{ hits: number; since: number; last: string }>(
    `SELECT n.hits, EXTRACT(EPOCH FROM (now() - l.window_start))::float8 AS since, l.window_start::text AS last
       FROM rate_limits n JOIN rate_limits l ON l.key = $1 || ':last'
      WHERE n.key = $1 || ':n' AND n.window_start > now() - make_interval(secs => $2)`,
    [key, rule.windowSec],
  );
  if (!row) return 0;
  const delay = delayAfter(row.hits, rule);
  if (delay === 0) return 0;
  const left = delay - row.since;
  if (left > 0) return Math.ceil(left);
  const took = await db.one<{ key: string }>(
    `UPDATE rate_limits SET window_start = now() WHERE key = $1 AND window_start = $2::timestamptz RETURNING key`,
    [`${key}:last`, row.last],
  );
  return took ? 0 : delay;
}

/** Counts one failure under the growing delay of `key`, and when it happened. */
export async function countDelayed(db: Db, key: string, rule: typeof ACCOUNT_DELAY = ACCOUNT_DELAY): Promise<void> {
  await hit(db, `${key}:n`, { max: Number.MAX_SAFE_INTEGER, windowSec: rule.windowSec });
  await db.query(
    `INSERT INTO rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET window_start = now(), hits = r.hits + 1`,
    [`${key}:last`],
  );
}

/** The most failures counted under `key` in any of the steps' live windows (0: none lately). Counts nothing. */
export async function failuresCounted(db: Db, key: string, steps: readonly Limit[] = FAILURE_STEPS): Promise<number> {
  let most = 0;
  for (const [i, step] of steps.entries()) {
    const row = await db.one<{ hits: number }>(
      `SELECT hits FROM rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [`${key}:${i}`, step.windowSec],
    );
    most = Math.max(most, row?.hits ?? 0);
  }
  return most;
}
