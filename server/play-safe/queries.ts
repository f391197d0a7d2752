import type { Db } from '../db/index.ts';
import { COUNTED_STATUSES } from '../../shared/play-safe/limits.ts';
import { SESSION_RIGHTS, type SessionState } from '../accounts/service.ts';
import { unreadCount } from '../messages/service.ts';

/** A row of `play_limits` (migration 018): amounts whole taka, times ISO UTC. */
export type PlayRow = {
  user_id: number;
  day_limit: number | null;
  week_limit: number | null;
  month_limit: number | null;
  pending_day: number | null;
  pending_week: number | null;
  pending_month: number | null;
  pending_at: string | null;
  excluded_until: string | null;
  excluded_at: string | null;
  /** A time-out (migration 033): until when, and when it was taken; both null without one. */
  timeout_until: string | null;
  timeout_at: string | null;
  /** How often the reality check reminds him, in minutes (migration 020); null: never chosen, the default applies. */
  reality_minutes: number | null;
};

/**
 * Serialises the purchases of one player (docs/rules/play-safe.md#4-every-purchase-path): held until his database
 * transaction ends, so that of two purchases at once the second sees the first and its amount. An advisory lock keyed
 * on the player, taken after the lottery's row lock (the order every purchase path takes them in), and no row of
 * `users` locked: logins and profile changes never wait for a purchase.
 */
export const lockPlayer = (tx: Db, userId: number) =>
  tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('play-limits:' || $1::text, 0))`, [userId]);

export const settingsOf = (db: Db, userId: number) => db.one<PlayRow>('SELECT * FROM play_limits WHERE user_id = $1', [userId]);

/** What a purchase's play check reads first: whether the player has settings, and his session as the reality check reads it. */
export type PlayCheckRead = { has_settings: boolean; rc_started_at: string | null; rc_acknowledged_at: string | null };

/**
 * PlayCheckRead's columns, for the player named by the parameter `user` and the session by `sid` (`'$1'`, `'$2'`…): for
 * a statement that reads them beside others (a purchase's reads under the lottery's lock, server/purchases/queries.ts).
 */
export const playCheckColumns = (user: string, sid: string) =>
  `EXISTS (SELECT 1 FROM play_limits p WHERE p.user_id = ${user}) AS has_settings,
   (SELECT r.created_at FROM refresh_tokens r WHERE r.jti = ${sid} AND r.user_id = ${user}) AS rc_started_at,
   (SELECT r.reality_acknowledged_at FROM refresh_tokens r WHERE r.jti = ${sid} AND r.user_id = ${user}) AS rc_acknowledged_at`;

/**
 * What a purchase's play check reads first, in one statement: the player's settings and the caller's session. One
 * statement fewer on every purchase, which on a Saturday waits for the lottery's lock (docs/rules/play-safe.md#4-every-purchase-path).
 */
export const playCheckOf = (db: Db, userId: number, sid: string) =>
  db.one<PlayCheckRead>(`SELECT ${playCheckColumns('$1', '$2')}`, [userId, sid]);

/**
 * What the player spent since each of these instants: the amounts of his purchases that count (not failed), leaving out
 * one purchase when asked (a checkout started for a purchase already made is checked as that purchase made now).
 */
export const spentSince = (
  db: Db,
  userId: number,
  starts: { day: string; week: string; month: string },
  except: number | null,
  exceptSlip: number | null = null,
) =>
  db.one<{ day: string; week: string; month: string }>(
    `SELECT COALESCE(sum(amount) FILTER (WHERE created_at >= $2::timestamptz), 0)::text AS day,
            COALESCE(sum(amount) FILTER (WHERE created_at >= $3::timestamptz), 0)::text AS week,
            COALESCE(sum(amount) FILTER (WHERE created_at >= $4::timestamptz), 0)::text AS month
       FROM transactions
      WHERE user_id = $1 AND status = ANY($5::text[]) AND created_at >= LEAST($2::timestamptz, $3::timestamptz, $4::timestamptz)
        AND ($6::bigint IS NULL OR id <> $6::bigint) AND ($7::bigint IS NULL OR slip_id IS DISTINCT FROM $7::bigint)`,
    [userId, starts.day, starts.week, starts.month, COUNTED_STATUSES, except, exceptSlip],
  );

export type NewLimits = { day: number | null; week: number | null; month: number | null };

/** Writes the limits in force and the raise waiting (null: none), and records the request. */
export async function saveLimits(
  tx: Db,
  userId: number,
  now: NewLimits,
  pending: { limits: NewLimits; effectiveAt: string } | null,
  requested: NewLimits,
  requestedEffectiveAt: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO play_limits (user_id, day_limit, week_limit, month_limit, pending_day, pending_week, pending_month, pending_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
     ON CONFLICT (user_id) DO UPDATE SET day_limit = $2, week_limit = $3, month_limit = $4, pending_day = $5, pending_week = $6,
       pending_month = $7, pending_at = $8, updated_at = now()`,
    [
      userId,
      now.day,
      now.week,
      now.month,
      pending?.limits.day ?? null,
      pending?.limits.week ?? null,
      pending?.limits.month ?? null,
      pending?.effectiveAt ?? null,
    ],
  );
  await tx.query(
    `INSERT INTO play_limit_events (user_id, kind, day_limit, week_limit, month_limit, effective_at) VALUES ($1, 'limits', $2, $3, $4, $5)`,
    [userId, requested.day, requested.week, requested.month, requestedEffectiveAt],
  );
}

