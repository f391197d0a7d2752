import {
  CODE_RULES,
  CODE_TTL_SEC,
  MAX_CODE_ATTEMPTS,
  type CodePurpose,
  type CodeRecord,
  codeExpiresAt,
  codeState,
  generateCode,
  isCodeFormat,
  secondsUntilResend,
} from '../../shared/one-time-codes.ts';

test('the rules of the spec: 5 digits/120 s, 6/60 s, 6/30 s, 10 minutes, 5 attempts', () => {
  expect(CODE_RULES).toEqual({
    account: { length: 5, resendAfterSec: 120 },
    reset: { length: 6, resendAfterSec: 60 },
    claim: { length: 6, resendAfterSec: 30 },
  });
  expect(CODE_TTL_SEC).toBe(600);
  expect(MAX_CODE_ATTEMPTS).toBe(5);
});

describe('isCodeFormat', () => {
  test.each<[CodePurpose, string, boolean]>([
    ['account', '12345', true],
    ['account', '00000', true],
    ['account', '1234', false],
    ['account', '123456', false],
    ['reset', '123456', true],
    ['reset', '012345', true],
    ['reset', '12345', false],
    ['reset', '1234567', false],
    ['claim', '999999', true],
    ['claim', '99999', false],
    ['account', '1234a', false],
    ['account', ' 12345', false],
    ['account', '12 45', false],
    ['account', '-1234', false],
    ['account', '১২৩৪৫', false],
    ['account', '１２３４５', false],
    ['reset', '', false],
  ])('%s %j → %p', (purpose, code, ok) => {
    expect(isCodeFormat(purpose, code)).toBe(ok);
  });

  test('rejects a non-string at run time', () => {
    expect(isCodeFormat('account', 12345 as unknown as string)).toBe(false);
  });
});

describe('codeState', () => {
  const created = Date.parse('2026-11-28T10:00:00Z');
  const record = (over: Partial<CodeRecord> = {}): CodeRecord => ({
    createdAt: created,
    expiresAt: codeExpiresAt(created),
    attempts: 0,
    consumedAt: null,
    ...over,
  });

  test('codeExpiresAt is ten minutes later', () => {
    expect(codeExpiresAt(created) - created).toBe(600_000);
  });

  test.each([
    ['right after sending', 0, 'usable'],
    ['9:59.999 later', 599_999, 'usable'],
    ['exactly 10 minutes later', 600_000, 'expired'],
    ['after 10 minutes', 600_001, 'expired'],
    ['an hour later', 3_600_000, 'expired'],
  ])('%s → %s', (_name, elapsed, state) => {
    expect(codeState(record(), created + elapsed)).toBe(state);
  });

  test.each([
    [0, 'usable'],
    [4, 'usable'], // the 5th try is still checked
    [5, 'exhausted'], // a 6th try is refused
    [6, 'exhausted'],
  ])('%i wrong tries recorded → %s', (attempts, state) => {
    expect(codeState(record({ attempts }), created + 1000)).toBe(state);
  });

  test('a consumed code is consumed, whatever else holds', () => {
    expect(codeState(record({ consumedAt: created + 5000 }), created + 6000)).toBe('consumed');
    expect(codeState(record({ consumedAt: created + 5000, attempts: 5 }), created + 700_000)).toBe('consumed');
  });

  test('expiry wins over exhaustion', () => {
    expect(codeState(record({ attempts: 5 }), created + 600_000)).toBe('expired');
  });
});

describe('secondsUntilResend', () => {
  const sent = Date.parse('2026-11-28T10:00:00Z');
  test.each<[CodePurpose, number, number]>([
    ['account', 0, 120],
    ['account', 1, 120],
    ['account', 1000, 119],
    ['account', 119_000, 1],
    ['account', 119_999, 1],
    ['account', 120_000, 0],
    ['account', 500_000, 0],
    ['reset', 0, 60],
    ['reset', 59_001, 1],
    ['reset', 60_000, 0],
    ['claim', 0, 30],
    ['claim', 29_999, 1],
    ['claim', 30_000, 0],
    ['claim', 45_000, 0],
  ])('%s, %i ms after sending → %i s', (purpose, elapsed, seconds) => {
    expect(secondsUntilResend(purpose, sent, sent + elapsed)).toBe(seconds);
  });

  test('0 when no code was sent yet', () => {
    expect(secondsUntilResend('account', null, sent)).toBe(0);
  });

  test('a send time in the future never asks for more than one full wait', () => {
    expect(secondsUntilResend('claim', sent + 3_600_000, sent)).toBe(30);
  });
});

describe('generateCode', () => {
  test.each<[CodePurpose, number]>([['account', 5], ['reset', 6], ['claim', 6]])('%s codes have %i digits and pass isCodeFormat', (purpose, length) => {
    for (let i = 0; i < 200; i++) {
      const code = generateCode(purpose);
      expect(code).toHaveLength(length);
      expect(isCodeFormat(purpose, code)).toBe(true);
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
