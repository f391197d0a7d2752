import type { Refusal } from '../../shared/api/refusal.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import { closedFor, ticketsFrozen } from '../../shared/lotteries/freeze.ts';
import type { Db } from '../db/index.ts';
import type { SaleState } from './queries.ts';

/** What the freeze rule reads of a lottery: its end of sales and the freeze recorded for it (migration 023). */
export type FreezeState = { end_date: string; frozen_at: string | null };

export const freezeState = (db: Db, lotteryId: number) =>
  db.one<FreezeState>(`SELECT l.end_date, f.frozen_at FROM lotteries l LEFT JOIN ticket_freezes f ON f.lottery_id = l.id WHERE l.id = $1`, [
    lotteryId,
  ]);

/**
 * Why no purchase of this lottery may be confirmed now (closedFor, docs/rules/lotteries-and-sales.md#8-transaction-states):
 * `tickets_frozen` from the end of sales (or a freeze recorded by another instance), `results_published` once its
 * results are out, `sales_closed` when it is otherwise not on sale (taken off sale, not started).
 */
export type ClosedForChanges = { code: 'tickets_frozen'; end_date: string } | { code: 'results_published' | 'sales_closed' };

/**
 * The one check of every path that confirms a ticket (an approval by two, a statement, bKash's word): undefined when
 * the purchase may still become `success`, else why not. Read in the caller's transaction after it took the lottery's
 * lock, so that a change racing the close, or the freeze, has one outcome.
 */
export async function closedForChanges(tx: Db, sale: SaleState, now = Date.now()): Promise<ClosedForChanges | undefined> {
  const freeze = await freezeState(tx, sale.id);
  const code = closedFor(sale, freeze, now);
  if (code === 'tickets_frozen') return { code, end_date: freeze?.end_date ?? sale.end_date };
  return code && { code };
}

/** A purchase that can no longer be confirmed (closedForChanges), as a refusal (409 with its code); `extra` rides in its answer. */
export function closedError(closed: ClosedForChanges, extra?: Record<string, unknown>): Refusal {
  const details = extra ? { extra } : {};
  if (closed.code === 'tickets_frozen') return refusal('tickets_frozen', { ...details, vars: { at: closed.end_date } });
  return refusal(closed.code === 'results_published' ? 'confirm_results_published' : 'confirm_sales_closed', details);
}

/**
 * Refuses (409 `tickets_frozen`) any change of a ticket's status of this lottery once its tickets are frozen: the
 * check at the top of the paths that write a status other than a confirmation (a staff member's change, a player's
 * TrxID), run under the lottery's lock.
 */
export async function refuseIfFrozen(tx: Db, lotteryId: number, now = Date.now()): Promise<void> {
  const s = await freezeState(tx, lotteryId);
  if (s && ticketsFrozen(s, now)) refuse('tickets_frozen', { vars: { at: s.end_date } });
}
