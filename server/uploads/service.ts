import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TFunction } from 'i18next';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
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
 * Pictures are stored by the product under DATA_DIR/uploads (docs/rules/security.md#8-uploads): checked by their bytes,
 * re-encoded without metadata (server/uploads/image.ts),
 * rate-limited per player (or per address before sign-up), served only to their owner and to staff.
 */
export class Uploads {
  constructor(
    private readonly db: Db,
    private readonly dir: string,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Stores a picture; an NID photo always has its owner (the NID upload is for logged-in players only). */
  async store(
    body: unknown,
    ownerId: number | null,
    ctx: { t: TFunction; ip: string },
    kind: q.UploadKind = 'profile',
  ): Promise<{ id: string; url: string }> {
    // Per player when logged in; a sign-up picture has no player yet: per address, as a flood ceiling (docs/rules/limits.md#1-rate-limits).
    await throttle(
      this.db,
      [ownerId === null ? [`upload:ip:${ctx.ip}`, LIMITS.anonymousUploadPerIp] : [`upload:user:${ownerId}`, LIMITS.uploadPerUser]],
      ctx.t,
    );
    if (!Buffer.isBuffer(body) || body.length === 0) throw ApiError.fields({ image: [ctx.t('api:imageRequired')] });
    const type = sniffImage(body);
    if (!type) throw ApiError.fields({ image: [ctx.t('api:imageType')] });
    // Never the bytes as sent: decoded and written anew, without metadata (a phone's GPS position) and bounded in size.
    const data = await reencodePicture(body, type, kind);
    if (!data) throw ApiError.fields({ image: [ctx.t('api:imageUnreadable')] });
    const id = randomUUID();
    await writeFile(path.join(this.dir, id), data, { mode: 0o600 });
    await q.insertUpload(this.db, { id, ownerId, kind, contentType: type, size: data.length });
    return { id, url: uploadUrl(id) };
  }

  /**
   * The picture's bytes and kind for its owner or staff; anyone else gets the same 404 as for a missing one. The file
   * is named by the id as the database writes it (lower case); a picture whose file is gone is missing too.
   */
  async read(id: string, caller: AccessClaims, t: TFunction): Promise<{ data: Buffer; contentType: string; kind: q.UploadKind }> {
    const notFound = () => ApiError.detail(404, t('api:notFound'), 'not_found');
    const row = await q.uploadById(this.db, id);
    if (!row || (row.owner_id !== caller.user_id && !caller.is_staff)) throw notFound();
    try {
      return { data: await readFile(path.join(this.dir, row.id)), contentType: row.content_type, kind: row.kind };
    } catch (e) {
      // Its file removed meanwhile (housekeeping, a restore without the files): as missing as the row would be.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
      throw e;
    }
  }
}
