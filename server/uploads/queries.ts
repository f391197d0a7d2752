import type { Db } from '../db/index.ts';

/** Profile pictures, and photos of a player's NID card (docs/rules/security.md#8-uploads). */
export type UploadKind = 'profile' | 'nid';

/** `id` as the database writes a uuid (lower case), whatever case it was asked for in. */
export type UploadRow = { id: string; owner_id: number | null; kind: UploadKind; content_type: string };

/** A picture with its bytes, kept in its row (docs/decisions/040-uploads-in-the-database.md). */
export const insertUpload = (db: Db, u: { id: string; ownerId: number | null; kind: UploadKind; contentType: string; data: Buffer }) =>
  db.query('INSERT INTO uploads (id, owner_id, kind, content_type, size, data) VALUES ($1, $2, $3, $4, $5, $6)', [
    u.id,
    u.ownerId,
    u.kind,
    u.contentType,
    u.data.length,
    u.data,
  ]);

/** The picture's row and its bytes (null: a picture from before whose file was gone when the app moved them in). */
export const uploadById = (db: Db, id: string): Promise<(UploadRow & { data: Uint8Array | null }) | undefined> =>
  db.one<UploadRow & { data: Uint8Array | null }>('SELECT id::text AS id, owner_id, kind, content_type, data FROM uploads WHERE id = $1', [
    id,
  ]);

/** Pictures from before 021 whose bytes are still a file, after `after` in id order (a few at a time: each is read whole). */
export const uploadsOnDisk = (db: Db, after: string, limit: number) =>
  db.query<{ id: string }>('SELECT id::text AS id FROM uploads WHERE data IS NULL AND id > $1 ORDER BY id LIMIT $2', [after, limit]);

/** Moves a file's bytes into its row. */
export const keepBytes = (db: Db, id: string, data: Buffer) =>
  db.query('UPDATE uploads SET data = $2, size = $3 WHERE id = $1 AND data IS NULL', [id, data, data.length]);
