/** The rules of the reality check (docs/rules/play-safe.md#7-reality-check), as plain functions of their inputs and the time. */
import { createI18n, loadResources } from '../../server/i18n.ts';
import type { CountText } from '../../shared/i18n.ts';
import { formatTaka } from '../../shared/money.ts';
import { playRefusals } from '../../shared/play-safe/refusals.ts';
import {
  acknowledgeReality,
  formatPlayTime,
  formatTickets,
  hoursAndMinutes,
  intervalOf,
  isRealityDue,
  minutesPlayed,
  REALITY_DEFAULT,
  realityDueAt,
  type RealitySession,
} from '../../shared/play-safe/reality.ts';
import { RealityIntervalBody } from '../../shared/play-safe/schemas.ts';
import { createTranslator, type Resources } from '../../shared/translate.ts';

const MIN = 60_000;
const START = Date.parse('2026-03-10T10:00:00.000Z');
const fresh: RealitySession = { started_at: START, acknowledged_at: null };

describe('the interval', () => {
  test('a player who never chose one is reminded every 60 minutes; a choice is kept, 0 (off) too', () => {
    expect(REALITY_DEFAULT).toBe(60);
    expect(intervalOf(null)).toBe(60);
    expect(intervalOf(undefined)).toBe(60);
    expect(intervalOf(0)).toBe(0);
    expect(intervalOf(15)).toBe(15);
    expect(intervalOf(120)).toBe(120);
    // A value the database could not hold (its CHECK) is not trusted either.
    expect(intervalOf(45)).toBe(60);
  });

  test('the request takes 0, 15, 30, 60 or 120 as a number or digits (Bengali too), nothing else', () => {
    for (const [input, out] of [
      [0, 0],
      [15, 15],
      ['30', 30],
      [' 60 ', 60],
      ['১২০', 120],
    ] as const)
      expect(RealityIntervalBody.parse({ interval_minutes: input })).toEqual({ interval_minutes: out });
    for (const bad of [45, -15, 15.5, '15abc', '', null, true, 1e9, '0x0f', '1e1'])
      expect(RealityIntervalBody.safeParse({ interval_minutes: bad }).success).toBe(false);
    expect(RealityIntervalBody.safeParse({}).success).toBe(false);
    expect(RealityIntervalBody.safeParse({ interval_minutes: 15, day: 100 }).success).toBe(false);
  });
});

describe('when a reminder is due', () => {
  test('one interval after the session started: not a millisecond before, exactly at it, and after', () => {
    expect(realityDueAt(fresh, 60)).toBe(START + 60 * MIN);
    expect(isRealityDue(fresh, 60, START)).toBe(false);
    expect(isRealityDue(fresh, 60, START + 60 * MIN - 1)).toBe(false);
    expect(isRealityDue(fresh, 60, START + 60 * MIN)).toBe(true);
    expect(isRealityDue(fresh, 60, START + 3 * 60 * MIN)).toBe(true);
    expect(isRealityDue(fresh, 15, START + 15 * MIN)).toBe(true);
    expect(isRealityDue(fresh, 120, START + 119 * MIN)).toBe(false);
  });

  test('never when reminders are off', () => {
    expect(realityDueAt(fresh, 0)).toBeNull();
    expect(isRealityDue(fresh, 0, START + 1000 * 60 * MIN)).toBe(false);
  });

  test('after "Continue playing", the next one is due one interval after the acknowledgement', () => {
    const at = START + 70 * MIN;
    const acked = acknowledgeReality(fresh, 60, at);
    expect(acked).toEqual({ started_at: START, acknowledged_at: at });
    expect(isRealityDue(acked, 60, at)).toBe(false);
    expect(isRealityDue(acked, 60, at + 60 * MIN - 1)).toBe(false);
    expect(isRealityDue(acked, 60, at + 60 * MIN)).toBe(true);
    expect(realityDueAt(acked, 60)).toBe(at + 60 * MIN);
  });

  test('a reminder that is not due cannot be acknowledged ahead, nor can one that is off', () => {
    expect(acknowledgeReality(fresh, 60, START + 59 * MIN)).toBe(fresh);
    expect(acknowledgeReality(fresh, 0, START + 500 * MIN)).toBe(fresh);
  });

  test('a shorter interval chosen later applies at once, from the session’s start or the last acknowledgement', () => {
    const at = START + 40 * MIN;
    expect(isRealityDue(fresh, 60, at)).toBe(false);
    expect(isRealityDue(fresh, 30, at)).toBe(true);
    const acked = { started_at: START, acknowledged_at: START + 65 * MIN };
    expect(isRealityDue(acked, 15, START + 79 * MIN)).toBe(false);
    expect(isRealityDue(acked, 15, START + 80 * MIN)).toBe(true);
  });
});

