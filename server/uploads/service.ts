import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { LIMITS, throttle } from '../http/rate-limit.ts';
import { reencodePicture } from './image.ts';
import * as q from './queries.ts';

/** The file's own first bytes decide its type, not the header the client sent. */
export function sniffImage(b: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export const uploadUrl = (id: string) => `/api/v1/uploads/${id}/`;

/**
 * Pictures are stored by the product in the database (docs/rules/security.md#8-uploads,
 * docs/decisions/040-uploads-in-the-database.md): checked by their bytes, re-encoded without metadata
 * (server/uploads/image.ts), rate-limited per player (or per address before sign-up), served only to their owner and
 * to staff, the same from every app instance.
 */
export class Uploads {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Stores a picture; an NID photo always has its owner (the NID upload is for logged-in players only). */
  async store(body: unknown, ownerId: number | null, ip: string, kind: q.UploadKind = 'profile'): Promise<{ id: string; url: string }> {
    // Per player when logged in; a sign-up picture has no player yet: per address, as a flood ceiling (docs/rules/limits.md#1-rate-limits).
    await throttle(this.db, [
      ownerId === null ? [`upload:ip:${ip}`, LIMITS.anonymousUploadPerIp] : [`upload:user:${ownerId}`, LIMITS.uploadPerUser],
    ]);
    if (!Buffer.isBuffer(body) || body.length === 0) refuse('image_required');
    const type = sniffImage(body);
    if (!type) refuse('image_type');
    // Never the bytes as sent: decoded and written anew, without metadata (a phone's GPS position) and bounded in size.
    const data = await reencodePicture(body, type, kind);
    if (!data) refuse('image_unreadable');
    const id = randomUUID();
    await q.insertUpload(this.db, { id, ownerId, kind, contentType: type, data });
    return { id, url: uploadUrl(id) };
  }

  /** The picture's bytes and kind for its owner or staff; anyone else gets the same 404 as for a missing one. */
  async read(id: string, caller: AccessClaims): Promise<{ data: Buffer; contentType: string; kind: q.UploadKind }> {
    const row = await q.uploadById(this.db, id);
    if (!row || row.data === null || (row.owner_id !== caller.user_id && !caller.is_staff)) refuse('upload_not_found');
    return { data: Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength), contentType: row.content_type, kind: row.kind };
  }
}

/**
 * Moves the pictures stored as files before migration 021 (one file per upload under `dir`, named by its id) into their
 * rows, and removes each file once its bytes are in the database. A row whose file is not on this instance's disk is
 * left as it is: another instance may hold it (until then it is missing, a 404). Run at every start.
 */
export async function adoptUploadFiles(db: Db, dir: string): Promise<number> {
  let moved = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await q.uploadsOnDisk(db, after, 20);
    if (batch.length === 0) return moved;
    for (const { id } of batch) {
      after = id;
      const file = path.join(dir, id);
      const data = await readFile(file).catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return null;
        throw e;
      });
      if (!data) continue;
      await q.keepBytes(db, id, data);
      await rm(file, { force: true });
      moved++;
    }
  }
}
