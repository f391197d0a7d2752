/**
 * One-time codes: account verification 6 digits / 120 s resend wait,
 * password reset 6 digits / 60 s, prize claim 6 digits / 30 s. Codes live 10 minutes and
 * allow 5 wrong tries (docs/rules/accounts-and-codes.md). The server stores only hashes (server/accounts/codes.ts).
 */
import { cryptoRandomInt, type RandomInt } from './ticket.ts';

export type CodePurpose = 'account' | 'reset' | 'claim';

export const CODE_RULES = {
  account: { length: 6, resendAfterSec: 120 },
  reset: { length: 6, resendAfterSec: 60 },
  claim: { length: 6, resendAfterSec: 30 },
} as const satisfies Record<CodePurpose, { length: number; resendAfterSec: number }>;

export const CODE_TTL_SEC = 600;
/** Wrong tries allowed per code: with 4 recorded the 5th try is still checked, with 5 recorded the code is dead. */
export const MAX_CODE_ATTEMPTS = 5;

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
