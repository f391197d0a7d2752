import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import {
  acknowledgeReality,
  intervalOf,
  isRealityDue,
  minutesPlayed,
  realityDueAt,
  type RealityInterval,
  type RealitySession,
} from '../../shared/play-safe/reality.ts';
import type { RealityCheck, RealityIntervalBody, TopBar } from '../../shared/play-safe/schemas.ts';
import type { SessionState } from '../accounts/service.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import * as q from './queries.ts';

/**
 * The reality check (docs/rules/play-safe.md#7-reality-check): the caller's session is his access token's `sid`, the
 * refresh token's row it names; the session started when that row was made (the login). The rules are
 * shared/play-safe/reality.ts; this reads and writes them.
 */
export type SessionOf = Pick<AccessClaims, 'user_id' | 'sid'>;

type State = { interval: RealityInterval; session: RealitySession };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The session's start and last acknowledgement, and the interval the player chose. A session without a row (none is
 * live without one: server/http/auth.ts) counts as starting now.
 */
async function stateOf(db: Db, who: SessionOf, nowMs: number): Promise<State> {
  const row = await q.realitySession(db, who.user_id, who.sid);
  return stateFrom(row, await q.realityMinutesOf(db, who.user_id), nowMs);
}

function stateFrom(row: Partial<q.RealitySessionRow> | undefined, minutes: number | null, nowMs: number): State {
  const session = row?.started_at
    ? { started_at: Date.parse(row.started_at), acknowledged_at: row.acknowledged_at ? Date.parse(row.acknowledged_at) : null }
    : { started_at: nowMs, acknowledged_at: null };
  return { interval: intervalOf(minutes), session };
}

/** The answer of the reality-check endpoints: the state, how long the session has lasted and what was spent in it. */
function answerOf(s: State, used: { spent: string; tickets: number } | undefined, nowMs: number): z.input<typeof RealityCheck> {
  const dueAt = realityDueAt(s.session, s.interval);
  return {
    interval_minutes: s.interval,
    due: isRealityDue(s.session, s.interval, nowMs),
    due_at: dueAt === null ? null : iso(dueAt),
    session_started_at: iso(s.session.started_at),
    minutes_played: minutesPlayed(s.session.started_at, nowMs),
    spent: Number(used?.spent ?? 0),
    tickets: used?.tickets ?? 0,
  };
}

const answer = async (db: Db, who: SessionOf, s: State, nowMs: number) =>
  answerOf(s, await q.spentSinceSession(db, who.user_id, iso(s.session.started_at)), nowMs);

/** The caller's session as the reality check sees it (`GET /api/v1/reality-check/`). */
export async function realityOf(db: Db, who: SessionOf): Promise<z.input<typeof RealityCheck>> {
  return realityFrom(await q.realityNow(db, who.user_id, who.sid), Date.now());
}

/** The reality check from its statement's row (q.realityNow, q.topBarNow). */
const realityFrom = (row: q.RealityNowRow | undefined, nowMs: number) =>
  answerOf(stateFrom(row, row?.reality_minutes ?? null, nowMs), row, nowMs);

/**
 * The top bar of every page a logged-in player opens (`GET /api/v1/top-bar/`): his session's reality check and his
 * unread messages' count, read in one statement.
 */
export async function topBarOf(db: Db, who: SessionOf): Promise<z.input<typeof TopBar>> {
  return topBarFrom(await q.topBarNow(db, who.user_id, who.sid));
}

const topBarFrom = (row: q.TopBarRow | undefined): z.input<typeof TopBar> => ({
  reality: realityFrom(row, Date.now()),
  unread: row?.unread ?? 0,
});

/**
 * Whether the session `sid` is live and the user's rights now (server/http/auth.ts), with the top bar his page shows,
 * in one statement (q.sessionTopBarNow): what a player's page reads first (server/bff/server-api.ts). Undefined when
 * the user is gone; the top bar only counts when the session is live.
 */
export async function sessionTopBarOf(
  db: Db,
  sid: string,
  userId: number,
): Promise<(SessionState & { topBar: z.input<typeof TopBar> }) | undefined> {
  const row = await q.sessionTopBarNow(db, sid, userId);
  return row && { is_active: row.is_active, is_staff: row.is_staff, live: row.live, topBar: topBarFrom(row) };
}

/**
 * "Continue playing" (`POST /api/v1/reality-check/`): a reminder due now is acknowledged and the next is due one
 * interval from now; when none is due nothing changes (a reminder cannot be put off before it is shown).
 */
export async function acknowledge(db: Db, who: SessionOf): Promise<z.input<typeof RealityCheck>> {
  const nowMs = Date.now();
  const s = await stateOf(db, who, nowMs);
  const next = acknowledgeReality(s.session, s.interval, nowMs);
  if (next.acknowledged_at !== s.session.acknowledged_at && next.acknowledged_at !== null)
    await q.acknowledgeRealityAt(db, who.user_id, who.sid, iso(next.acknowledged_at));
  return answer(db, who, { ...s, session: next }, nowMs);
}

/** How often the player is reminded (`PUT /api/v1/reality-check/`): at once, in every session of his. */
export async function setRealityInterval(
  db: Db,
  who: SessionOf,
  body: z.output<typeof RealityIntervalBody>,
): Promise<z.input<typeof RealityCheck>> {
  await q.saveRealityMinutes(db, who.user_id, body.interval_minutes);
  return realityOf(db, who);
}

/**
 * Part of THE check of every purchase path (server/play-safe/service.ts checkPlay): while a reminder is due the purchase is
 * refused, 409 `reality_check`, with how long the session has lasted and what was spent in it, until the player
 * acknowledges it. As checkPlay read them: the session's row (undefined: none) and the interval of the player's row
 * (null: none chosen or no row).
 */
export async function refuseWhileDue(
  tx: Db,
  who: SessionOf,
  read: { session: Partial<q.RealitySessionRow> | undefined; minutes: number | null },
): Promise<void> {
  const nowMs = Date.now();
  const s = stateFrom(read.session, read.minutes, nowMs);
  if (!isRealityDue(s.session, s.interval, nowMs)) return;
  const a = await answer(tx, who, s, nowMs);
  refuse('reality_check', { vars: { minutes_played: a.minutes_played, spent: a.spent, tickets: a.tickets }, extra: a });
}
