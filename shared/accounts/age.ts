/**
 * Only adults play (docs/rules/accounts-and-codes.md#2-sign-up): a player is 18 or older on the day he signs up, the
 * day counted in Dhaka. Dates are calendar days as `YYYY-MM-DD` (the value of an `<input type="date">`).
 */
import { dhakaDateInputValue } from '../dates.ts';

export const ADULT_AGE = 18;
/** The earliest date of birth taken: an older one is a typing mistake, not a player. */
export const EARLIEST_BIRTH = '1900-01-01';

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD` of a day that exists (no 31 April, 29 February only in leap years); null otherwise. */
export function calendarDay(s: string): { y: number; m: number; d: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m < 1 || m > 12 || d < 1) return null;
  const last = m === 2 && isLeap(y) ? 29 : (DAYS[m - 1] as number);
  return d <= last ? { y, m, d } : null;
}

/**
 * The day a person born on `birth` turns `years`: the same day and month, `years` later; born on 29 February, in a
 * year without one he turns it on 1 March (the day after 28 February, when 29 February would have passed).
 */
export function birthday(birth: string, years: number): string | null {
  const b = calendarDay(birth);
  if (!b) return null;
  const y = b.y + years;
  if (b.m === 2 && b.d === 29 && !isLeap(y)) return `${pad(y, 4)}-03-01`;
  return `${pad(y, 4)}-${pad(b.m)}-${pad(b.d)}`;
}

/** Whether a person born on `birth` is `ADULT_AGE` or older on `today` (his 18th birthday itself included). */
export function isAdultOn(birth: string, today: string): boolean {
  const adult = birthday(birth, ADULT_AGE);
  return adult !== null && calendarDay(today) !== null && adult <= today;
}

/** Today's date in Dhaka, `YYYY-MM-DD`. */
export const dhakaToday = (nowMs: number = Date.now()): string => dhakaDateInputValue(new Date(nowMs)) as string;

/** What is wrong with a date of birth given on `today`: not a day, before 1900 or after today, under 18; or null. */
export function birthDateProblem(birth: string, today: string): 'invalid' | 'underAge' | null {
  if (!calendarDay(birth) || birth < EARLIEST_BIRTH || birth > today) return 'invalid';
  return isAdultOn(birth, today) ? null : 'underAge';
}
