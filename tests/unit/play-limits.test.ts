/** The rules of spend limits, self-exclusion and time-outs (docs/rules/play-safe.md), as plain functions of their inputs and the time. */
import {
  breakNow,
  countsAsSpent,
  exclusionUntil,
  extendExclusion,
  extendTimeOut,
  isExcluded,
  limitBreach,
  limitsNow,
  pendingNow,
  periodReset,
  periodStart,
  RAISE_DELAY_MS,
  requestLimits,
  spentIn,
  timeOutUntil,
  type LimitSettings,
} from '../../shared/play-safe/limits.ts';
import { LimitsBody, SelfExclusionBody, TimeOutBody, TimeOutForm } from '../../shared/play-safe/schemas.ts';

/** A Dhaka wall-clock time (UTC+6) → its instant. */
const dhaka = (local: string) => Date.parse(`${local}+06:00`);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3600_000;

describe('periods in Dhaka time', () => {
  test('a day starts at Dhaka midnight, not UTC midnight', () => {
    // 23:59 Dhaka on 10 March is 17:59 UTC: still 10 March in Dhaka.
    expect(iso(periodStart('day', dhaka('2026-03-10T23:59:59')))).toBe('2026-03-09T18:00:00.000Z');
    // 00:00 Dhaka on 11 March is 18:00 UTC on 10 March: a new day in Dhaka although UTC is still on the 10th.
    expect(iso(periodStart('day', dhaka('2026-03-11T00:00:00')))).toBe('2026-03-10T18:00:00.000Z');
    expect(iso(periodStart('day', dhaka('2026-03-11T05:59:00')))).toBe('2026-03-10T18:00:00.000Z');
    expect(iso(periodReset('day', dhaka('2026-03-10T23:59:59')))).toBe(iso(dhaka('2026-03-11T00:00:00')));
  });

  test('a week starts on Saturday 00:00 Dhaka time (Bangladesh’s week)', () => {
    // 14 March 2026 is a Saturday.
    const saturday = dhaka('2026-03-14T00:00:00');
    expect(periodStart('week', saturday)).toBe(saturday);
    expect(periodStart('week', dhaka('2026-03-13T23:59:59'))).toBe(dhaka('2026-03-07T00:00:00')); // Friday night: last week
    expect(periodStart('week', dhaka('2026-03-20T12:00:00'))).toBe(saturday); // the next Friday
    expect(periodStart('week', dhaka('2026-03-16T03:00:00'))).toBe(saturday); // Monday 03:00 Dhaka is Sunday 21:00 UTC
    expect(periodReset('week', dhaka('2026-03-17T10:00:00'))).toBe(dhaka('2026-03-21T00:00:00'));
  });

  test('a month starts on the 1st at Dhaka midnight, whatever its length', () => {
    expect(periodStart('month', dhaka('2026-03-01T00:00:00'))).toBe(dhaka('2026-03-01T00:00:00'));
    expect(periodStart('month', dhaka('2026-02-28T23:59:59'))).toBe(dhaka('2026-02-01T00:00:00'));
    expect(periodReset('month', dhaka('2026-02-10T00:00:00'))).toBe(dhaka('2026-03-01T00:00:00'));
    expect(periodReset('month', dhaka('2026-12-31T23:00:00'))).toBe(dhaka('2027-01-01T00:00:00'));
  });
});

describe('what is spent', () => {
  const now = dhaka('2026-03-11T10:00:00');
  test('pending and success count, failed does not; only since the period started', () => {
    expect(countsAsSpent('pending')).toBe(true);
    expect(countsAsSpent('success')).toBe(true);
    expect(countsAsSpent('failed')).toBe(false);
    const purchases = [
      { amount: 100, status: 'success' as const, created_at: iso(dhaka('2026-03-11T00:00:00')) },
      { amount: 50, status: 'pending' as const, created_at: iso(dhaka('2026-03-11T09:00:00')) },
      { amount: 1000, status: 'failed' as const, created_at: iso(dhaka('2026-03-11T09:30:00')) },
      { amount: 20, status: 'success' as const, created_at: iso(dhaka('2026-03-10T23:59:59')) }, // yesterday in Dhaka
      { amount: 7, status: 'success' as const, created_at: iso(dhaka('2026-03-06T12:00:00')) }, // last week (Friday)
    ];
    expect(spentIn('day', purchases, now)).toBe(150);
    expect(spentIn('week', purchases, now)).toBe(170);
    expect(spentIn('month', purchases, now)).toBe(177);
  });
});