describe('time played', () => {
  test('whole minutes since the session started, never below 0', () => {
    expect(minutesPlayed(START, START)).toBe(0);
    expect(minutesPlayed(START, START + 59_999)).toBe(0);
    expect(minutesPlayed(START, START + MIN)).toBe(1);
    expect(minutesPlayed(START, START + 125 * MIN + 30_000)).toBe(125);
    expect(minutesPlayed(START, START - 5000)).toBe(0);
  });

  test('as hours and minutes', () => {
    expect(hoursAndMinutes(0)).toEqual({ hours: 0, minutes: 0 });
    expect(hoursAndMinutes(59)).toEqual({ hours: 0, minutes: 59 });
    expect(hoursAndMinutes(60)).toEqual({ hours: 1, minutes: 0 });
    expect(hoursAndMinutes(125)).toEqual({ hours: 2, minutes: 5 });
    expect(hoursAndMinutes(24 * 60 + 1)).toEqual({ hours: 24, minutes: 1 });
  });

  const resources = loadResources() as unknown as Record<'en' | 'bn', Resources>;
  const t = (lng: 'en' | 'bn'): CountText => {
    const tr = createTranslator(lng, resources[lng]);
    return (key, opts) => tr(key, opts);
  };

  test.each([
    [0, '0 minutes', '০ মিনিট'],
    [1, '1 minute', '১ মিনিট'],
    [45, '45 minutes', '৪৫ মিনিট'],
    [60, '1 hour', '১ ঘণ্টা'],
    [61, '1 hour 1 minute', '১ ঘণ্টা ১ মিনিট'],
    [125, '2 hours 5 minutes', '২ ঘণ্টা ৫ মিনিট'],
    [1500, '25 hours', '২৫ ঘণ্টা'],
  ])('%i minutes in English and in Bengali (Bengali digits)', (minutes, en, bn) => {
    expect(formatPlayTime(minutes, 'en', t('en'))).toBe(en);
    expect(formatPlayTime(minutes, 'bn', t('bn'))).toBe(bn);
  });

  test('tickets counted in the language', () => {
    expect(formatTickets(0, 'en', t('en'))).toBe('0 tickets');
    expect(formatTickets(1, 'en', t('en'))).toBe('1 ticket');
    expect(formatTickets(1234, 'en', t('en'))).toBe('1,234 tickets');
    expect(formatTickets(3, 'bn', t('bn'))).toBe('৩টি টিকিট');
  });
});

describe('the reality_check refusal (shared/play-safe/refusals.ts), worded as run() words it', () => {
  // Its text is worded with the page's own words (formatPlayTime, formatTickets): the session and the tickets read as
  // on the page.
  const resources = loadResources();
  const page = (lng: 'en' | 'bn'): CountText => {
    const tr = createTranslator(lng, (resources as unknown as Record<'en' | 'bn', Resources>)[lng]);
    return (key, opts) => tr(key, opts);
  };
  test.each([
    [0, 0],
    [1, 1],
    [45, 3],
    [60, 1234],
    [61, 2],
    [125, 0],
    [1500, 7],
  ])('%i minutes and %i tickets, in English and in Bengali', async (minutes, tickets) => {
    const i18n = await createI18n(resources);
    const spec = playRefusals.reality_check;
    for (const lng of ['en', 'bn'] as const) {
      const t = i18n.getFixedT(lng);
      const vars = spec.format({ minutes_played: minutes, spent: 1500, tickets }, lng, (key, opts) => t(key, opts));
      const text = t(spec.text, vars);
      expect(text).toContain(` ${formatPlayTime(minutes, lng, page(lng))} `);
      expect(text).toContain(` ${formatTickets(tickets, lng, page(lng))} `);
      expect(text).toContain(formatTaka(1500, lng));
      expect(text).not.toMatch(/\$t\(|\{\{/);
    }
  });
});

/**
 * The TrxID refusals, which English makes of two other texts ($t nesting: play:api.selfExcludedTrxId, timeOutTrxId),
 * are written out in Bengali and must say exactly what their parts say. The reality check's text, with the session's
 * length and the tickets in the profile's words, reads wholly in Bengali.
 */
describe('texts made of other texts, in Bengali', () => {
  const resources = loadResources();
  test.each(['self_excluded_trx_id', 'time_out_trx_id'] as const)('%s: its two parts, in Bengali', async (name) => {
    const t = (await createI18n(resources)).getFixedT('bn');
    const spec = playRefusals[name];
    const params = spec.format({ until: '2026-12-05T14:00:00Z' }, 'bn');
    const text = t(spec.text, params);
    const first = name === 'self_excluded_trx_id' ? 'play:api.selfExcluded' : 'play:api.timeOut';
    expect(text).toBe(`${t(first, params)} ${t('play:api.excludedTrxId', params)}`);
    expect(text).not.toMatch(/[A-Za-z]|\$t\(|\{\{/);
  });
  test.each([1, 60, 125])('the reality check after %i minutes, in Bengali', async (minutes) => {
    const t = (await createI18n(resources)).getFixedT('bn');
    const spec = playRefusals.reality_check;
    const text = t(
      spec.text,
      spec.format({ minutes_played: minutes, spent: 1500, tickets: 2 }, 'bn', (k, o) => t(k, o)),
    );
    expect(text).not.toMatch(/[A-Za-z]|\$t\(|\{\{/);
  });
});
