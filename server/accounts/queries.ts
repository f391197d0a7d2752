import type { Language } from '../../shared/i18n.ts';
import type { Db } from '../db/index.ts';
import { CHOICES, type SettingsRow } from '../messages/service.ts';

export type UserRow = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  password_hash: string;
  location: string;
  picture_id: string | null;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  phone_confirmed: boolean;
  email_confirmed: boolean;
  date_joined: string;
  /** Raised when all his sessions end; a session is live while it carries the same (docs/rules/accounts-and-codes.md#10-sessions). */
  session_version: number;
  /** The language of his messages (docs/rules/messages.md). */
  language: Language;
  /** `YYYY-MM-DD`, given at sign-up (migration 032); null for older accounts and those staff made. Never logged. */
  date_of_birth: string | null;
};

/** A user by his stored phone (`01XXXXXXXXX`) or lower-case e-mail. */
export const userByIdentifier = (db: Db, identifier: string): Promise<UserRow | undefined> =>
  db.one<UserRow>(`SELECT * FROM users WHERE ${identifier.includes('@') ? 'email' : 'phone'} = $1`, [identifier]);

export const userById = (db: Db, id: number): Promise<UserRow | undefined> => db.one<UserRow>('SELECT * FROM users WHERE id = $1', [id]);

/** A user and his message settings' choices, in one statement (the profile page's read, `GET /api/v1/my-profile/`). */
export const userWithSettings = (db: Db, id: number) =>
  db.one<UserRow & SettingsRow>(`SELECT u.*, ${CHOICES.columns} FROM users u ${CHOICES.join} WHERE u.id = $1`, [id]);

/** Accounts that already hold this e-mail or phone. */
export const usersHolding = (db: Db, email: string | null, phone: string | null): Promise<UserRow[]> =>
  db.query<UserRow>('SELECT * FROM users WHERE (email = $1 AND $1 IS NOT NULL) OR (phone = $2 AND $2 IS NOT NULL)', [email, phone]);

/** An unused user id from the users' own sequence: what a sign-up answers when it made no account (accounts-and-codes.md#2). */
export const nextUserId = async (db: Db): Promise<number> =>
  Number((await db.one<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('users', 'id'))::text AS id`))?.id);

export async function insertUser(
  db: Db,
  u: {
    name: string;
    email: string | null;
    phone: string | null;
    hash: string;
    location: string;
    language: 'en' | 'bn';
    dateOfBirth: string;
  },
): Promise<UserRow> {
  const row = await db.one<UserRow>(
    'INSERT INTO users (name, email, phone, password_hash, location, language, date_of_birth) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
    [u.name, u.email, u.phone, u.hash, u.location, u.language, u.dateOfBirth],
  );
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export const deleteUser = (db: Db, id: number) => db.query('DELETE FROM users WHERE id = $1', [id]);

/** Makes an unclaimed profile upload the user's picture; false when it is not there or not free. */
export async function claimPicture(db: Db, userId: number, uploadId: string): Promise<boolean> {
  const pic = await db.one('UPDATE uploads SET owner_id = $1 WHERE id = $2 AND owner_id IS NULL AND kind = $3 RETURNING id', [
    userId,
    uploadId,
    'profile',
  ]);
  if (!pic) return false;
  await db.query('UPDATE users SET picture_id = $1 WHERE id = $2', [uploadId, userId]);
  return true;
}

/**
 * The profile update (docs/rules/accounts-and-codes.md#11-profile): the fields given change, and a changed e-mail or
 * phone is no longer confirmed. The UNIQUE constraints on email and phone settle two accounts taking one at once.
 */
export async function updateProfile(
  db: Db,
  userId: number,
  c: { name?: string; email?: string | null; phone?: string | null; picture?: string },
): Promise<UserRow | undefined> {
  return db.one<UserRow>(
    `UPDATE users SET
       name = CASE WHEN $2 THEN $3 ELSE name END,
       email_confirmed = CASE WHEN $4 AND email IS DISTINCT FROM $5 THEN false ELSE email_confirmed END,
       email = CASE WHEN $4 THEN $5 ELSE email END,
       phone_confirmed = CASE WHEN $6 AND phone IS DISTINCT FROM $7 THEN false ELSE phone_confirmed END,
       phone = CASE WHEN $6 THEN $7 ELSE phone END,
       picture_id = CASE WHEN $8 THEN $9::uuid ELSE picture_id END,
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      userId,
      c.name !== undefined,
      c.name ?? null,
      c.email !== undefined,
      c.email ?? null,
      c.phone !== undefined,
      c.phone ?? null,
      c.picture !== undefined,
      c.picture ?? null,
    ],
  );
}

