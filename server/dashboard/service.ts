import type { z } from 'zod';
import { DASHBOARD_RECENT, type Dashboard } from '../../shared/dashboard/schemas.ts';
import type { Db } from '../db/index.ts';
import type { LotteryAdmin } from '../lotteries/admin-service.ts';
import type { Purchases } from '../purchases/service.ts';
import * as q from './queries.ts';

/** The dashboard's figures (docs/rules/pages.md#9-back-office): counted in one statement, amounts summed exactly. */
export class DashboardFigures {
  private readonly db: Db;
  private readonly lotteries: LotteryAdmin;
  private readonly purchases: Purchases;
  private readonly statementsToDecide: () => Promise<number>;
  constructor(
    db: Db,
    lotteries: LotteryAdmin,
    purchases: Purchases,
    /** Uploads awaiting a second staff member, statement rows waiting for a person and flagged purchases (server/payments/statement-service.ts). */
    statementsToDecide: () => Promise<number>,
  ) {
    this.db = db;
    this.lotteries = lotteries;
    this.purchases = purchases;
    this.statementsToDecide = statementsToDecide;
  }

  async now(): Promise<z.input<typeof Dashboard>> {
    const [f, recentLotteries, recentTransactions, toDecide] = await Promise.all([
      q.figures(this.db),
      this.lotteries.list({ search: null, filter: 'all', limit: DASHBOARD_RECENT, offset: 0 }),
      this.purchases.list({ search: null, status: null, lottery_id: null, limit: DASHBOARD_RECENT, offset: 0 }),
      this.statementsToDecide(),
    ]);
    if (!f) throw new Error('the figures query returned nothing');
    const revenue = Number(f.total_revenue);
    if (!Number.isSafeInteger(revenue)) throw new RangeError(`total revenue ${f.total_revenue} is beyond exact numbers`);
    return {
      ...f,
      total_revenue: revenue,
      statement_to_decide: toDecide,
      recent_lotteries: recentLotteries.items,
      recent_transactions: recentTransactions.items,
    };
  }
}
