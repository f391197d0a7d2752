/**
 * Rate limits and back-offs as refusals (docs/rules/limits.md#1-rate-limits, docs/decisions/064-refusals-as-data.md):
 * the counting is server/http/rate-limit.ts's; a limit passed is the `throttled` refusal, which run() answers 429 with
 * the wait in the text, as `wait` in the body and in the Retry-After header.
 */
import { refusal } from '../../shared/api/refusals.ts';
import type { Refusal } from '../../shared/api/refusal.ts';
import type { Db } from '../db/index.ts';
import { backoffWait, FAILURE_STEPS, hit, type Limit } from '../http/rate-limit.ts';

/** The refusal of a limited request: wait `wait` seconds. */
export const throttled = (wait: number): Refusal =>
  refusal('throttled', { vars: { seconds: wait }, extra: { wait }, headers: { 'Retry-After': String(wait) } });

/** Counts one hit against each limit in turn; the first limit passed refuses (throttled). */
export async function throttle(db: Db, checks: readonly (readonly [key: string, limit: Limit])[]): Promise<void> {
  for (const [key, limit] of checks) {
    const wait = await hit(db, key, limit);
    if (wait) throw throttled(wait);
  }
}

/** Refuses (throttled) while the failures counted under `key` ask to wait. */
export async function refuseWhileBackingOff(db: Db, key: string, steps: readonly Limit[] = FAILURE_STEPS): Promise<void> {
  const wait = await backoffWait(db, key, steps);
  if (wait) throw throttled(wait);
}