/** A profile upload the user may make his picture: one he uploaded himself, or one nobody has claimed; it is his now. */
export async function takePicture(db: Db, userId: number, uploadId: string): Promise<boolean> {
  const pic = await db.one(
    `UPDATE uploads SET owner_id = $1 WHERE id = $2 AND kind = 'profile' AND (owner_id IS NULL OR owner_id = $1) RETURNING id`,
    [userId, uploadId],
  );
  return pic !== undefined;
}

/** The code proved the channel it was sent to (the phone when there is one), which is now confirmed. */
export const activateUser = (db: Db, user: Pick<UserRow, 'id' | 'phone'>): Promise<UserRow | undefined> =>
  db.one<UserRow>(
    'UPDATE users SET is_active = true, phone_confirmed = phone_confirmed OR $2, email_confirmed = email_confirmed OR $3, updated_at = now() WHERE id = $1 RETURNING *',
    [user.id, user.phone !== null, user.phone === null],
  );

/** The same password hashed with today's cost, unless the password changed since it was read. */
export const rehashPassword = (db: Db, userId: number, old: string, hash: string) =>
  db.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, old, hash]);

export const setPassword = (db: Db, userId: number, hash: string) =>
  db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, hash]);

export const upsertSuperuser = (db: Db, phone: string, hash: string) =>
  db.query(
    `INSERT INTO users (name, phone, password_hash, is_active, is_staff, is_superuser, phone_confirmed)
     VALUES ('Administrator', $1, $2, true, true, true, true)
     ON CONFLICT (phone) DO UPDATE SET password_hash = EXCLUDED.password_hash, is_active = true, is_staff = true, is_superuser = true, phone_confirmed = true`,
    [phone, hash],
  );

// Sessions (refresh tokens) -------------------------------------------------------------------------
// docs/rules/accounts-and-codes.md#10-sessions: a session is its refresh token's row; the access tokens issued for it
// name it (`sid`). It is live while not revoked, not expired, and of the user's session version of now.

/** A new session of the version the user had when his password was checked (a later end-all leaves it dead). */
export const insertRefreshToken = (db: Db, jti: string, user: Pick<UserRow, 'id' | 'session_version'>, expiresAt: Date) =>
  db.query('INSERT INTO refresh_tokens (jti, user_id, expires_at, session_version) VALUES ($1, $2, $3, $4)', [
    jti,
    user.id,
    expiresAt.toISOString(),
    user.session_version,
  ]);

const LIVE = `s.jti = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now() AND s.session_version = u.session_version`;

/**
 * The user's rights now and whether his session `sid` is live (undefined when he is gone): the one query of the bearer
 * check on every API request with a token (server/http/auth.ts), by the users' and refresh tokens' primary keys. A
 * deactivated user's sessions have ended too, but he is told that his account is disabled rather than that his
 * token is not valid.
 */
export const liveSessionRights = (db: Db, sid: string, userId: number): Promise<SessionState | undefined> =>
  db.one<SessionState>(SESSION_RIGHTS, [sid, userId]);

/** liveSessionRights' statement (`$1` the session, `$2` the user), for a statement that reads more with it. */
export const SESSION_RIGHTS = `SELECT u.is_active, u.is_staff, EXISTS (SELECT 1 FROM refresh_tokens s WHERE ${LIVE}) AS live FROM users u WHERE u.id = $2`;
export type SessionState = { is_active: boolean; is_staff: boolean; live: boolean };

/** The user of a live session (refresh). */
export const liveSessionUser = (db: Db, jti: string, userId: number): Promise<UserRow | undefined> =>
  db.one<UserRow>(`SELECT u.* FROM refresh_tokens s JOIN users u ON u.id = s.user_id WHERE ${LIVE}`, [jti, userId]);

/** Ends one session (logout): its refresh token and every access token issued for it. */
export const revokeRefreshToken = (db: Db, jti: string) =>
  db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL', [jti]);

/**
 * Ends every session of the user at once, with their access tokens, on every instance (a password change or reset,
 * a deactivation, "log out everywhere"): his session version is raised and his refresh tokens revoked, in one
 * statement. A login whose password was checked before it and that records its session after it is dead too (it
 * carries the old version).
 */
export const revokeAllRefreshTokens = (db: Db, userId: number) =>
  db.query(
    `WITH ended AS (UPDATE users SET session_version = session_version + 1 WHERE id = $1 RETURNING id)
     UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
    [userId],
  );

/**
 * Records a change of the account's phone, e-mail or (by staff) password: when, and by whom. Its claims and payouts are
 * held for 72 hours after, and whoever made it never completes its transfer (docs/rules/lotteries-and-sales.md#11-prize-claims).
 */
export async function markAccessChanged(db: Db, id: number, by: number): Promise<string> {
  const row = await db.one<{ at: string | Date }>(
    'UPDATE users SET contact_changed_at = now(), contact_changed_by = $2 WHERE id = $1 RETURNING contact_changed_at AS at',
    [id, by],
  );
  if (!row) throw new Error(`user ${id} is gone`);
  return new Date(row.at).toISOString();
}
