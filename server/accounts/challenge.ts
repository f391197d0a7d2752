import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { refuse } from '../../shared/api/refusals.ts';
import type { Language } from '../../shared/i18n.ts';
import type { Db } from '../db/index.ts';
import type { Texts } from '../i18n.ts';

/**
 * The challenge a person answers when his address has had many failures and his device is not known
 * (docs/rules/limits.md#1-rate-limits, docs/decisions/050-login-question.md): a small sum in
 * the visitor's language, rendered in the form itself (no JavaScript, no third-party service). Its answer is checked
 * against a signed, short-lived token the question came with; a token is taken once, right or wrong.
 */
export const CHALLENGE = {
  /** How long a question may be answered. */
  ttlSec: 10 * 60,
  /** The sum's parts: a two-digit number and a one-digit one (answers 13 to 48). */
  first: [11, 39],
  second: [2, 9],
} as const;

export type Question = { a: number; b: number };

/** A new question; `pick(min, max)` gives a whole number in [min, max] (the default is crypto's). */
export function newQuestion(pick: (min: number, max: number) => number = (min, max) => randomInt(min, max + 1)): Question {
  return { a: pick(...CHALLENGE.first), b: pick(...CHALLENGE.second) };
}

export const answerOf = (q: Question): number => q.a + q.b;

const mac = (key: string, text: string): string => createHmac('sha256', key).update(text, 'utf8').digest('base64url');

const same = (x: string, y: string): boolean => {
  const a = Buffer.from(x);
  const b = Buffer.from(y);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** A token: `nonce.expires.check.seal`; the check binds the answer, the seal the whole token, both under the key. */
const TOKEN = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

/** The token of a question: its answer is not in it, only an HMAC of it (the key derived from SECRET_KEY). */
export function tokenFor(key: string, q: Question, nowSec: number, nonce = randomBytes(16).toString('base64url')): string {
  const expires = nowSec + CHALLENGE.ttlSec;
  const check = mac(key, `answer:${nonce}:${answerOf(q)}`);
  return `${nonce}.${expires}.${check}.${mac(key, `token:${nonce}.${expires}.${check}`)}`;
}

export type Reading = { kind: 'expired' } | { kind: 'read'; nonce: string; right: boolean };

/**
 * What a token and an answer say (pure): `expired` for a token not ours, changed, or past its time; else whether the
 * answer is right. The answer is read as typed: ASCII digits, Bengali ones already made ASCII by the schema.
 */
export function readToken(key: string, token: string, answer: string, nowSec: number): Reading {
  const m = TOKEN.exec(token);
  if (!m) return { kind: 'expired' };
  const [, nonce, expires, check, seal] = m as unknown as [string, string, string, string, string];
  if (!same(seal, mac(key, `token:${nonce}.${expires}.${check}`)) || Number(expires) <= nowSec) return { kind: 'expired' };
  const given = /^\d{1,6}$/.test(answer) ? String(Number(answer)) : '';
  return { kind: 'read', nonce, right: given !== '' && same(check, mac(key, `answer:${nonce}:${given}`)) };
}

/** What a request sends with a challenge's answer (null: nothing). */
export type ChallengeAnswer = { challenge_token?: string | null; challenge_answer?: string | null };

export class Challenges {
  private readonly key: string;
  private readonly db: Db;
  private readonly texts: Texts;
  constructor(
    db: Db,
    secret: string,
    /** The app's texts: the question is asked in the visitor's language. */
    texts: Texts,
  ) {
    this.db = db;
    this.texts = texts;
    this.key = `challenge:${secret}`;
  }

  /** A new question in the visitor's language and its token, as a refusal's body carries them. */
  issue(lng: Language): { question: string; token: string } {
    const q = newQuestion();
    return {
      question: this.texts('api:challengeQuestion', { a: q.a, b: q.b, lng }),
      token: tokenFor(this.key, q, Math.floor(Date.now() / 1000)),
    };
  }

  /**
   * Lets the request on when it answers a question right with a token not used before; else refuses (428) with a
   * new question in `lng`: `challenge_required` (no answer sent), `challenge_expired` (a token used, changed or too
   * old), `challenge_wrong`. A token read is taken, right or wrong, so each question gets one answer.
   */
  async pass(sent: ChallengeAnswer, lng: Language): Promise<void> {
    const again: (name: 'challenge_required' | 'challenge_expired' | 'challenge_wrong') => never = (name) =>
      refuse(name, { extra: { challenge: this.issue(lng) } });
    if (!sent.challenge_token || !sent.challenge_answer) again('challenge_required');
    const r = readToken(this.key, sent.challenge_token, sent.challenge_answer, Math.floor(Date.now() / 1000));
    if (r.kind === 'expired' || !(await this.take(r.nonce))) again('challenge_expired');
    if (!r.right) again('challenge_wrong');
  }

  /** Marks a token's nonce used; false when it was. Kept with the rate limits' windows (pruned after a day). */
  private async take(nonce: string): Promise<boolean> {
    const row = await this.db.one<{ key: string }>(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now(), 1) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [`challenge:used:${nonce}`],
    );
    return row !== undefined;
  }
}
