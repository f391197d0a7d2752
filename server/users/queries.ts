import type { Language } from '../../shared/i18n.ts';
import type { Db } from '../db/index.ts';
import { likePattern } from '../db/like.ts';
import type { UserFilter } from '../../shared/users/schemas.ts';

/** A user as staff see him (docs/rules/accounts-and-codes.md#12-staff-and-superusers): never his password hash. */
export type StaffUserRow = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  phone_confirmed: boolean;
  email_confirmed: boolean;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  date_joined: string;
  /** `YYYY-MM-DD` or null (docs/rules/accounts-and-codes.md#2-sign-up): personal data, shown to staff, never logged. */
  date_of_birth: string | null;
  prize_money: number;
};

/** The prizes he won in published results, whole taka (a prize counts once its lottery's results are published). */
const PRIZE_MONEY = `COALESCE((SELECT sum(p.prize_money) FROM prizes p JOIN transactions t ON t.id = p.transaction_id
    JOIN lotteries l ON l.id = p.lottery_id WHERE t.user_id = u.id AND l.is_result_published), 0)::float8`;

const COLUMNS = `u.id, u.name, u.email, u.phone, u.phone_confirmed, u.email_confirmed, u.is_active, u.is_staff, u.is_superuser, u.date_joined,
  u.date_of_birth, ${PRIZE_MONEY} AS prize_money`;

const FILTERS: Record<UserFilter, string> = {
  all: 'true',
  active: 'u.is_active',
  inactive: 'NOT u.is_active',
  staff: 'u.is_staff',
  superuser: 'u.is_superuser',
};

/** Every user, newest first, searched by part of his name, e-mail or phone (a phone typed in another form matches too). */
export async function staffUsers(
  db: Db,
  f: { search: string | null; phone: string | null; filter: UserFilter },
  limit: number,
  offset: number,
): Promise<{ rows: StaffUserRow[]; total: number }> {
  const where = `WHERE ${FILTERS[f.filter]} AND ($1::text IS NULL OR u.name ILIKE $1 OR u.email ILIKE $1 OR u.phone ILIKE $1 OR u.phone = $2)`;
  const params = [f.search === null ? null : likePattern(f.search), f.phone];
  const rows = await db.query<StaffUserRow>(
    `SELECT ${COLUMNS} FROM users u ${where} ORDER BY u.date_joined DESC, u.id DESC LIMIT $3 OFFSET $4`,
    [...params, limit, offset],
  );
  const total = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM users u ${where}`, params))?.n ?? 0;
  return { rows, total };
}

export const staffUser = (db: Db, id: number) => db.one<StaffUserRow>(`SELECT ${COLUMNS} FROM users u WHERE u.id = $1`, [id]);

/** What an account may do now, as stored (the caller's rights are read here, not taken from his token). */
export const rightsNow = (db: Db, id: number) =>
  db.one<{ is_active: boolean; is_staff: boolean; is_superuser: boolean }>(
    'SELECT is_active, is_staff, is_superuser FROM users WHERE id = $1',
    [id],
  );

/** The fields staff manage, locked for the change. */
export type ManagedUser = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
};

/** The user as staff change him, locked, with the language his notice of the change is written in. */
export const userForUpdate = (db: Db, id: number) =>
  db.one<ManagedUser & { language: Language }>(
    'SELECT id, name, email, phone, is_active, is_staff, is_superuser, language FROM users WHERE id = $1 FOR UPDATE',
    [id],
  );

/** Accounts other than `except` that hold this e-mail or phone. */
export const holders = (db: Db, email: string | null, phone: string | null, except: number | null) =>
  db.query<{ id: number; email: string | null; phone: string | null }>(
    `SELECT id, email, phone FROM users WHERE ((email = $1 AND $1 IS NOT NULL) OR (phone = $2 AND $2 IS NOT NULL)) AND ($3::bigint IS NULL OR id <> $3)`,
    [email, phone, except],
  );

export async function insertManagedUser(
  db: Db,
  u: {
    name: string;
    email: string | null;
    phone: string | null;
    hash: string;
    is_active: boolean;
    is_staff: boolean;
    is_superuser: boolean;
  },
): Promise<ManagedUser> {
  const row = await db.one<ManagedUser>(
    `INSERT INTO users (name, email, phone, password_hash, is_active, is_staff, is_superuser)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, name, email, phone, is_active, is_staff, is_superuser`,
    [u.name, u.email, u.phone, u.hash, u.is_active, u.is_staff, u.is_superuser],
  );
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/**
 * Writes the managed fields (the caller merged the change into the stored values); a changed e-mail or phone is no
 * longer confirmed, as in the profile update; a new password hash when given.
 */
export const updateManagedUser = (db: Db, u: Pick<ManagedUser, 'id' | 'name' | 'email' | 'phone' | 'is_active'>, hash: string | null) =>
  db.query(
    `UPDATE users SET
       name = $2,
       email_confirmed = CASE WHEN email IS DISTINCT FROM $3 THEN false ELSE email_confirmed END,
       email = $3,
       phone_confirmed = CASE WHEN phone IS DISTINCT FROM $4 THEN false ELSE phone_confirmed END,
       phone = $4,
       is_active = $5,
       password_hash = COALESCE($6, password_hash),
       updated_at = now()
     WHERE id = $1`,
    [u.id, u.name, u.email, u.phone, u.is_active, hash],
  );
