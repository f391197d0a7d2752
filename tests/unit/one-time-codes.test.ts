import { CODE_RULES, CODE_TTL_SEC, MAX_CODE_ATTEMPTS, type CodePurpose, generateCode } from '../../shared/one-time-codes.ts';

test('the rules: 6 digits/120 s, 6/60 s, 6/30 s, 10 minutes, 5 attempts', () => {
  expect(CODE_RULES).toEqual({
    account: { length: 6, resendAfterSec: 120 },
    reset: { length: 6, resendAfterSec: 60 },
    claim: { length: 6, resendAfterSec: 30 },
  });
  expect(CODE_TTL_SEC).toBe(600);
  expect(MAX_CODE_ATTEMPTS).toBe(5);
});

describe('generateCode', () => {
  test.each<[CodePurpose, number]>([
    ['account', 6],
    ['reset', 6],
    ['claim', 6],
  ])('%s codes are %i ASCII digits', (purpose, length) => {
    for (let i = 0; i < 200; i++) {
      const code = generateCode(purpose);
      expect(code).toHaveLength(length);
      expect(code).toMatch(/^[0-9]+$/);
    }
  });

  test('keeps leading zeros and uses the given source', () => {
    const digits = [0, 0, 7, 9, 1, 3];
    let i = 0;
    expect(generateCode('reset', (max) => (expect(max).toBe(10), digits[i++] as number))).toBe('007913');
  });

  test('throws when the source goes out of range', () => {
    expect(() => generateCode('account', () => 10)).toThrow(RangeError);
  });
});
