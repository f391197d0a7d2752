import type { Db } from '../db/index.ts';
import { PLAY_FIGURES } from '../play-safe/service.ts';

export type FiguresRow = {
  total_users: number;
  active_lotteries: number;
  /** Text: the sum of every successful sale, exact however large (the service checks it fits a number). */
  total_revenue: string;
  tickets_sold: number;
  pending_transactions: number;
  pending_transfers: number;
  payments_waiting: number;
  /** docs/rules/play-safe.md#5-what-staff-see */
  players_with_limit: number;
  players_self_excluded: number;
};

/**
 * The dashboard's figures in one statement (docs/rules/pages.md#9-back-office); the sales from the lotteries' tallies
 * (docs/decisions/043-lottery-tallies.md), not from every transaction.
 */
export const figures = (db: Db) =>
  db.one<FiguresRow>(
    `SELECT (SELECT count(*) FROM users)::int AS total_users,
       (SELECT count(*) FROM lotteries WHERE published AND NOT is_result_published)::int AS active_lotteries,
       (SELECT COALESCE(sum(paid), 0) FROM lottery_tallies)::text AS total_revenue,
       (SELECT COALESCE(sum(sold), 0) FROM lottery_tallies)::int AS tickets_sold,
       (SELECT COALESCE(sum(pending), 0) FROM lottery_tallies)::int AS pending_transactions,
       (SELECT count(*) FROM prize_claims WHERE status = 'payment_info_submitted')::int AS pending_transfers,
       (SELECT count(*) FROM bkash_payments WHERE state IN ('created', 'refund_due'))::int AS payments_waiting,
       ${PLAY_FIGURES}`,
  );
