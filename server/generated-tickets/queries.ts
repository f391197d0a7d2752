import type { Db } from '../db/index.ts';
import { likePattern } from '../db/like.ts';

/** A row of `generated_tickets`. */
export type GeneratedRow = {
  id: number;
  lottery_id: number;
  ticket_number: string;
  /**
   * The secret in clear: only a row not sealed yet (kept so before migration 027; start-up seals it). Otherwise null, and
   * the secret is `secret_sealed`, found by `secret_lookup` (docs/rules/tickets.md#6-generated-tickets).
   */
  secret_number: string | null;
  secret_sealed: string | null;
  secret_lookup: string | null;
  activated_by: number | null;
  activated_at: string | null;
  transaction_id: number | null;
  created_by: number | null;
  created_at: string;
};

/** Which of these combinations are held in the lottery (a pending or successful transaction, or a generated ticket). */
export async function heldAmong(db: Db, lotteryId: number, tickets: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ ticket: string }>(
    `SELECT ticket FROM transactions WHERE lottery_id = $1 AND ticket = ANY($2::text[]) AND status IN ('pending', 'success')
     UNION SELECT ticket_number FROM generated_tickets WHERE lottery_id = $1 AND ticket_number = ANY($2::text[])`,
    [lotteryId, tickets],
  );
  return new Set(rows.map((r) => r.ticket));
}

/** Stores new generated tickets of one lottery, in the order given, their secrets sealed (never in clear). */
export const insertGenerated = (
  db: Db,
  lotteryId: number,
  createdBy: number,
  tickets: readonly { ticket: string; secret_sealed: string; secret_lookup: string }[],
) =>
  db.query<GeneratedRow>(
    `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_sealed, secret_lookup, created_by)
     SELECT $1, x.ticket, x.sealed, x.lookup, $2 FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(ticket, sealed, lookup, n)
     ORDER BY x.n
     RETURNING *`,
    [lotteryId, createdBy, tickets.map((x) => x.ticket), tickets.map((x) => x.secret_sealed), tickets.map((x) => x.secret_lookup)],
  );

/**
 * The generated ticket with this number whose secret has one of these lookup hashes (the typed secret's, under each key
 * held), in whatever lottery; undefined when the pair is wrong.
 */
export const byPair = (db: Db, ticket: string, lookups: readonly string[]) =>
  db.one<GeneratedRow>('SELECT * FROM generated_tickets WHERE ticket_number = $1 AND secret_lookup = ANY($2::text[]) ORDER BY id LIMIT 1', [
    ticket,
    lookups,
  ]);

export const generatedById = (db: Db, id: number) => db.one<GeneratedRow>('SELECT * FROM generated_tickets WHERE id = $1', [id]);

export const generatedForUpdate = (db: Db, id: number) =>
  db.one<GeneratedRow>('SELECT * FROM generated_tickets WHERE id = $1 FOR UPDATE', [id]);

/** Marks the ticket activated by this player as this transaction; undefined when it was activated already. */
export const markActivated = (db: Db, id: number, userId: number, transactionId: number) =>
  db.one<GeneratedRow>(
    `UPDATE generated_tickets SET activated_by = $2, activated_at = now(), transaction_id = $3
     WHERE id = $1 AND activated_at IS NULL RETURNING *`,
    [id, userId, transactionId],
  );

/** The success transaction an activation makes: the lottery's price, paid offline for the generated ticket. */
export async function insertActivation(
  db: Db,
  t: { user_id: number; lottery_id: number; ticket: string; amount: number },
): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, status)
     VALUES ($1, $2, $3, $4, 'activation', 'generated', 'success') RETURNING id`,
    [t.user_id, t.lottery_id, t.ticket, t.amount],
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export const deleteGenerated = (db: Db, id: number) =>
  db.one<{ id: number }>('DELETE FROM generated_tickets WHERE id = $1 AND activated_at IS NULL RETURNING id', [id]);

export const lotteryNames = (db: Db, id: number) =>
  db.one<{ name: string; name_bn: string }>('SELECT name, name_bn FROM lotteries WHERE id = $1', [id]);

// Staff list --------------------------------------------------------------------------------------

export type StaffGeneratedRow = GeneratedRow & {
  u_name: string | null;
  u_email: string | null;
  u_phone: string | null;
  l_name: string;
  l_name_bn: string;
  l_ticket_price: number;
  l_total_prize: number;
  l_end_date: string;
};

export const STAFF_SELECT = `SELECT g.*, u.name AS u_name, u.email AS u_email, u.phone AS u_phone, l.name AS l_name, l.name_bn AS l_name_bn,
    l.ticket_price AS l_ticket_price, l.total_prize AS l_total_prize, l.end_date AS l_end_date
  FROM generated_tickets g
  JOIN lotteries l ON l.id = g.lottery_id
  LEFT JOIN users u ON u.id = g.activated_by`;

export type GeneratedFilter = {
  /** Part of a ticket number, a secret number or a lottery name (English or Bengali). */
  search: string | null;
  /** The search read as a ticket in canonical form, matched too. */
  ticket: string | null;
  /** The search read as a whole secret (16 digits): its lookup hashes, matched exactly (a sealed secret has no parts to match). */
  secretLookups: string[] | null;
  lotteryId: number | null;
  activation: 'all' | 'activated' | 'not_activated';
};

export function staffWhere(f: GeneratedFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.lotteryId, f.activation, f.search === null ? null : likePattern(f.search), f.ticket, f.secretLookups];
  const sql = `WHERE ($1::bigint IS NULL OR g.lottery_id = $1)
      AND ($2::text = 'all' OR ($2 = 'activated') = (g.activated_at IS NOT NULL))
      AND ($3::text IS NULL OR g.ticket_number ILIKE $3 OR l.name ILIKE $3 OR l.name_bn ILIKE $3
           OR g.ticket_number = $4 OR g.secret_lookup = ANY($5::text[]))`;
  return { sql, params };
}

export async function staffGenerated(
  db: Db,
  f: GeneratedFilter,
  limit: number,
  offset: number,
): Promise<{ rows: StaffGeneratedRow[]; total: number }> {
  const where = staffWhere(f);
  const rows = await db.query<StaffGeneratedRow>(`${STAFF_SELECT} ${where.sql} ORDER BY g.created_at DESC, g.id DESC LIMIT $6 OFFSET $7`, [
    ...where.params,
    limit,
    offset,
  ]);
  const total =
    (
      await db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM generated_tickets g JOIN lotteries l ON l.id = g.lottery_id ${where.sql}`,
        where.params,
      )
    )?.n ?? 0;
  return { rows, total };
}

export const staffGeneratedByIds = (db: Db, ids: readonly number[]) =>
  db.query<StaffGeneratedRow>(`${STAFF_SELECT} WHERE g.id = ANY($1::bigint[]) ORDER BY g.id`, [ids]);
