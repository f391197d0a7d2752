/**
 * Money is whole taka (BDT): JS integers, or exact decimal strings as PostgreSQL NUMERIC arrives ("1000.00").
 * Shown as `TK. 1,000` (en) and `৳১,০০০` (bn). No float arithmetic on amounts.
 */
import { formatNumber, toDigits } from './dates.ts';
import type { Language } from './i18n.ts';

/** Shown in place of an amount that is not a number. */
export const NO_AMOUNT = '—';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

type Decimal = { negative: boolean; whole: bigint; fraction: string };

/** Exact parse of an integer, a decimal string or a bigint; the fraction keeps its digits, trailing zeros dropped. */
function parseDecimal(amount: number | string | bigint): Decimal | null {
  let text: string;
  if (typeof amount === 'bigint') text = amount.toString();
  else if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    // Whole numbers of any size print exactly via BigInt; fractions (not expected) via toString.
    text = Number.isInteger(amount) ? BigInt(amount).toString() : String(amount);
  } else if (typeof amount === 'string') text = amount.trim();
  else return null;
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const whole = BigInt(m[2] as string);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return { negative: m[1] === '-' && (whole !== 0n || fraction !== ''), whole, fraction };
}

/**
 * `formatTaka(1000, 'en')` → `TK. 1,000`; `formatTaka('1000000.00', 'bn')` → `৳১০,০০,০০০`.
 * A non-zero fraction is shown with at least two digits (`TK. 10.50`); non-numeric input gives NO_AMOUNT.
 */
export function formatTaka(amount: number | string | bigint, lng: Language): string {
  const d = parseDecimal(amount);
  if (!d) return NO_AMOUNT;
  let digits = formatNumber(d.whole, lng);
  if (d.fraction) digits += '.' + toDigits(d.fraction.padEnd(2, '0'), lng);
  return (d.negative ? '-' : '') + (lng === 'bn' ? '৳' : 'TK. ') + digits;
}

/**
 * A whole-taka amount as a safe integer: accepts 1000, "1000" and "1000.00";
 * null for fractions, non-numbers and values beyond Number.MAX_SAFE_INTEGER.
 */
export function parseWholeTaka(amount: number | string | bigint): number | null {
  const d = parseDecimal(amount);
  if (!d || d.fraction) return null;
  const v = d.negative ? -d.whole : d.whole;
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(v);
}

/**
 * Splits a prize equally among the winning tickets in whole taka (docs/rules/lotteries-and-sales.md#9-the-draw):
 * each = floor(total / winners); the remainder (< winners taka) is not paid out,
 * it stays with the operator in the prize pool. each * winners + remainder === total.
 * Throws RangeError unless both are positive safe integers.
 */
export function splitPrize(total: number, winners: number): { each: number; remainder: number } {
  for (const [name, v] of [
    ['total', total],
    ['winners', winners],
  ] as const) {
    if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${name} must be a positive whole number, got ${v}`);
  }
  // BigInt division: float division can round a quotient just below an integer up to it near 2^53.
  const each = Number(BigInt(total) / BigInt(winners));
  return { each, remainder: total - each * winners };
}

/** Paisa (a hundredth of a taka, as bKash's balances have them) as an exact decimal of taka: 123456 → "1234.56". */
export function paisaAsTaka(paisa: number): string {
  if (!Number.isSafeInteger(paisa)) return NO_AMOUNT;
  const a = Math.abs(paisa);
  return `${paisa < 0 ? '-' : ''}${Math.trunc(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
