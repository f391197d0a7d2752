import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import express, { Router } from 'express';
import type { Db } from '../db/index.ts';
import { requireUser } from '../http/auth.ts';
import { ApiError } from '../http/errors.ts';
import { hit, LIMITS } from '../http/rate-limit.ts';

export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/** The file's own first bytes decide its type, not the header the client sent. */
export function sniffImage(b: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Pictures are stored by the product under DATA_DIR/uploads. The upload is the raw image as the body
 * (not a form), so the JSON-only rule of the API still holds for everything else.
 */
export function uploadRoutes(db: Db, dir: string): Router {
  mkdirSync(dir, { recursive: true });
  const r = Router();
  const raw = express.raw({ type: ['image/jpeg', 'image/png', 'image/webp'], limit: MAX_UPLOAD_BYTES });
  r.post('/v1/upload-image/', raw, async (req, res) => {
    const wait = await hit(db, `upload:ip:${req.ip}`, LIMITS.uploadPerIp);
    if (wait) throw new ApiError(429, { detail: req.t('api:tooManyRequests', { seconds: wait }), code: 'throttled' }, { 'Retry-After': String(wait) });
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body) || body.length === 0) throw ApiError.fields({ image: [req.t('api:imageRequired')] });
    const type = sniffImage(body);
    if (!type) throw ApiError.fields({ image: [req.t('api:imageType')] });
    const id = randomUUID();
    await writeFile(path.join(dir, id), body, { mode: 0o600 });
    await db.query('INSERT INTO uploads (id, owner_id, kind, content_type, size) VALUES ($1, $2, $3, $4, $5)', [id, req.user?.user_id ?? null, 'profile', type, body.length]);
    res.status(201).json({ success: true, data: { id, url: `/api/v1/uploads/${id}/` } });
  });
  // Served only to its owner and to staff.
  r.get('/v1/uploads/:id/', async (req, res) => {
    const me = requireUser(req);
    const id = String(req.params.id);
    const row = /^[0-9a-f-]{36}$/.test(id) ? await db.one<{ owner_id: number | null; content_type: string }>('SELECT owner_id, content_type FROM uploads WHERE id = $1', [id]) : undefined;
    if (!row || (row.owner_id !== me.user_id && !me.is_staff)) throw ApiError.detail(404, req.t('api:notFound'), 'not_found');
    const data = await readFile(path.join(dir, id));
    res.set({ 'Content-Type': row.content_type, 'Cache-Control': 'private, max-age=3600', 'X-Content-Type-Options': 'nosniff' }).send(data);
  });
  return r;
}
