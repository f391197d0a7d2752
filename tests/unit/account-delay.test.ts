/**
 * The growing delay of an account's failed logins (docs/rules/limits.md#1-rate-limits, server/http/rate-limit.ts
 * `delayAfter`): nothing for the first ACCOUNT_DELAY.free failures, then 2, 4, 8, … seconds, never above the cap.
 */
import { ACCOUNT_DELAY, delayAfter } from '../../server/http/rate-limit.ts';

test('no wait for the free failures', () => {
  for (let n = 0; n < ACCOUNT_DELAY.free; n++) expect(delayAfter(n)).toBe(0);
});

test('then it doubles with each failure: 2, 4, 8, …', () => {
  const f = ACCOUNT_DELAY.free;
  expect([f, f + 1, f + 2, f + 3, f + 9].map((n) => delayAfter(n))).toEqual([2, 4, 8, 16, 1024]);
});

test('never above the cap, however many failures (no overflow)', () => {
  expect(delayAfter(ACCOUNT_DELAY.free + 11)).toBe(ACCOUNT_DELAY.capSec);
  expect(delayAfter(1_000_000)).toBe(ACCOUNT_DELAY.capSec);
  expect(delayAfter(Number.MAX_SAFE_INTEGER)).toBe(ACCOUNT_DELAY.capSec);
});

test('the schedule of another rule', () => {
  expect([0, 2, 3, 4, 10].map((n) => delayAfter(n, { free: 3, capSec: 5 }))).toEqual([0, 0, 2, 4, 5]);
});
