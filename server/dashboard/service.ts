import type { z } from 'zod';
import { DASHBOARD_RECENT, type Dashboard } from '../../shared/dashboard/schemas.ts';
import type { Db } from '../db/index.ts';
import type { LotteryAdmin } from '../lotteries/admin.ts';
import type { Purchases } from '../purchases/service.ts';

type Figures = {
  total_users: number;
  active_lotteries: number;
  total_revenue: string;
  tickets_sold: number;
  pending_transactions: number;
  pending_transfers: number;
};

/** The dashboard's figures (docs/rules/pages.md#9-back-office): counted in one statement, amounts summed exactly. */
export class DashboardFigures {
  constructor(
    private readonly db: Db,
    private readonly lotteries: LotteryAdmin,
    private readonly purchases: Purchases,
  ) {}

  async now(): Promise<z.input<typeof Dashboard>> {
    const [f, recentLotteries, recentTransactions] = await Promise.all([
      this.db.one<Figures>(
        `SELECT (SELECT count(*) FROM users)::int AS total_users,
           (SELECT count(*) FROM lotteries WHERE published AND NOT is_result_published)::int AS active_lotteries,
           (SELECT COALESCE(sum(amount), 0) FROM transactions WHERE status = 'success')::text AS total_revenue,
           (SELECT count(*) FROM transactions WHERE status = 'success')::int AS tickets_sold,
           (SELECT count(*) FROM transactions WHERE status = 'pending')::int AS pending_transactions,
           (SELECT count(*) FROM prize_claims WHERE status = 'payment_info_submitted')::int AS pending_transfers`,
      ),
      this.lotteries.list({ search: null, filter: 'all', limit: DASHBOARD_RECENT, offset: 0 }),
      this.purchases.list({ search: null, status: null, lottery_id: null, limit: DASHBOARD_RECENT, offset: 0 }),
    ]);
    if (!f) throw new Error('the figures query returned nothing');
    const revenue = Number(f.total_revenue);
    if (!Number.isSafeInteger(revenue)) throw new RangeError(`total revenue ${f.total_revenue} is beyond exact numbers`);
    return { ...f, total_revenue: revenue, recent_lotteries: recentLotteries.items, recent_transactions: recentTransactions.items };
  }
}
