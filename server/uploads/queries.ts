import type { Db } from '../db/index.ts';

/** Profile pictures, and photos of a player's NID card (docs/rules/security.md#8-uploads). */
export type UploadKind = 'profile' | 'nid';

/** `id` as the database writes a uuid (lower case), whatever case it was asked for in. */
export type UploadRow = { id: string; owner_id: number | null; kind: UploadKind; content_type: string };

export const insertUpload = (db: Db, u: { id: string; ownerId: number | null; kind: UploadKind; contentType: string; size: number }) =>
  db.query('INSERT INTO uploads (id, owner_id, kind, content_type, size) VALUES ($1, $2, $3, $4, $5)', [
    u.id,
    u.ownerId,
    u.kind,
    u.contentType,
    u.size,
  ]);

export const uploadById = (db: Db, id: string): Promise<UploadRow | undefined> =>
  db.one<UploadRow>('SELECT id::text AS id, owner_id, kind, content_type FROM uploads WHERE id = $1', [id]);
