import { parseIso } from './dates.ts';
import type { Lottery } from './api-types.ts';

/** Why a lottery can or cannot be bought now (docs/rules/lotteries-and-sales.md#5-reasons-shown-when-a-lottery-cannot-be-bought), as a key of lottery.json `reason`. */
export type Availability = 'open' | 'ended' | 'soldOut' | 'notYet';

export type AvailabilityFields = Pick<
  Lottery,
  'published' | 'is_result_published' | 'drawn' | 'start_date' | 'end_date' | 'total_tickets' | 'tickets_sold'
> & {
  purchasable?: boolean;
};

/**
 * The API's `purchasable` flag decides when it is present (the server's clock and rules); otherwise the same
 * rules are read here. A closed lottery gets its reason: ended (end date passed, results out, or drawn once and its
 * results taken back: a drawn lottery never sells again),
 * not yet on sale (unpublished or not started), or, our addition, sold out.
 */
export function availability(l: AvailabilityFields, nowMs: number): Availability {
  const end = parseIso(l.end_date);
  const start = parseIso(l.start_date);
  const ended = l.is_result_published || l.drawn || (end !== null && end <= nowMs);
  const soldOut = Number(l.tickets_sold) >= Number(l.total_tickets);
  const notYet = !l.published || start === null || end === null || start > nowMs;
  if (l.purchasable === true) return 'open';
  if (ended) return 'ended';
  if (l.purchasable === undefined && !notYet && !soldOut) return 'open';
  if (soldOut && !notYet) return 'soldOut';
  return 'notYet';
}

/** Tickets still on sale (never negative). */
export const ticketsLeft = (l: Pick<Lottery, 'total_tickets' | 'tickets_sold'>): number =>
  Math.max(0, Number(l.total_tickets) - Number(l.tickets_sold));
