import type { Logger } from '../log.ts';
import type { Db } from './index.ts';
import { repeat, type Stop } from '../repeat.ts';

/**
 * Rows that only ever grow are pruned once they can no longer matter: finished rate-limit windows, one-time
 * codes a day after they expired or were used, refresh tokens a day after they expired or were revoked,
 * and pictures nobody claimed within a day (a registration that was abandoned), with their bytes (their row holds them).
 */
export async function housekeep(db: Db): Promise<Record<string, number>> {
  const count = async (sql: string) => (await db.query(sql)).length;
  return {
    rateLimits: await count(`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day' RETURNING key`),
    codes: await count(`DELETE FROM one_time_codes WHERE COALESCE(consumed_at, expires_at) < now() - interval '1 day' RETURNING id`),
    refreshTokens: await count(
      `DELETE FROM refresh_tokens WHERE COALESCE(revoked_at, expires_at) < now() - interval '1 day' RETURNING jti`,
    ),
    uploads: await count(`DELETE FROM uploads WHERE owner_id IS NULL AND created_at < now() - interval '1 day' RETURNING id`),
  };
}

/** Runs housekeeping 30 s after the start and then hourly, without keeping the process alive for it. */
export function scheduleHousekeeping(db: Db, log: Logger): Stop {
  const run = async () => log.debug({ pruned: await housekeep(db) }, 'housekeeping');
  return repeat({ run, firstMs: 30_000, everyMs: 3600_000, log, failed: 'housekeeping failed' });
}
