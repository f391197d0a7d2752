/**
 * Lucky Chance codes as players see and type them (shared/draws/lucky-chance.ts, docs/rules/draws.md#7a-lucky-chance):
 * written `BHG 4821 7730`; typed with or without the prefix, spaces or dashes, in either case, in Bengali digits too.
 */
import { isLuckyCode, normaliseLuckyCode } from '../../shared/draws/lucky-chance.ts';

describe('a Lucky Chance code', () => {
  test.each([
    ['BHG 4821 7730', 'BHG 4821 7730'],
    ['bhg48217730', 'BHG 4821 7730'],
    ['  BHG-4821-7730 ', 'BHG 4821 7730'],
    ['4821 7730', 'BHG 4821 7730'],
    ['48217730', 'BHG 4821 7730'],
    ['BHG ০২৪৫ ১১৫৯', 'BHG 0245 1159'],
    ['ＢＨＧ　４８２１　７７３０', 'BHG 4821 7730'],
  ])('%p is %p', (typed, written) => {
    expect(normaliseLuckyCode(typed)).toBe(written);
    expect(isLuckyCode(written)).toBe(true);
  });

  test.each(['', 'BHG', 'BHG 4821 773', 'BHG 4821 77300', 'BHX 4821 7730', '4821 7730 BHG', 'BHG 4821 77a0', '05-12-23-34-45-07'])(
    '%p is not a code',
    (typed) => {
      expect(normaliseLuckyCode(typed)).toBeNull();
      expect(isLuckyCode(typed)).toBe(false);
    },
  );

  test('only the written form is one as the server writes it', () => {
    expect(isLuckyCode('bhg 4821 7730')).toBe(false);
    expect(isLuckyCode('BHG48217730')).toBe(false);
    expect(isLuckyCode(42)).toBe(false);
  });
});