describe('a purchase against the limits', () => {
  const now = dhaka('2026-03-11T10:00:00');
  const limits = { day: 500, week: 1000, month: null };
  test('exactly at the limit is allowed; one taka over is refused with the period, limit and reset', () => {
    expect(limitBreach(limits, { day: 400, week: 400, month: 400 }, 100, now)).toBeNull();
    expect(limitBreach(limits, { day: 401, week: 401, month: 401 }, 100, now)).toEqual({
      period: 'day',
      limit: 500,
      spent: 401,
      resets_at: dhaka('2026-03-12T00:00:00'),
    });
    expect(limitBreach(limits, { day: 0, week: 901, month: 901 }, 100, now)).toMatchObject({ period: 'week', limit: 1000 });
    expect(limitBreach({ day: null, week: null, month: null }, { day: 1e9, week: 1e9, month: 1e9 }, 100, now)).toBeNull();
  });
});

describe('changing a limit', () => {
  const t0 = dhaka('2026-03-11T10:00:00');
  const none: LimitSettings = { limits: { day: null, week: null, month: null }, pending: null };

  test('a first limit and a lower one take effect at once', () => {
    const first = requestLimits(none, { day: 500, week: null, month: 5000 }, t0);
    expect(first).toEqual({ limits: { day: 500, week: null, month: 5000 }, pending: null });
    const lower = requestLimits(first, { day: 300, week: null, month: 5000 }, t0 + HOUR);
    expect(lower).toEqual({ limits: { day: 300, week: null, month: 5000 }, pending: null });
  });

  test('a higher limit, or one removed, waits 24 hours; the old one applies until then', () => {
    const set: LimitSettings = { limits: { day: 500, week: 2000, month: null }, pending: null };
    const raised = requestLimits(set, { day: 800, week: null, month: null }, t0);
    expect(raised.limits).toEqual({ day: 500, week: 2000, month: null });
    expect(raised.pending).toEqual({ limits: { day: 800, week: null, month: null }, effective_at: t0 + RAISE_DELAY_MS });
    expect(limitsNow(raised, t0 + RAISE_DELAY_MS - 1)).toEqual({ day: 500, week: 2000, month: null });
    expect(pendingNow(raised, t0 + RAISE_DELAY_MS - 1)).not.toBeNull();
    expect(limitsNow(raised, t0 + RAISE_DELAY_MS)).toEqual({ day: 800, week: null, month: null });
    expect(pendingNow(raised, t0 + RAISE_DELAY_MS)).toBeNull();
  });

  test('a request that lowers one limit and raises another: the lower one at once, the higher one later', () => {
    const set: LimitSettings = { limits: { day: 500, week: 2000, month: null }, pending: null };
    const mixed = requestLimits(set, { day: 300, week: 3000, month: null }, t0);
    expect(mixed.limits).toEqual({ day: 300, week: 2000, month: null });
    expect(mixed.pending?.limits).toEqual({ day: 300, week: 3000, month: null });
  });

  test('asking again for the limits in force cancels a waiting raise; asking again for a raise starts its wait again', () => {
    const set: LimitSettings = { limits: { day: 500, week: null, month: null }, pending: null };
    const raised = requestLimits(set, { day: 800, week: null, month: null }, t0);
    expect(requestLimits(raised, { day: 500, week: null, month: null }, t0 + HOUR).pending).toBeNull();
    expect(requestLimits(raised, { day: 800, week: null, month: null }, t0 + 20 * HOUR).pending?.effective_at).toBe(
      t0 + 20 * HOUR + RAISE_DELAY_MS,
    );
    // Once its time came, the raised limit is the one in force: lowering from there is at once.
    const later = requestLimits(raised, { day: 700, week: null, month: null }, t0 + RAISE_DELAY_MS + 1);
    expect(later).toEqual({ limits: { day: 700, week: null, month: null }, pending: null });
  });
});

describe('self-exclusion', () => {
  const t0 = dhaka('2026-08-31T21:30:00');
  test('6 months, 1 year, 5 years: calendar months in Dhaka, the month’s last day when shorter', () => {
    expect(exclusionUntil('6m', t0)).toBe(dhaka('2027-02-28T21:30:00'));
    expect(exclusionUntil('1y', t0)).toBe(dhaka('2027-08-31T21:30:00'));
    expect(exclusionUntil('5y', dhaka('2027-02-28T08:00:00'))).toBe(dhaka('2032-02-28T08:00:00'));
  });

  test('in force until its end; a new one may only make it longer', () => {
    const until = exclusionUntil('1y', t0);
    expect(isExcluded(until, until - 1)).toBe(true);
    expect(isExcluded(until, until)).toBe(false);
    expect(isExcluded(null, t0)).toBe(false);
    expect(extendExclusion(until, '6m', t0 + HOUR)).toBeNull();
    expect(extendExclusion(until, '5y', t0 + HOUR)).toBe(exclusionUntil('5y', t0 + HOUR));
    // Over: a new one starts from now, whatever its length.
    expect(extendExclusion(until, '6m', until + 1)).toBe(exclusionUntil('6m', until + 1));
  });
});