/**
 * Writes a break until `until` (taken now) — a self-exclusion, or a time-out (docs/rules/play-safe.md#3a-time-out) in
 * its own columns — and records it in the player's history.
 */
export async function saveBreak(tx: Db, userId: number, kind: 'self_exclusion' | 'time_out', until: string): Promise<void> {
  const [end, at] = kind === 'time_out' ? ['timeout_until', 'timeout_at'] : ['excluded_until', 'excluded_at'];
  await tx.query(
    `INSERT INTO play_limits (user_id, ${end}, ${at}, updated_at) VALUES ($1, $2, now(), now())
     ON CONFLICT (user_id) DO UPDATE SET ${end} = $2, ${at} = now(), updated_at = now()`,
    [userId, until],
  );
  await tx.query(`INSERT INTO play_limit_events (user_id, kind, until) VALUES ($1, $2, $3)`, [userId, kind, until]);
}

export type EventRow = {
  kind: 'limits' | 'self_exclusion' | 'time_out';
  day_limit: number | null;
  week_limit: number | null;
  month_limit: number | null;
  effective_at: string | null;
  until: string | null;
  at: string;
};

/** The player's requests, newest first (at most `limit`). */
export const eventsOf = (db: Db, userId: number, limit: number) =>
  db.query<EventRow>(
    `SELECT kind, day_limit, week_limit, month_limit, effective_at, until, at FROM play_limit_events
      WHERE user_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );

/** Whether the user exists (the staff's read of someone who is not there is a 404). */
export const userExists = async (db: Db, userId: number) =>
  (await db.one<{ id: number }>('SELECT id FROM users WHERE id = $1', [userId])) !== undefined;

/**
 * The dashboard's two numbers (docs/rules/pages.md#9-back-office), as columns of its figures statement: players with a
 * limit in force (a raise whose time came counted as it applies), and players self-excluded now.
 */
export const PLAY_FIGURES = `(SELECT count(*) FROM play_limits WHERE
         CASE WHEN pending_at IS NOT NULL AND pending_at <= now() THEN COALESCE(pending_day, pending_week, pending_month)
              ELSE COALESCE(day_limit, week_limit, month_limit) END IS NOT NULL)::int AS players_with_limit,
       (SELECT count(*) FROM play_limits WHERE excluded_until > now())::int AS players_self_excluded`;

// The reality check (docs/rules/play-safe.md#7-reality-check) -------------------------------------------------------

/** A session as the reality check reads it: the refresh token's row (its jti is the access tokens' `sid`). */
export type RealitySessionRow = { started_at: string; acknowledged_at: string | null };

export const realitySession = (db: Db, userId: number, sid: string) =>
  db.one<RealitySessionRow>(
    'SELECT created_at AS started_at, reality_acknowledged_at AS acknowledged_at FROM refresh_tokens WHERE jti = $1 AND user_id = $2',
    [sid, userId],
  );

const realitySql = (extra: string) => `SELECT r.created_at AS started_at, r.reality_acknowledged_at AS acknowledged_at,
            (SELECT reality_minutes FROM play_limits WHERE user_id = $2) AS reality_minutes, u.spent, u.tickets${extra}
       FROM (SELECT 1) AS one
       LEFT JOIN refresh_tokens r ON r.jti = $1 AND r.user_id = $2
       CROSS JOIN LATERAL (SELECT COALESCE(sum(amount), 0)::text AS spent, count(*)::int AS tickets FROM transactions
                            WHERE user_id = $2 AND status = ANY($3::text[]) AND created_at >= COALESCE(r.created_at, now())) AS u`;

/**
 * Everything the reality check shows, in one statement (it is read for every logged-in page): the session's row (none:
 * the session counts as starting now), the interval the player chose (null: none chosen, or no row), and what he
 * spent since the session started and on how many tickets, counted as spentSinceSession counts them.
 */
export const realityNow = (db: Db, userId: number, sid: string) => db.one<RealityNowRow>(realitySql(''), [sid, userId, COUNTED_STATUSES]);

export type RealityNowRow = Partial<RealitySessionRow> & { reality_minutes: number | null; spent: string; tickets: number };

/**
 * What the top bar of every page a logged-in player opens shows, in one statement: the reality check as realityNow
 * reads it and the bell's unread count (server/messages/queries.ts unreadCount).
 */
export const topBarNow = (db: Db, userId: number, sid: string) => db.one<TopBarRow>(TOP_BAR, [sid, userId, COUNTED_STATUSES]);

const TOP_BAR = realitySql(`, ${unreadCount('$2')} AS unread`);
export type TopBarRow = RealityNowRow & { unread: number };

/**
 * The bearer check of a player's page (server/accounts/queries.ts liveSessionRights) and the page's top bar (topBarNow)
 * in one statement: the first read of a page answers both (server/bff/server-api.ts). No row: the user is gone.
 */
export const sessionTopBarNow = (db: Db, sid: string, userId: number) =>
  db.one<SessionState & TopBarRow>(`SELECT s.*, b.* FROM (${SESSION_RIGHTS}) AS s CROSS JOIN (${TOP_BAR}) AS b`, [
    sid,
    userId,
    COUNTED_STATUSES,
  ]);

/** The interval the player chose (null: none chosen, or no row). */
export const realityMinutesOf = async (db: Db, userId: number): Promise<number | null> =>
  (await db.one<{ reality_minutes: number | null }>('SELECT reality_minutes FROM play_limits WHERE user_id = $1', [userId]))
    ?.reality_minutes ?? null;

/** What the player spent since `since`, and on how many tickets: his purchases that count (not failed), as the limits count them. */
export const spentSinceSession = (db: Db, userId: number, since: string) =>
  db.one<{ spent: string; tickets: number }>(
    `SELECT COALESCE(sum(amount), 0)::text AS spent, count(*)::int AS tickets FROM transactions
      WHERE user_id = $1 AND status = ANY($2::text[]) AND created_at >= $3::timestamptz`,
    [userId, COUNTED_STATUSES, since],
  );

/** Writes how often the player is reminded; his limits and exclusion stay as they are. */
export const saveRealityMinutes = (db: Db, userId: number, minutes: number) =>
  db.query(
    `INSERT INTO play_limits (user_id, reality_minutes, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (user_id) DO UPDATE SET reality_minutes = $2, updated_at = now()`,
    [userId, minutes],
  );

/** "Continue playing": the session's reminder acknowledged at `at`. */
export const acknowledgeRealityAt = (db: Db, userId: number, sid: string, at: string) =>
  db.query('UPDATE refresh_tokens SET reality_acknowledged_at = $3 WHERE jti = $1 AND user_id = $2', [sid, userId, at]);
