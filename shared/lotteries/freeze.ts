/**
 * The freeze of a lottery's tickets at the end of its sales (docs/rules/draws.md#3-the-tickets,
 * docs/rules/lotteries-and-sales.md#8-transaction-states): from `end_date`, to the millisecond, the set of tickets the
 * draw sees is final, so no ticket of the lottery may change its status any more, whoever asks. The one rule every path
 * that writes a transaction's status checks, under the lottery's lock.
 */

/** What the rule needs of a lottery: its end of sales, and when its tickets were frozen (null: not yet recorded). */
export type FreezeFacts = { end_date: string | Date; frozen_at: string | Date | null };

const ms = (d: string | Date): number => (d instanceof Date ? d.getTime() : Date.parse(d));

/**
 * Whether the lottery's tickets are frozen at `nowMs`: its sales have ended (`now ≥ end_date`), or the freeze is
 * already recorded (whatever this instance's clock says: a freeze stored by another instance is final). An end of
 * sales that is not a date freezes too: nothing is changed on a lottery whose close cannot be told.
 */
export function ticketsFrozen(l: FreezeFacts, nowMs: number): boolean {
  if (l.frozen_at !== null) return true;
  const end = ms(l.end_date);
  return !Number.isFinite(end) || nowMs >= end;
}