describe('time-out', () => {
  const t0 = dhaka('2026-11-28T23:30:00');
  const DAY = 24 * HOUR;
  test('24 hours, 7 days, 30 days: exactly that long from when it is taken, across midnight and month ends', () => {
    expect(timeOutUntil('24h', t0)).toBe(dhaka('2026-11-29T23:30:00'));
    expect(timeOutUntil('7d', t0)).toBe(dhaka('2026-12-05T23:30:00'));
    expect(timeOutUntil('30d', t0)).toBe(dhaka('2026-12-28T23:30:00'));
  });

  test('ends when it should: in force to its last millisecond, over at its end', () => {
    const until = timeOutUntil('24h', t0);
    expect(breakNow(null, until, until - 1)).toEqual({ kind: 'time_out', until });
    expect(breakNow(null, until, until)).toBeNull();
    expect(breakNow(null, null, t0)).toBeNull();
  });

  test('cannot be shortened: a shorter or equal one while it runs is refused (null); a longer one extends it', () => {
    const until = timeOutUntil('7d', t0);
    expect(extendTimeOut(until, '24h', t0 + HOUR)).toBeNull();
    // 7 days taken again an hour later ends an hour later: longer, so it extends.
    expect(extendTimeOut(until, '7d', t0 + HOUR)).toBe(until + HOUR);
    expect(extendTimeOut(until, '7d', t0)).toBeNull(); // the same end is not longer
    expect(extendTimeOut(until, '30d', t0 + DAY)).toBe(t0 + 31 * DAY);
    // Over: a new one starts from now, whatever its length.
    expect(extendTimeOut(until, '24h', until)).toBe(until + DAY);
    expect(extendTimeOut(null, '24h', t0)).toBe(t0 + DAY);
  });

  test('a self-exclusion in force is told before a time-out; either blocks play', () => {
    const timeOut = timeOutUntil('30d', t0);
    const exclusion = exclusionUntil('6m', t0);
    expect(breakNow(exclusion, timeOut, t0 + HOUR)).toEqual({ kind: 'self_exclusion', until: exclusion });
    expect(breakNow(t0 - 1, timeOut, t0)).toEqual({ kind: 'time_out', until: timeOut });
    expect(breakNow(exclusion, t0 - 1, t0)).toEqual({ kind: 'self_exclusion', until: exclusion });
  });
});

describe('the request bodies', () => {
  test('limits: whole taka 1 to 10,000,000 or none; Bengali digits and blanks as forms send them', () => {
    expect(LimitsBody.parse({ day: 500, week: '১০০০', month: '' })).toEqual({ day: 500, week: 1000, month: null });
    expect(LimitsBody.parse({ day: null })).toEqual({ day: null, week: null, month: null });
    for (const bad of [0, -5, 10.5, '12abc', 10_000_001, true])
      expect(LimitsBody.safeParse({ day: bad }).error?.issues[0]?.message).toBe('validation:spendLimitInvalid');
    expect(LimitsBody.safeParse({ day: 1, hour: 5 }).success).toBe(false);
  });

  test('self-exclusion: one of the three periods, and confirm exactly true', () => {
    expect(SelfExclusionBody.parse({ period: '1y', confirm: true })).toEqual({ period: '1y', confirm: true });
    expect(SelfExclusionBody.safeParse({ period: '2y', confirm: true }).error?.issues[0]?.message).toBe(
      'validation:exclusionPeriodInvalid',
    );
    expect(SelfExclusionBody.safeParse({ period: '6m', confirm: 'yes' }).error?.issues[0]?.message).toBe('validation:exclusionConfirm');
    expect(SelfExclusionBody.safeParse({ period: '6m' }).error?.issues[0]?.message).toBe('validation:exclusionConfirm');
  });

  test('time-out: one of 24h, 7d, 30d, and confirm exactly true; the form needs its box ticked', () => {
    expect(TimeOutBody.parse({ period: '24h', confirm: true })).toEqual({ period: '24h', confirm: true });
    for (const bad of ['6m', '1h', '', 24, null])
      expect(TimeOutBody.safeParse({ period: bad, confirm: true }).error?.issues[0]?.message).toBe('validation:timeOutPeriodInvalid');
    expect(TimeOutBody.safeParse({ period: '7d', confirm: 'yes' }).error?.issues[0]?.message).toBe('validation:exclusionConfirm');
    expect(TimeOutBody.safeParse({ period: '7d', confirm: true, until: 'x' }).success).toBe(false);
    expect(TimeOutForm.parse({ period: '30d', confirm: 'yes' })).toEqual({ period: '30d', confirm: true });
    expect(TimeOutForm.safeParse({ period: '30d' }).error?.issues[0]?.message).toBe('validation:exclusionConfirm');
  });
});
