/**
 * The freeze of a lottery's tickets at the end of its sales (docs/rules/draws.md#3-the-tickets,
 * docs/decisions/045-tickets-freeze-at-the-close.md): the tickets still `pending` are rejected, and the digest `T` and
 * the count `n` of the `success` tickets are recorded, once, in one database transaction under the lottery's lock.
 * Done by the freeze job on every instance (server/draws/freeze-job.ts) and, when it has not run yet, by the draw.
 */
import { ticketsFrozen } from '../../shared/lotteries/freeze.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { rejectPendingAtClose } from '../purchases/service.ts';
import { successTickets } from './commitment-queries.ts';
import * as fq from './freeze-queries.ts';
import { ticketsDigest } from './verifiable.ts';

export type { FreezeRow } from './freeze-queries.ts';

/**
 * Freezes the lottery's tickets if its sales have ended at `nowMs` and it is not frozen yet; answers its freeze (the
 * one just made, `created: true`, or the one recorded before), or undefined while its sales are open (or there is no
 * such lottery). The caller holds the lottery's lock (server/lotteries/service.ts lockLotteryForSale), so that two
 * instances freezing at once freeze once: the second finds the first's row. A bKash checkout payment still `created`
 * for a ticket rejected here is left to the payments code: the reconciliation job asks bKash and refunds money it took
 * (docs/rules/payments.md#4-settling-a-payment, reason `sales_closed`).
 */
export async function freezeTickets(
  tx: Db,
  lotteryId: number,
  nowMs: number,
): Promise<{ freeze: fq.FreezeRow; created: boolean } | undefined> {
  const existing = await fq.freezeOf(tx, lotteryId);
  if (existing) return { freeze: existing, created: false };
  const lottery = await fq.lotteryToFreeze(tx, lotteryId);
  if (!lottery || !ticketsFrozen({ end_date: lottery.end_date, frozen_at: null }, nowMs)) return undefined;
  const rejected = await rejectPendingAtClose(tx, lotteryId);
  const sold = await successTickets(tx, lotteryId);
  const digest = ticketsDigest(sold.map((r) => r.ticket));
  const freeze = await fq.insertFreeze(tx, {
    lottery_id: lotteryId,
    frozen_at: new Date(nowMs),
    tickets_digest: digest,
    tickets_count: sold.length,
    rejected: rejected.length,
  });
  if (!freeze) throw new Error('the freeze was not stored');
  await recordAudit(tx, {
    actorId: null,
    action: 'lottery.freeze',
    entity: 'lottery',
    entityId: String(lotteryId),
    before: { end_date: lottery.end_date },
    after: {
      frozen_at: freeze.frozen_at,
      tickets_digest: digest,
      tickets: sold.length,
      rejected,
    },
  });
  return { freeze, created: true };
}

/**
 * What the draw does first (docs/rules/draws.md#3-the-tickets): the lottery's tickets frozen, by the draw itself when
 * the job has not done it yet, and the `success` tickets checked to give the frozen digest `T` still. They cannot
 * differ (no status changes after the close), but a draw from another set would not be the draw announced: refused
 * (409 `frozen_differs`). The caller holds the lottery's lock and has checked that its sales have ended.
 */
export async function drawFromFrozen(tx: Db, lotteryId: number, nowMs = Date.now()): Promise<fq.FreezeRow> {
  const frozen = await freezeTickets(tx, lotteryId, nowMs);
  if (!frozen) refuse('draw_sales_open');
  const now = ticketsDigest((await successTickets(tx, lotteryId)).map((r) => r.ticket));
  if (now !== frozen.freeze.tickets_digest) refuse('frozen_differs');
  return frozen.freeze;
}
