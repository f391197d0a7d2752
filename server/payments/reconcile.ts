import type { Logger } from '../log.ts';
import { repeat, type Stop } from '../repeat.ts';
import type { PrizePayouts } from '../claims/payouts.ts';
import type { Payments } from './service.ts';

/** A payment whose outcome has been open this long is asked about (docs/rules/payments.md#5-reconciliation). */
export const RECONCILE_AFTER_SEC = 180;
/** How often the job runs; it also runs once shortly after the start. */
export const RECONCILE_EVERY_MS = 60_000;

/**
 * The reconciliation job of this instance: `firstMs` after the start (config RECONCILE_FIRST_MS: the tests of a restart
 * make it shorter) and every minute, every payment open for more than a few minutes is settled by bKash's word and
 * every refund still due is made, and prizes paid by bKash are looked after. Runs on every instance; the rows it takes are leased
 * (server/payments/queries.ts leaseOpen), so instances never ask about one payment at once. A failed run is logged and
 * the next one tries again.
 */
export function scheduleReconciliation(payments: Payments, payouts: PrizePayouts, log: Logger, firstMs: number): Stop {
  const run = async () => {
    const n = await payments.reconcile(RECONCILE_AFTER_SEC);
    if (n) log.info({ payments: n }, 'bKash payments reconciled');
    // Prizes paid by bKash (server/claims/payouts.ts): tries left sending, tries waiting for the balance, the balance.
    const p = await payouts.reconcile();
    if (p) log.info({ payouts: p }, 'bKash prize payouts reconciled');
  };
  return repeat({ run, firstMs, everyMs: RECONCILE_EVERY_MS, log, failed: 'bKash reconciliation failed' });
}
