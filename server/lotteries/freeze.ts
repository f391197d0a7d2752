import type { TFunction } from 'i18next';
import { formatDate } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { closedFor, ticketsFrozen } from '../../shared/lotteries/freeze.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
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

/** The refusal of a status change on a frozen lottery: 409 `tickets_frozen`, saying when its sales closed. */
function ticketsFrozenError(endDate: string, t: TFunction, lng: Language, extra?: Record<string, unknown>): ApiError {
  const at = formatDate(endDate, lng, { withTime: true }) ?? endDate;
  return ApiError.detail(409, t('api:ticketsFrozen', { at }), 'tickets_frozen', extra);
}

/** A purchase that can no longer be confirmed (closedForChanges), as the API's refusal: 409 with its code. */
export function closedError(closed: ClosedForChanges, t: TFunction, lng: Language, extra?: Record<string, unknown>): ApiError {
  if (closed.code === 'tickets_frozen') return ticketsFrozenError(closed.end_date, t, lng, extra);
  const key = closed.code === 'results_published' ? 'api:resultsPublishedNoApproval' : 'api:salesClosedNoApproval';
  return ApiError.detail(409, t(key), closed.code, extra);
}

/**
 * Refuses (409 `tickets_frozen`) any change of a ticket's status of this lottery once its tickets are frozen: the
 * check at the top of the paths that write a status other than a confirmation (a staff member's change, a player's
 * TrxID), run under the lottery's lock.
 */
export async function refuseIfFrozen(tx: Db, lotteryId: number, t: TFunction, lng: Language, now = Date.now()): Promise<void> {
  const s = await freezeState(tx, lotteryId);
  if (s && ticketsFrozen(s, now)) throw ticketsFrozenError(s.end_date, t, lng);
}
