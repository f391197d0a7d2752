import type { Db } from '../db/index.ts';

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
};

/** A user by his stored phone (`01XXXXXXXXX`) or lower-case e-mail. */
export const userByIdentifier = (db: Db, identifier: string): Promise<UserRow | undefined> =>
  db.one<UserRow>(`SELECT * FROM users WHERE ${identifier.includes('@') ? 'email' : 'phone'} = $1`, [identifier]);

/** A user's rights now (null when he is gone): checked on every unsafe request and every staff request. */
export const rightsOf = (db: Db, id: number): Promise<{ is_active: boolean; is_staff: boolean } | undefined> =>
  db.one<{ is_active: boolean; is_staff: boolean }>('SELECT is_active, is_staff FROM users WHERE id = $1', [id]);

export const userById = (db: Db, id: number): Promise<UserRow | undefined> => db.one<UserRow>('SELECT * FROM users WHERE id = $1', [id]);

/** Accounts that already hold this e-mail or phone. */
export const usersHolding = (db: Db, email: string | null, phone: string | null): Promise<UserRow[]> =>
  db.query<UserRow>('SELECT * FROM users WHERE (email = $1 AND $1 IS NOT NULL) OR (phone = $2 AND $2 IS NOT NULL)', [email, phone]);

export async function insertUser(
  db: Db,
  u: { name: string; email: string | null; phone: string | null; hash: string; location: string },
): Promise<UserRow> {
  const row = await db.one<UserRow>(
    'INSERT INTO users (name, email, phone, password_hash, location) VALUES ($1, $2, $3, $4, $5) RETURNING *',
    [u.name, u.email, u.phone, u.hash, u.location],
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
export const activateUser = (db: Db, user: Pick<UserRow, 'id' | 'phone'>) =>
  db.query(
    'UPDATE users SET is_active = true, phone_confirmed = phone_confirmed OR $2, email_confirmed = email_confirmed OR $3, updated_at = now() WHERE id = $1',
    [user.id, user.phone !== null, user.phone === null],
  );

export const setPassword = (db: Db, userId: number, hash: string) =>
  db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, hash]);

export const upsertSuperuser = (db: Db, phone: string, hash: string) =>
  db.query(
    `INSERT INTO users (name, phone, password_hash, is_active, is_staff, is_superuser, phone_confirmed)
     VALUES ('Administrator', $1, $2, true, true, true, true)
     ON CONFLICT (phone) DO UPDATE SET password_hash = EXCLUDED.password_hash, is_active = true, is_staff = true, is_superuser = true, phone_confirmed = true`,
    [phone, hash],
  );

// Refresh tokens ------------------------------------------------------------------------------------

export const insertRefreshToken = (db: Db, jti: string, userId: number, expiresAt: Date) =>
  db.query('INSERT INTO refresh_tokens (jti, user_id, expires_at) VALUES ($1, $2, $3)', [jti, userId, expiresAt.toISOString()]);

export const refreshTokenIsLive = async (db: Db, jti: string): Promise<boolean> =>
  (await db.one('SELECT jti FROM refresh_tokens WHERE jti = $1 AND revoked_at IS NULL AND expires_at > now()', [jti])) !== undefined;

export const revokeRefreshToken = (db: Db, jti: string) =>
  db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL', [jti]);

export const revokeAllRefreshTokens = (db: Db, userId: number) =>
  db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
