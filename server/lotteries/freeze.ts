import type { Refusal } from '../../shared/api/refusal.ts';
import { refusal } from '../../shared/api/refusals.ts';
import { closedFor, ticketsFrozen } from '../../shared/lotteries/freeze.ts';
import type { Db } from '../db/index.ts';
import { SALE_COLUMNS, type SaleState } from './queries.ts';

/** What the freeze rule reads of a lottery: its end of sales and the freeze recorded for it (migration 023). */
export type FreezeState = { end_date: string; frozen_at: string | null };

/** The lottery `$1` as `l` with its freeze, if one is recorded, as `f`: what freezeState and saleAndClosed read. */
const WITH_FREEZE = 'FROM lotteries l LEFT JOIN ticket_freezes f ON f.lottery_id = l.id WHERE l.id = $1';

export const freezeState = (db: Db, lotteryId: number) => db.one<FreezeState>(`SELECT l.end_date, f.frozen_at ${WITH_FREEZE}`, [lotteryId]);

/**
 * Why no purchase of this lottery may be confirmed now (closedFor, docs/rules/lotteries-and-sales.md#8-transaction-states):
 * `tickets_frozen` from the end of sales (or a freeze recorded by another instance), `results_published` once its
 * results are out, `sales_closed` when it is otherwise not on sale (taken off sale, not started).
 */
export type ClosedForChanges = { code: 'tickets_frozen'; end_date: string } | { code: 'results_published' | 'sales_closed' };

/**
 * The one check of every path that confirms a ticket (an approval by two, a statement, bKash's word): the lottery's sale
 * state, and `closed`: undefined when the purchase may still become `success`, else why not. Read in the caller's
 * transaction after it took the lottery's lock, so that a change racing the close, or the freeze, has one outcome; the
 * sale and the freeze are one statement (the lottery's row with its freeze joined), which also reads them in one snapshot.
 * Undefined when there is no such lottery.
 */
export async function saleAndClosed(
  tx: Db,
  lotteryId: number,
  now = Date.now(),
): Promise<{ sale: SaleState; closed: ClosedForChanges | undefined } | undefined> {
  const row = await tx.one<SaleState & Pick<FreezeState, 'frozen_at'>>(`SELECT ${SALE_COLUMNS}, f.frozen_at ${WITH_FREEZE}`, [lotteryId]);
  if (!row) return undefined;
  const { frozen_at, ...sale } = row;
  const code = closedFor(sale, { end_date: sale.end_date, frozen_at }, now);
  if (code === 'tickets_frozen') return { sale, closed: { code, end_date: sale.end_date } };
  return { sale, closed: code ? { code } : undefined };
}

/** A purchase that can no longer be confirmed (saleAndClosed), as a refusal (409 with its code); `extra` rides in its answer. */
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
  const frozen = await frozenRefusal(tx, lotteryId, now);
  if (frozen) throw frozen;
}

/** refuseIfFrozen's refusal, answered instead of thrown: for a caller that reads it beside other reads. */
export async function frozenRefusal(tx: Db, lotteryId: number, now = Date.now()): Promise<Refusal | undefined> {
  const s = await freezeState(tx, lotteryId);
  return s && ticketsFrozen(s, now) ? refusal('tickets_frozen', { vars: { at: s.end_date } }) : undefined;
}
