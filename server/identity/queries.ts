import type { Db } from '../db/index.ts';

export type IdentityRow = { user_id: number; nid: string; nid_front: string; nid_back: string; phone: string; updated_at: string };

export const identityOf = (db: Db, userId: number): Promise<IdentityRow | undefined> =>
  db.one<IdentityRow>('SELECT user_id, nid, nid_front, nid_back, phone, updated_at FROM identities WHERE user_id = $1', [userId]);

/** How many of these uploads are NID photos of this user (both photos must be). */
export async function ownNidPhotos(db: Db, userId: number, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM uploads WHERE id = ANY($1::uuid[]) AND owner_id = $2 AND kind = 'nid'`, [
    [...ids],
    userId,
  ]);
  return new Set(rows.map((r) => r.id));
}

/** Gives or replaces the user's identity details (one row per user). */
export async function saveIdentity(
  db: Db,
  i: { userId: number; nid: string; front: string; back: string; phone: string },
): Promise<IdentityRow> {
  const row = await db.one<IdentityRow>(
    `INSERT INTO identities (user_id, nid, nid_front, nid_back, phone) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET nid = EXCLUDED.nid, nid_front = EXCLUDED.nid_front, nid_back = EXCLUDED.nid_back,
       phone = EXCLUDED.phone, updated_at = now()
     RETURNING user_id, nid, nid_front, nid_back, phone, updated_at`,
    [i.userId, i.nid, i.front, i.back, i.phone],
  );
  if (!row) throw new Error('upsert returned nothing');
  return row;
}
