import {
  INVALID_DATE,
  bnDayPeriod,
  countdown,
  dhakaDateInputValue,
  dhakaLocalToIso,
  formatDate,
  formatNumber,
  nextSaturdayDraw,
  parseIso,
  toAsciiDigits,
  toDigits,
} from '../../shared/dates.ts';

const ms = (iso: string) => Date.parse(iso);

describe('parseIso', () => {
  test.each([
    ['2026-11-28T14:00:00.000Z', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28T14:00:00Z', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28T14:00Z', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28T20:00:00+06:00', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28T20:00:00+0600', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28 14:00:00+00', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28 14:00:00.123456+00', '2026-11-28T14:00:00.123Z'],
    ['2026-11-28T09:00:00-05:00', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28T14:00:00', '2026-11-28T14:00:00.000Z'],
    ['2026-11-28', '2026-11-28T00:00:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('%j is %s (no offset means UTC)', (input, expected) => {
    expect(new Date(parseIso(input) as number).toISOString()).toBe(expected);
  });

  test.each([
    '',
    'bad',
    'Nov 28 2026',
    '28/11/2026',
    '2026-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-11-28T24:00:00Z',
    '2026-11-28T12:60:00Z',
    '2026-11-28T12:00:60Z',
    '2026-11-28T12:00:00+25:00',
    '1764338400000',
  ])('rejects %j', (input) => {
    expect(parseIso(input)).toBeNull();
  });

  test('accepts a Date, rejects an invalid Date', () => {
    expect(parseIso(new Date('2026-11-28T14:00:00Z'))).toBe(ms('2026-11-28T14:00:00Z'));
    expect(parseIso(new Date(Number.NaN))).toBeNull();
  });
});

describe('formatDate', () => {
  test.each([
    ['2026-11-29T14:00:00Z', '29 Nov 2026', '২৯ নভেম্বর ২০২৬'],
    ['2026-01-01T00:00:00Z', '1 Jan 2026', '১ জানুয়ারি ২০২৬'],
    ['2026-05-01T00:00:00Z', '1 May 2026', '১ মে ২০২৬'],
    ['2026-02-10T00:00:00Z', '10 Feb 2026', '১০ ফেব্রুয়ারি ২০২৬'],
    ['2026-09-30T00:00:00Z', '30 Sept 2026', '৩০ সেপ্টেম্বর ২০২৬'],
  ])('%s → %j / %j', (iso, en, bn) => {
    expect(formatDate(iso, 'en')).toBe(en);
    expect(formatDate(iso, 'bn')).toBe(bn);
  });

  test('with time: Saturday 14:00 UTC is 8:00 PM in Dhaka', () => {
    expect(formatDate('2026-11-28T14:00:00Z', 'en', { withTime: true })).toBe('28 Nov 2026, 8:00 PM');
    expect(formatDate('2026-11-28T14:00:00Z', 'bn', { withTime: true })).toBe('২৮ নভেম্বর ২০২৬, রাত ৮:০০');
  });

  test('Bengali month names are those ICU gives, with no comma before the year', () => {
    const icu = new Intl.DateTimeFormat('bn-BD', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'long', year: 'numeric' });
    for (let month = 0; month < 12; month++) {
      const d = new Date(Date.UTC(2026, month, 15, 6));
      expect(formatDate(d, 'bn')).toBe(icu.format(d).replace(',', ''));
    }
  });

  // Bengali names the part of the day first, in everyday words; the bounds are Dhaka hours.
  test.each([
    ['2026-11-27T18:00:00Z', '২৮ নভেম্বর ২০২৬, রাত ১২:০০', '28 Nov 2026, 12:00 AM'],
    ['2026-11-27T21:59:00Z', '২৮ নভেম্বর ২০২৬, রাত ৩:৫৯', '28 Nov 2026, 3:59 AM'],
    ['2026-11-27T22:00:00Z', '২৮ নভেম্বর ২০২৬, ভোর ৪:০০', '28 Nov 2026, 4:00 AM'],
    ['2026-11-27T23:59:00Z', '২৮ নভেম্বর ২০২৬, ভোর ৫:৫৯', '28 Nov 2026, 5:59 AM'],
    ['2026-11-28T00:00:00Z', '২৮ নভেম্বর ২০২৬, সকাল ৬:০০', '28 Nov 2026, 6:00 AM'],
    ['2026-11-28T03:00:00Z', '২৮ নভেম্বর ২০২৬, সকাল ৯:০০', '28 Nov 2026, 9:00 AM'],
    ['2026-11-28T05:59:00Z', '২৮ নভেম্বর ২০২৬, সকাল ১১:৫৯', '28 Nov 2026, 11:59 AM'],
    ['2026-11-28T06:00:00Z', '২৮ নভেম্বর ২০২৬, দুপুর ১২:০০', '28 Nov 2026, 12:00 PM'],
    ['2026-11-28T06:30:00Z', '২৮ নভেম্বর ২০২৬, দুপুর ১২:৩০', '28 Nov 2026, 12:30 PM'],
    ['2026-11-28T08:59:00Z', '২৮ নভেম্বর ২০২৬, দুপুর ২:৫৯', '28 Nov 2026, 2:59 PM'],
    ['2026-11-28T09:00:00Z', '২৮ নভেম্বর ২০২৬, বিকেল ৩:০০', '28 Nov 2026, 3:00 PM'],
    ['2026-11-28T11:00:00Z', '২৮ নভেম্বর ২০২৬, বিকেল ৫:০০', '28 Nov 2026, 5:00 PM'],
    ['2026-11-28T12:00:00Z', '২৮ নভেম্বর ২০২৬, সন্ধ্যা ৬:০০', '28 Nov 2026, 6:00 PM'],
    ['2026-11-28T12:30:00Z', '২৮ নভেম্বর ২০২৬, সন্ধ্যা ৬:৩০', '28 Nov 2026, 6:30 PM'],
    ['2026-11-28T13:59:00Z', '২৮ নভেম্বর ২০২৬, সন্ধ্যা ৭:৫৯', '28 Nov 2026, 7:59 PM'],
    ['2026-11-28T14:00:00Z', '২৮ নভেম্বর ২০২৬, রাত ৮:০০', '28 Nov 2026, 8:00 PM'],
    ['2026-11-28T17:59:00Z', '২৮ নভেম্বর ২০২৬, রাত ১১:৫৯', '28 Nov 2026, 11:59 PM'],
    ['2026-12-31T18:05:00Z', '১ জানুয়ারি ২০২৭, রাত ১২:০৫', '1 Jan 2027, 12:05 AM'],
  ])('%s → %j / %j', (iso, bn, en) => {
    expect(formatDate(iso, 'bn', { withTime: true })).toBe(bn);
    expect(formatDate(iso, 'en', { withTime: true })).toBe(en);
  });

  test('every Dhaka hour has exactly the part of the day of its band', () => {
    const bands: [number, number, string][] = [
      [0, 4, 'রাত'],
      [4, 6, 'ভোর'],
      [6, 12, 'সকাল'],
      [12, 15, 'দুপুর'],
      [15, 18, 'বিকেল'],
      [18, 20, 'সন্ধ্যা'],
      [20, 24, 'রাত'],
    ];
    for (const [from, to, word] of bands) for (let h = from; h < to; h++) expect([h, bnDayPeriod(h)]).toEqual([h, word]);
  });

  test.each([
    ['2026-11-28T17:59:59Z', '28 Nov 2026, 11:59 PM'],
    ['2026-11-28T18:00:00Z', '29 Nov 2026, 12:00 AM'],
    ['2026-12-31T18:30:00Z', '1 Jan 2027, 12:30 AM'],
    ['2026-11-28T00:00:00Z', '28 Nov 2026, 6:00 AM'],
  ])('Dhaka is UTC+6 across the UTC day boundary: %s → %s', (iso, en) => {
    expect(formatDate(iso, 'en', { withTime: true })).toBe(en);
  });

  test('the Dhaka date of 18:00 UTC is the next day in Bengali too', () => {
    expect(formatDate('2026-11-28T18:00:00Z', 'bn')).toBe('২৯ নভেম্বর ২০২৬');
  });

  test('a PostgreSQL timestamptz text and a Date give the same as the ISO string', () => {
    const expected = formatDate('2026-11-28T14:00:00.000Z', 'en', { withTime: true });
    expect(formatDate('2026-11-28 14:00:00+00', 'en', { withTime: true })).toBe(expected);
    expect(formatDate(new Date('2026-11-28T14:00:00Z'), 'en', { withTime: true })).toBe(expected);
  });

  test.each(['', 'not a date', '2026-02-30', '2026-11-28T25:00:00Z'])(
    'unparseable %j gives null (callers show the translated text)',
    (iso) => {
      expect(formatDate(iso, 'en')).toBeNull();
      expect(formatDate(iso, 'bn', { withTime: true })).toBeNull();
    },
  );

  test('INVALID_DATE is the English text', () => {
    expect(INVALID_DATE).toBe('Invalid date');
  });
});

describe('countdown', () => {
  const end = '2026-11-28T14:00:00Z';
  const endMs = ms(end);
  test.each([
    [endMs - ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000, { days: 2, hours: 3, minutes: 4, seconds: 5, done: false }],
    [endMs - 1000, { days: 0, hours: 0, minutes: 0, seconds: 1, done: false }],
    [endMs - 1, { days: 0, hours: 0, minutes: 0, seconds: 1, done: false }],
    [endMs - 1001, { days: 0, hours: 0, minutes: 0, seconds: 2, done: false }],
    [endMs - 86_400_000, { days: 1, hours: 0, minutes: 0, seconds: 0, done: false }],
    [endMs - 3_600_000, { days: 0, hours: 1, minutes: 0, seconds: 0, done: false }],
    [endMs, { days: 0, hours: 0, minutes: 0, seconds: 0, done: true }],
    [endMs + 1, { days: 0, hours: 0, minutes: 0, seconds: 0, done: true }],
    [endMs + 86_400_000 * 30, { days: 0, hours: 0, minutes: 0, seconds: 0, done: true }],
  ])('at %i', (now, expected) => {
    expect(countdown(end, now)).toEqual(expected);
  });

  test('null for an unparseable end or now', () => {
    expect(countdown('soon', endMs)).toBeNull();
    expect(countdown(end, Number.NaN)).toBeNull();
  });
});

describe('digits and numbers', () => {
  test.each([
    ['0123456789', '০১২৩৪৫৬৭৮৯'],
    ['TK. 1,000', 'TK. ১,০০০'],
    ['abc', 'abc'],
    ['', ''],
  ])('toDigits(%j, bn) → %j, en leaves it as is', (s, bn) => {
    expect(toDigits(s, 'bn')).toBe(bn);
    expect(toDigits(s, 'en')).toBe(s);
  });

  test('toAsciiDigits reads Bengali digits and leaves the rest', () => {
    expect(toAsciiDigits('০১৭১২-৩৪৫৬৭৮')).toBe('01712-345678');
    expect(toAsciiDigits('abc 12')).toBe('abc 12');
  });

  test.each<[number | bigint, string, string]>([
    [0, '0', '০'],
    [999, '999', '৯৯৯'],
    [1000, '1,000', '১,০০০'],
    [100000, '100,000', '১,০০,০০০'],
    [1000000, '1,000,000', '১০,০০,০০০'],
    [10000000, '10,000,000', '১,০০,০০,০০০'],
    [120000n, '120,000', '১,২০,০০০'],
  ])('formatNumber(%p)', (n, en, bn) => {
    expect(formatNumber(n, 'en')).toBe(en);
    expect(formatNumber(n, 'bn')).toBe(bn);
  });
});

describe('dhakaDateInputValue', () => {
  test.each([
    ['2026-11-28T17:59:59.999Z', '2026-11-28'],
    ['2026-11-28T18:00:00Z', '2026-11-29'],
    ['2026-12-31T18:00:00Z', '2027-01-01'],
    ['2026-03-01T05:59:59Z', '2026-03-01'],
    ['2026-02-28T18:00:00Z', '2026-03-01'],
    ['2026-11-28 14:00:00+00', '2026-11-28'],
  ])('%s → %s', (iso, expected) => {
    expect(dhakaDateInputValue(iso)).toBe(expected);
  });
  test('null for garbage', () => {
    expect(dhakaDateInputValue('x')).toBeNull();
  });
});

describe('dhakaLocalToIso', () => {
  test.each([
    ['2026-11-28', undefined, '2026-11-28T14:00:00.000Z'],
    ['2026-11-28', '00:00', '2026-11-27T18:00:00.000Z'],
    ['2026-11-28', '23:59', '2026-11-28T17:59:00.000Z'],
  ])('%s %s Dhaka → %s', (date, time, expected) => {
    expect(dhakaLocalToIso(date, time)).toBe(expected);
  });
  test.each([
    ['2026-02-30', '20:00'],
    ['28-11-2026', '20:00'],
    ['2026-11-28', '24:00'],
    ['2026-11-28', '8pm'],
  ])('null for %s %s', (date, time) => {
    expect(dhakaLocalToIso(date, time)).toBeNull();
  });
  test('round trip with dhakaDateInputValue', () => {
    expect(dhakaDateInputValue(dhakaLocalToIso('2026-11-28', '00:00') as string)).toBe('2026-11-28');
  });
});

describe('nextSaturdayDraw (Saturday 20:00 Dhaka = 14:00 UTC)', () => {
  test.each([
    ['Wednesday noon UTC', '2026-11-25T12:00:00Z', '2026-11-28T14:00:00.000Z'],
    ['Saturday 19:59:59.999 Dhaka', '2026-11-28T13:59:59.999Z', '2026-11-28T14:00:00.000Z'],
    ['exactly at the draw (strictly after → next week)', '2026-11-28T14:00:00Z', '2026-12-05T14:00:00.000Z'],
    ['just after the draw', '2026-11-28T14:00:00.001Z', '2026-12-05T14:00:00.000Z'],
    ['Friday 20:00 UTC = Saturday 02:00 Dhaka', '2026-11-27T20:00:00Z', '2026-11-28T14:00:00.000Z'],
    ['Friday 17:59 UTC = Friday 23:59 Dhaka', '2026-11-27T17:59:00Z', '2026-11-28T14:00:00.000Z'],
    ['Saturday 18:00 UTC = Sunday 00:00 Dhaka', '2026-11-28T18:00:00Z', '2026-12-05T14:00:00.000Z'],
    ['Sunday', '2026-11-29T00:00:00Z', '2026-12-05T14:00:00.000Z'],
    ['across the year', '2026-12-27T00:00:00Z', '2027-01-02T14:00:00.000Z'],
  ])('%s', (_name, from, expected) => {
    const result = nextSaturdayDraw(ms(from));
    expect(result).toBe(expected);
    expect(new Date(result).getUTCDay()).toBe(6);
    expect(ms(result)).toBeGreaterThan(ms(from));
    expect(ms(result) - ms(from)).toBeLessThanOrEqual(7 * 86_400_000);
  });

  test('is shown as Saturday 8:00 PM', () => {
    expect(formatDate(nextSaturdayDraw(ms('2026-11-25T12:00:00Z')), 'en', { withTime: true })).toBe('28 Nov 2026, 8:00 PM');
    expect(formatDate(nextSaturdayDraw(ms('2026-11-25T12:00:00Z')), 'bn', { withTime: true })).toBe('২৮ নভেম্বর ২০২৬, রাত ৮:০০');
  });
});
