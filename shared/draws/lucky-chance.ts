/**
 * Lucky Chance codes as players see and type them (docs/rules/draws.md#7a-lucky-chance): `BHG` and eight digits in two
 * groups of four, `BHG 4821 7730`. The server derives each ticket's code (server/draws/verifiable.ts `luckyCode`).
 */
import { toAsciiDigits } from '../dates.ts';

export const LUCKY_CODE_PREFIX = 'BHG';

const CODE = /^BHG (\d{4}) (\d{4})$/;
const TYPED = /^\s*(?:BHG)?[\s-]*(\d{4})[\s-]*(\d{4})\s*$/i;

/** Whether this is a code as the server writes it. */
export const isLuckyCode = (s: unknown): s is string => typeof s === 'string' && CODE.test(s);

/**
 * A code as a player may type it (`bhg48217730`, `4821 7730`, `BHG-4821-7730`, Bengali digits), in its written form;
 * null if it is not one.
 */
export function normaliseLuckyCode(s: string): string | null {
  if (typeof s !== 'string') return null;
  const m = TYPED.exec(toAsciiDigits(s.normalize('NFKC')));
  return m ? `${LUCKY_CODE_PREFIX} ${m[1]} ${m[2]}` : null;
}
