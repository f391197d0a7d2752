/**
 * A game's calendar (docs/rules/games.md#2-the-calendar): its draws fall on some Dhaka weekdays at one Dhaka time, and
 * each draw's sales close some minutes before it. Dhaka keeps UTC+6 all year (no summer time), so a Dhaka wall-clock
 * instant is its UTC one less six hours.
 */
import { DHAKA_OFFSET_MS } from '../dates.ts';

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The weekdays as stored (`games.draw_days`): one bit each, 1 Sunday … 64 Saturday. */
export const daysMask = (days: readonly Weekday[]): number => days.reduce((m, d) => m | (1 << WEEKDAYS.indexOf(d)), 0);

/** The weekdays of a stored mask, Sunday first. */
export const daysOf = (mask: number): Weekday[] => WEEKDAYS.filter((_, i) => (mask & (1 << i)) !== 0);

/** What the calendar needs of a game. */
export type Calendar = {
  /** games.draw_days. */
  draw_days: number;
  /** Minutes after Dhaka midnight, 0–1439. */
  draw_minute: number;
  /** How long before the draw its sales close, in minutes. */
  close_minutes: number;
  /** No draw before this. */
  starts_at: string | Date;
};

/** When a draw's sales close. */
export const salesCloseOf = (drawAt: Date, closeMinutes: number): Date => new Date(drawAt.getTime() - closeMinutes * MINUTE_MS);

/**
 * The game's next `count` draws whose sales are still open at `nowMs` (their close strictly after it), earliest first,
 * none before the game's start. Empty when no weekday is set.
 */
export function nextDraws(c: Calendar, nowMs: number, count: number): Date[] {
  const out: Date[] = [];
  if ((c.draw_days & 127) === 0 || count <= 0) return out;
  const startMs = new Date(c.starts_at).getTime();
  const closeMs = c.close_minutes * MINUTE_MS;
  // The Dhaka day of the first instant a draw may fall on, at Dhaka midnight (written as UTC).
  const firstMs = Math.max(nowMs + closeMs, startMs);
  const local = new Date(firstMs + DHAKA_OFFSET_MS);
  let day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  while (out.length < count) {
    const weekday = new Date(day).getUTCDay();
    if (c.draw_days & (1 << weekday)) {
      const at = day - DHAKA_OFFSET_MS + c.draw_minute * MINUTE_MS;
      if (at - closeMs > nowMs && at >= startMs) out.push(new Date(at));
    }
    day += DAY_MS;
  }
  return out;
}

/** `20:00` ⇄ 1200: the draw time as a form writes it, and as stored. */
export const minuteOf = (hhmm: string): number | null => {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};
export const hhmmOf = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
