import type { Db } from '../db/index.ts';

/** A row of `ticket_freezes` (migration 023): the lottery's `success` tickets as they stood when its sales closed. */
export type FreezeRow = { lottery_id: number; frozen_at: string; tickets_digest: string; tickets_count: number; rejected: number };

export const freezeOf = (db: Db, lotteryId: number) =>
  db.one<FreezeRow>('SELECT lottery_id, frozen_at, tickets_digest, tickets_count, rejected FROM ticket_freezes WHERE lottery_id = $1', [
    lotteryId,
  ]);

/** What the freeze needs of its lottery, read under the lottery's lock. */
export const lotteryToFreeze = (db: Db, lotteryId: number) =>
  db.one<{ id: number; end_date: string }>('SELECT id, end_date FROM lotteries WHERE id = $1', [lotteryId]);

export const insertFreeze = (db: Db, f: Omit<FreezeRow, 'frozen_at'> & { frozen_at: Date }) =>
  db.one<FreezeRow>(
    `INSERT INTO ticket_freezes (lottery_id, frozen_at, tickets_digest, tickets_count, rejected) VALUES ($1, $2, $3, $4, $5)
     RETURNING lottery_id, frozen_at, tickets_digest, tickets_count, rejected`,
    [f.lottery_id, f.frozen_at.toISOString(), f.tickets_digest, f.tickets_count, f.rejected],
  );

/**
 * Published lotteries not drawn whose sales ended by `now` and whose tickets are not frozen yet: what the freeze job
 * takes (server/draws/freeze-job.ts), the earliest close first.
 */
export const dueForFreeze = (db: Db, now: Date, limit: number) =>
  db.query<{ id: number }>(
    `SELECT l.id FROM lotteries l
     WHERE l.published AND NOT l.is_result_published AND l.drawn_at IS NULL AND l.end_date <= $1
       AND NOT EXISTS (SELECT 1 FROM ticket_freezes f WHERE f.lottery_id = l.id)
     ORDER BY l.end_date, l.id LIMIT $2`,
    [now.toISOString(), limit],
  );
