import { NO_AMOUNT, formatTaka, parseWholeTaka, splitPrize } from '../../shared/money.ts';

describe('formatTaka', () => {
  test.each<[number | string | bigint, string, string]>([
    [0, 'TK. 0', '৳০'],
    [5, 'TK. 5', '৳৫'],
    [100, 'TK. 100', '৳১০০'],
    [1000, 'TK. 1,000', '৳১,০০০'],
    [25000, 'TK. 25,000', '৳২৫,০০০'],
    [100000, 'TK. 100,000', '৳১,০০,০০০'],
    [1000000, 'TK. 1,000,000', '৳১০,০০,০০০'],
    [100000000, 'TK. 100,000,000', '৳১০,০০,০০,০০০'],
    ['1000', 'TK. 1,000', '৳১,০০০'],
    ['1000.00', 'TK. 1,000', '৳১,০০০'],
    ['1000.0', 'TK. 1,000', '৳১,০০০'],
    [' 1000 ', 'TK. 1,000', '৳১,০০০'],
    ['0.00', 'TK. 0', '৳০'],
    ['1000.50', 'TK. 1,000.50', '৳১,০০০.৫০'],
    ['1000.5', 'TK. 1,000.50', '৳১,০০০.৫০'],
    ['-250', '-TK. 250', '-৳২৫০'],
    ['-0.00', 'TK. 0', '৳০'],
    [12345678901234567890n, 'TK. 12,345,678,901,234,567,890', '৳১,২৩,৪৫,৬৭,৮৯,০১,২৩,৪৫,৬৭,৮৯০'],
  ])('%p → %j / %j', (amount, en, bn) => {
    expect(formatTaka(amount, 'en')).toBe(en);
    expect(formatTaka(amount, 'bn')).toBe(bn);
  });

  test('a NUMERIC string beyond 2^53 keeps every digit (no float conversion)', () => {
    expect(formatTaka('9007199254740993.00', 'en')).toBe('TK. 9,007,199,254,740,993');
  });

  test.each<[unknown]>([
    ['abc'],
    [''],
    ['  '],
    ['1,000'],
    ['1e3'],
    ['TK. 5'],
    ['.5'],
    ['5.'],
    ['--5'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [null],
    [undefined],
    [{}],
  ])('non-numeric %p gives the dash', (amount) => {
    expect(formatTaka(amount as string, 'en')).toBe(NO_AMOUNT);
    expect(formatTaka(amount as string, 'bn')).toBe(NO_AMOUNT);
  });
});

describe('parseWholeTaka', () => {
  test.each<[number | string | bigint, number | null]>([
    [1000, 1000],
    ['1000', 1000],
    ['1000.00', 1000],
    ['0', 0],
    ['-5', -5],
    [42n, 42],
    ['1000.50', null],
    [10.5, null],
    ['abc', null],
    ['', null],
    [String(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER],
    ['9007199254740992', null],
  ])('%p → %p', (amount, expected) => {
    expect(parseWholeTaka(amount)).toBe(expected);
  });
});

describe('splitPrize', () => {
  test.each([
    [100000, 4, 25000, 0],
    [100000, 3, 33333, 1],
    [100, 7, 14, 2],
    [1000, 1, 1000, 0],
    [5, 10, 0, 5],
    [1, 1, 1, 0],
    [Number.MAX_SAFE_INTEGER, 3, 3002399751580330, 1],
    [Number.MAX_SAFE_INTEGER, 2, 4503599627370495, 1],
  ])('total %i among %i winners: %i each, %i stays in the pool', (total, winners, each, remainder) => {
    const split = splitPrize(total, winners);
    expect(split).toEqual({ each, remainder });
    expect(split.each * winners + split.remainder).toBe(total);
    expect(split.remainder).toBeLessThan(winners);
  });

  test.each([
    [0, 1],
    [-100, 2],
    [100, 0],
    [100, -1],
    [100.5, 2],
    [100, 1.5],
    [Number.NaN, 1],
    [100, Number.POSITIVE_INFINITY],
    [2 ** 53, 2],
  ])('throws for total %p and winners %p', (total, winners) => {
    expect(() => splitPrize(total, winners)).toThrow(RangeError);
  });
});
