import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';
import { repeat, type Stop } from '../repeat.ts';
import { lockLotteryForSale } from '../lotteries/service.ts';
import { dueForFreeze } from './freeze-queries.ts';
import { freezeTickets } from './freeze.ts';

/** How often the freeze job runs, and how soon after the start (docs/rules/draws.md#3-the-tickets). */
export const FREEZE_EVERY_MS = 10_000;
export const FREEZE_FIRST_MS = 3_000;
/** At most this many lotteries are frozen in one run; the rest wait for the next. */
export const FREEZE_BATCH = 20;

/**
 * One run: every published lottery not drawn whose sales ended and whose tickets are not frozen yet is frozen
 * (server/draws/freeze.ts), each in a database transaction of its own under its lock. Instances running at once freeze
 * each lottery once: the second to take the lock finds the freeze made. Answers how many lotteries this run froze.
 */
export async function freezeDue(db: Db, now: () => number = Date.now): Promise<number> {
  const due = await dueForFreeze(db, new Date(now()), FREEZE_BATCH);
  let frozen = 0;
  for (const { id } of due) {
    const done = await db.tx(async (tx) => {
      if (!(await lockLotteryForSale(tx, Number(id)))) return false;
      return (await freezeTickets(tx, Number(id), now()))?.created === true;
    });
    if (done) frozen += 1;
  }
  return frozen;
}

/**
 * The freeze job of this instance: shortly after the start and every 10 s, a run of `freezeDue`. A failed run is
 * logged and the next one tries again; nothing depends on it having run, since the draw freezes first.
 */
export function scheduleFreeze(o: { db: Db; log: Logger }): Stop {
  const run = async () => {
    const n = await freezeDue(o.db);
    if (n) o.log.info({ lotteries: n }, 'tickets frozen at the end of sales');
  };
  return repeat({ run, firstMs: FREEZE_FIRST_MS, everyMs: FREEZE_EVERY_MS, log: o.log, failed: 'freezing tickets failed' });
}
