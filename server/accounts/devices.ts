import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';

/**
 * Devices that logged in before (docs/decisions/025-limits-for-shared-addresses.md, migration 011): a device id is a
 * random string the server issued, the browser's `bh_vid` for page logins or the `X-Device-Id` an API login answers.
 * Only its SHA-256 is stored, with when it was last used; an account keeps its most recent `KEPT_PER_ACCOUNT`.
 */
export const KEPT_PER_ACCOUNT = 20;

/** 16 random bytes or more, base64url: what the server issues (a `bh_vid` is 22 characters). */
const DEVICE_ID = /^[A-Za-z0-9_-]{22,128}$/;

/** The device id a request carries, when it is well formed; anything else is no device id. */
export const deviceIdOf = (value: unknown): string | null => (typeof value === 'string' && DEVICE_ID.test(value) ? value : null);

export const newDeviceId = (): string => randomBytes(16).toString('base64url');

export const deviceHash = (id: string): string => createHash('sha256').update(id).digest('hex');

/** True when this device logged in to this account before. */
export async function isKnownDevice(db: Db, userId: number, deviceId: string): Promise<boolean> {
  const row = await db.one<{ known: boolean }>('SELECT true AS known FROM known_devices WHERE user_id = $1 AND device_hash = $2', [
    userId,
    deviceHash(deviceId),
  ]);
  return row !== undefined;
}

/** Remembers (or refreshes) a device after a successful login; the account's oldest beyond KEPT_PER_ACCOUNT go. */
export async function rememberDevice(db: Db, userId: number, deviceId: string): Promise<void> {
  await db.query(
    `INSERT INTO known_devices (user_id, device_hash) VALUES ($1, $2)
     ON CONFLICT (user_id, device_hash) DO UPDATE SET last_used_at = now()`,
    [userId, deviceHash(deviceId)],
  );
  await db.query(
    `DELETE FROM known_devices WHERE user_id = $1 AND device_hash NOT IN (
       SELECT device_hash FROM known_devices WHERE user_id = $1 ORDER BY last_used_at DESC LIMIT $2)`,
    [userId, KEPT_PER_ACCOUNT],
  );
}
