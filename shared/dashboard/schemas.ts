/** The back office's dashboard (docs/rules/pages.md#9-back-office): figures from the database, never sample values. */
import { z } from 'zod';
import { StaffLottery } from '../lotteries/schemas.ts';
import { StaffTransaction } from '../purchases/schemas.ts';

/** How many recent lotteries and transactions the dashboard shows. */
export const DASHBOARD_RECENT = 5;

export const Dashboard = z.object({
  /** Accounts, players and staff, verified or not. */
  total_users: z.number().int(),
  /** Published lotteries whose results are not yet out. */
  active_lotteries: z.number().int(),
  /** Whole taka of approved (success) transactions. */
  total_revenue: z.number().int(),
  /** Approved (success) transactions. */
  tickets_sold: z.number().int(),
  /** Payments waiting for staff, and prize transfers waiting to be made. */
  pending_transactions: z.number().int(),
  pending_transfers: z.number().int(),
  /** bKash checkout payments whose outcome or refund is still open (docs/rules/payments.md#5-reconciliation). */
  payments_waiting: z.number().int(),
  /** bKash statement uploads awaiting a second staff member, rows waiting for a person, and Send Money purchases flagged (docs/rules/payments.md#8-send-money-reconciled-with-the-statement). */
  statement_to_decide: z.number().int(),
  /** Players with a spend limit in force, and players self-excluded now (docs/rules/play-safe.md#5-what-staff-see). */
  players_with_limit: z.number().int(),
  players_self_excluded: z.number().int(),
  recent_lotteries: z.array(StaffLottery),
  recent_transactions: z.array(StaffTransaction),
});
