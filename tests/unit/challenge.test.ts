/**
 * The challenge behind an address with many failures (server/accounts/challenge.ts, docs/rules/limits.md#1-rate-limits):
 * the question's range, a token that holds no answer, checked only under its key, within its time.
 */
import { answerOf, CHALLENGE, newQuestion, readToken, tokenFor } from '../../server/accounts/challenge.ts';

const KEY = 'challenge:test-secret-of-at-least-32-characters';
const NOW = 1_800_000_000;
const NONCE = 'AAAAAAAAAAAAAAAAAAAAAA';

describe('newQuestion', () => {
  test('a two-digit number and a one-digit one, from the ranges, with the picker given', () => {
    const asked: [number, number][] = [];
    const q = newQuestion((min, max) => (asked.push([min, max]), max));
    expect(asked).toEqual([[...CHALLENGE.first], [...CHALLENGE.second]]);
    expect(q).toEqual({ a: CHALLENGE.first[1], b: CHALLENGE.second[1] });
    expect(answerOf(q)).toBe(CHALLENGE.first[1] + CHALLENGE.second[1]);
  });
  test('with crypto: always within the ranges', () => {
    for (let i = 0; i < 200; i++) {
      const { a, b } = newQuestion();
      expect(a).toBeGreaterThanOrEqual(CHALLENGE.first[0]);
      expect(a).toBeLessThanOrEqual(CHALLENGE.first[1]);
      expect(b).toBeGreaterThanOrEqual(CHALLENGE.second[0]);
      expect(b).toBeLessThanOrEqual(CHALLENGE.second[1]);
    }
  });
});

describe('tokenFor and readToken', () => {
  const q = { a: 17, b: 5 };
  const token = tokenFor(KEY, q, NOW, NONCE);

  test('the right answer is read as right, leading zeros and all; the answer is not in the token', () => {
    expect(readToken(KEY, token, '22', NOW)).toEqual({ kind: 'read', nonce: NONCE, right: true });
    expect(readToken(KEY, token, '022', NOW + 60)).toEqual({ kind: 'read', nonce: NONCE, right: true });
    expect(token.split('.')).toHaveLength(4);
    expect(token.split('.')).not.toContain('22');
    expect(token).toContain(String(NOW + CHALLENGE.ttlSec));
  });

  test.each(['21', '23', '', '22 ', '2 2', '-22', '22.0', 'twenty-two', '1234567'])('a wrong answer %j is wrong', (answer) => {
    expect(readToken(KEY, token, answer, NOW)).toEqual({ kind: 'read', nonce: NONCE, right: false });
  });

  test('past its time, under another key, or changed in any part, the token is expired', () => {
    expect(readToken(KEY, token, '22', NOW + CHALLENGE.ttlSec)).toEqual({ kind: 'expired' });
    expect(readToken(KEY, token, '22', NOW + CHALLENGE.ttlSec - 1).kind).toBe('read');
    expect(readToken(`${KEY}x`, token, '22', NOW)).toEqual({ kind: 'expired' });
    const [nonce, expires, check, seal] = token.split('.') as [string, string, string, string];
    const later = tokenFor(KEY, q, NOW + 10_000, NONCE).split('.');
    for (const changed of [
      [`B${nonce.slice(1)}`, expires, check, seal], // NONCE is all 'A'
      [nonce, String(Number(expires) + 3600), check, seal],
      [nonce, expires, tokenFor(KEY, { a: 17, b: 6 }, NOW, NONCE).split('.')[2], seal],
      [nonce, later[1], later[2], seal],
      [nonce, expires, check, `${seal.slice(0, -1)}${seal.endsWith('A') ? 'B' : 'A'}`],
    ])
      expect(readToken(KEY, changed.join('.'), '22', NOW)).toEqual({ kind: 'expired' });
    for (const junk of ['', 'x', `${token}.x`, token.replace(/\./g, ':')])
      expect(readToken(KEY, junk, '22', NOW)).toEqual({ kind: 'expired' });
  });

  test('each token has its own nonce, so two questions with one answer have different checks', () => {
    const a = tokenFor(KEY, q, NOW).split('.');
    const b = tokenFor(KEY, q, NOW).split('.');
    expect(a[0]).not.toBe(b[0]);
    expect(a[2]).not.toBe(b[2]);
  });
});
