import type { z } from 'zod';
import { availability } from '../../shared/availability.ts';
import type { DrawResult, Lottery } from '../../shared/lotteries/schemas.ts';
import type { Db } from '../db/index.ts';
import { refuse } from '../../shared/api/refusals.ts';
import * as q from './queries.ts';
import type { LotteryRow } from './queries.ts';

/** The same rule as the SQL of queries.ts, in the one place the pages read it too (shared/availability.ts). */
export const isPurchasable = (l: LotteryRow, now = Date.now()): boolean => availability(l, now) === 'open';

/**
 * A lottery as the API shows it: its row and the server's verdict on sales now. A numbers lottery's total prize is its
 * jackpot (docs/rules/lotteries-and-sales.md#1-lottery-fields): the stored one is not its own.
 */
export const lotteryJson = (l: LotteryRow): z.input<typeof Lottery> => ({
  ...l,
  total_prize: l.jackpot ?? l.total_prize,
  purchasable: isPurchasable(l),
});

// The lottery's sale, for the features that sell or hold its combinations (purchases, generated tickets) -----------

export type { SaleState } from './queries.ts';

/**
 * A numbers lottery `l`'s jackpot as SQL, for the features that show a lottery's total prize in their own queries
 * (docs/rules/lotteries-and-sales.md#1-lottery-fields): null for the tickets kind.
 */
export { JACKPOT, jackpotOf, PROOF_STATE, PURCHASABLE, SALE_COLUMNS } from './queries.ts';

/**
 * Takes the lottery's one lock for its sales, until the transaction `tx` ends (server/lotteries/queries.ts lockLottery):
 * false when there is no such lottery.
 */
export const lockLotteryForSale = async (tx: Db, id: number): Promise<boolean> => (await q.lockLottery(tx, id)) !== undefined;

/** A purchase's share of the lottery's lock (server/lotteries/queries.ts shareLotteryForPurchase): false once its sales ended. */
export const shareLotteryForPurchase = async (tx: Db, id: number): Promise<boolean> =>
  (await q.shareLotteryForPurchase(tx, id)) !== undefined;

/** The lottery's sale now, read after lockLotteryForSale in the same transaction (server/lotteries/queries.ts saleState). */
export const saleState = (tx: Db, id: number): Promise<q.SaleState | undefined> => q.saleState(tx, id);

/** Public lottery reads (docs/rules/lotteries-and-sales.md). */
export class Lotteries {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async published(limit: number, offset: number): Promise<{ items: z.input<typeof Lottery>[]; total: number }> {
    const { rows, total } = await q.publishedLotteries(this.db, limit, offset);
    return { items: rows.map(lotteryJson), total };
  }

  async featured(): Promise<z.input<typeof Lottery>[]> {
    return (await q.featuredLotteries(this.db)).map(lotteryJson);
  }

  results(): Promise<z.input<typeof DrawResult>[]> {
    return q.latestResults(this.db);
  }

  /** Unpublished lotteries exist only for staff. */
  async one(id: number, isStaff: boolean): Promise<z.input<typeof Lottery>> {
    const l = await q.lotteryById(this.db, id);
    if (!l || (!l.published && !isStaff)) refuse('lottery_not_found');
    return lotteryJson(l);
  }
}
