/**
 * One-time codes (spec §9): account verification 5 digits / 120 s resend wait,
 * password reset 6 digits / 60 s, prize claim 6 digits / 30 s. Codes live 10 minutes and
 * allow 5 wrong tries. Pure rules: the server stores only hashes and the record fields below.
 */
import { cryptoRandomInt, type RandomInt } from './ticket.ts';

export type CodePurpose = 'account' | 'reset' | 'claim';

export const CODE_RULES = {
  account: { length: 5, resendAfterSec: 120 },
  reset: { length: 6, resendAfterSec: 60 },
  claim: { length: 6, resendAfterSec: 30 },
} as const satisfies Record<CodePurpose, { length: number; resendAfterSec: number }>;

export const CODE_TTL_SEC = 600;
/** Wrong tries allowed per code: with 4 recorded the 5th try is still checked, with 5 recorded the code is dead. */
export const MAX_CODE_ATTEMPTS = 5;

export type CodeRecord = {
  createdAt: number;
  /** createdAt + CODE_TTL_SEC * 1000; the code is expired from this instant on. */
  expiresAt: number;
  /** Wrong tries recorded so far. */
  attempts: number;
  consumedAt: number | null;
};

export type CodeState = 'usable' | 'expired' | 'exhausted' | 'consumed';

/** Exactly the purpose's number of ASCII digits. */
export function isCodeFormat(purpose: CodePurpose, code: string): boolean {
  return typeof code === 'string' && code.length === CODE_RULES[purpose].length && /^[0-9]+$/.test(code);
}

export const codeExpiresAt = (createdAtMs: number): number => createdAtMs + CODE_TTL_SEC * 1000;

/** Precedence: consumed, then expired, then exhausted. */
export function codeState(record: CodeRecord, nowMs: number): CodeState {
  if (record.consumedAt !== null) return 'consumed';
  if (nowMs >= record.expiresAt) return 'expired';
  if (record.attempts >= MAX_CODE_ATTEMPTS) return 'exhausted';
  return 'usable';
}

/** Whole seconds to wait before another code may be sent (rounded up); 0 when allowed or never sent. */
export function secondsUntilResend(purpose: CodePurpose, lastSentAtMs: number | null, nowMs: number): number {
  if (lastSentAtMs === null) return 0;
  const wait = CODE_RULES[purpose].resendAfterSec;
  const left = Math.ceil((lastSentAtMs + wait * 1000 - nowMs) / 1000);
  // A send time in the future (clock skew) never asks for more than one full wait.
  return Math.min(wait, Math.max(0, left));
}

/** A fresh code of the purpose's length, uniformly random digits (leading zeros possible). */
export function generateCode(purpose: CodePurpose, rand: RandomInt = cryptoRandomInt): string {
  let code = '';
  for (let i = 0; i < CODE_RULES[purpose].length; i++) {
    const digit = rand(10);
    if (!Number.isInteger(digit) || digit < 0 || digit > 9) throw new RangeError(`random source returned ${digit} for 10`);
    code += String(digit);
  }
  return code;
}
