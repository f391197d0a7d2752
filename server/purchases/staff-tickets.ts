import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import type { StaffHeldTicket } from '../../shared/purchases/staff-tickets.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { isSuperuserNow } from '../users/service.ts';

type Held = z.input<typeof StaffHeldTicket>;
type Raw = Omit<Held, 'holder' | 'lottery'> & {
  user_id: number;
  u_name: string;
  u_is_superuser: boolean;
  lottery_id: number;
  l_name: string;
  l_name_bn: string;
  l_is_result_published: boolean;
};

/**
 * The tickets staff accounts hold (docs/rules/accounts-and-codes.md#12-staff-and-superusers), newest first: a
 * superuser's review, as the database has his rights now; other staff get 403.
 */
export async function staffHeldTickets(
  db: Db,
  caller: AccessClaims,
  page: { limit: number; offset: number },
): Promise<{ items: Held[]; total: number }> {
  if (!(await isSuperuserNow(db, caller.user_id))) refuse('staff_tickets_superuser_only');
  const [rows, count] = await Promise.all([
    db.query<Raw>(
      `SELECT t.id, t.ticket, t.status, t.trx_id, t.transaction_type, t.amount, t.created_at, u.id AS user_id, u.name AS u_name,
              u.is_superuser AS u_is_superuser, l.id AS lottery_id, l.name AS l_name, l.name_bn AS l_name_bn,
              l.is_result_published AS l_is_result_published
         FROM transactions t JOIN users u ON u.id = t.user_id JOIN lotteries l ON l.id = t.lottery_id
        WHERE u.is_staff OR u.is_superuser
        ORDER BY t.created_at DESC, t.id DESC LIMIT $1 OFFSET $2`,
      [page.limit, page.offset],
    ),
    db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions t JOIN users u ON u.id = t.user_id WHERE u.is_staff OR u.is_superuser`,
    ),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      ticket: r.ticket,
      status: r.status,
      trx_id: r.trx_id,
      transaction_type: r.transaction_type,
      amount: r.amount,
      created_at: r.created_at,
      holder: { id: r.user_id, name: r.u_name, is_superuser: r.u_is_superuser },
      lottery: { id: r.lottery_id, name: r.l_name, name_bn: r.l_name_bn, is_result_published: r.l_is_result_published },
    })),
    total: count?.n ?? 0,
  };
}
