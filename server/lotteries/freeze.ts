import type { TFunction } from 'i18next';
import { formatDate } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { ticketsFrozen } from '../../shared/lotteries/freeze.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';

/** What the freeze rule reads of a lottery: its end of sales and the freeze recorded for it (migration 023). */
export type FreezeState = { end_date: string; frozen_at: string | null };

export const freezeState = (db: Db, lotteryId: number) =>
  db.one<FreezeState>(`SELECT l.end_date, f.frozen_at FROM lotteries l LEFT JOIN ticket_freezes f ON f.lottery_id = l.id WHERE l.id = $1`, [
    lotteryId,
  ]);

/**
 * Whether the lottery's tickets are frozen now (docs/rules/lotteries-and-sales.md#8-transaction-states): read in the
 * caller's transaction after it took the lottery's lock, so that a change racing the close, or the freeze, has one
 * outcome. A lottery that does not exist is not frozen (the caller answers it as not found).
 */
export async function isFrozen(tx: Db, lotteryId: number, now = Date.now()): Promise<boolean> {
  const s = await freezeState(tx, lotteryId);
  return s !== undefined && ticketsFrozen(s, now);
}

/** The refusal of a status change on a frozen lottery: 409 `tickets_frozen`, saying when its sales closed. */
export function ticketsFrozenError(endDate: string, t: TFunction, lng: Language, key = 'api:ticketsFrozen'): ApiError {
  const at = formatDate(endDate, lng, { withTime: true }) ?? endDate;
  return ApiError.detail(409, t(key, { at }), 'tickets_frozen');
}

/**
 * Refuses (409 `tickets_frozen`) any change of a ticket's status of this lottery once its tickets are frozen: the one
 * check at the top of every path that writes a transaction's status, run under the lottery's lock.
 */
export async function refuseIfFrozen(tx: Db, lotteryId: number, t: TFunction, lng: Language, now = Date.now()): Promise<void> {
  const s = await freezeState(tx, lotteryId);
  if (s && ticketsFrozen(s, now)) throw ticketsFrozenError(s.end_date, t, lng);
}
