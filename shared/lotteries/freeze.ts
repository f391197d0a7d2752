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

/** What the sale rules read of a lottery (server/lotteries/queries.ts SaleState has these and more). */
export type SaleFacts = { published: boolean; is_result_published: boolean; drawn: boolean; start_date: string; end_date: string };

/**
 * Whether a paid ticket of this lottery can still be confirmed: published, on sale by its dates, not drawn. Its own
 * combination is already held by the pending purchase, so whether the lottery is "sold out" does not matter here.
 */
export const stillOnSale = (sale: SaleFacts, nowMs: number): boolean =>
  sale.published && !sale.is_result_published && !sale.drawn && Date.parse(sale.start_date) <= nowMs && nowMs < Date.parse(sale.end_date);

/** Why a purchase of a lottery can no longer be confirmed (closedFor). */
export type ClosedCode = 'tickets_frozen' | 'results_published' | 'sales_closed';

/**
 * Why no purchase of this lottery may become `success` at `nowMs`, or undefined when one may: `tickets_frozen` from
 * the end of sales or a recorded freeze (`freeze`: undefined when not read), first, since from the close the answer is
 * the same whatever else became of the lottery; then `results_published`; then `sales_closed` for a lottery otherwise
 * off sale (unpublished, not started). The one answer of every path that confirms a ticket.
 */
export function closedFor(sale: SaleFacts, freeze: FreezeFacts | undefined, nowMs: number): ClosedCode | undefined {
  if (ticketsFrozen(freeze ?? { end_date: sale.end_date, frozen_at: null }, nowMs)) return 'tickets_frozen';
  if (sale.is_result_published) return 'results_published';
  if (!stillOnSale(sale, nowMs)) return 'sales_closed';
  return undefined;
}
