import type { z } from 'zod';
import type { Refusal } from '../../shared/api/refusal.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import {
  breakNow,
  extendExclusion,
  extendTimeOut,
  isExcluded,
  limitBreach,
  limitsNow,
  pendingNow,
  periodReset,
  periodStart,
  PERIODS,
  requestLimits,
  type LimitSettings,
  type Limits,
  type Period,
  type PlayBreak,
} from '../../shared/play-safe/limits.ts';
import type {
  LimitsBody,
  PlayLimits,
  RealityCheck,
  RealityIntervalBody,
  SelfExclusionBody,
  StaffPlayLimits,
  TimeOutBody,
  TopBar,
} from '../../shared/play-safe/schemas.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { intervalOf } from '../../shared/play-safe/reality.ts';
import * as q from './queries.ts';
import * as reality from './reality.ts';
import type { SessionOf } from './reality.ts';

/** What a purchase's play check reads, and its SQL for a statement that reads more (server/play-safe/queries.ts). */
export { playCheckColumns, type PlayCheckRead } from './queries.ts';

/** The dashboard's two numbers, as columns of its figures statement (server/dashboard/queries.ts). */
export const PLAY_FIGURES = q.PLAY_FIGURES;

/** How many of a player's requests the staff's view lists. */
const HISTORY = 50;

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (s: string) => Date.parse(s);

/** The stored row as the rules read it (no row: no limit, no exclusion). */
function settings(r: q.PlayRow | undefined): LimitSettings {
  if (!r) return { limits: { day: null, week: null, month: null }, pending: null };
  return {
    limits: { day: r.day_limit, week: r.week_limit, month: r.month_limit },
    pending:
      r.pending_at === null
        ? null
        : { limits: { day: r.pending_day, week: r.pending_week, month: r.pending_month }, effective_at: ms(r.pending_at) },
  };
}

const exclusionUntilOf = (r: q.PlayRow | undefined): number | null => (r?.excluded_until ? ms(r.excluded_until) : null);
const timeOutUntilOf = (r: q.PlayRow | undefined): number | null => (r?.timeout_until ? ms(r.timeout_until) : null);
/** The break (self-exclusion or time-out) that stops the player playing now, or null. */
const breakOf = (r: q.PlayRow | undefined, nowMs: number): PlayBreak | null => breakNow(exclusionUntilOf(r), timeOutUntilOf(r), nowMs);

/** What the player spent in each current period (docs/rules/play-safe.md#1-spend-limits). */
async function spent(
  db: Db,
  userId: number,
  nowMs: number,
  except: number | null,
  exceptSlip: number | null,
): Promise<Record<Period, number>> {
  const starts = { day: iso(periodStart('day', nowMs)), week: iso(periodStart('week', nowMs)), month: iso(periodStart('month', nowMs)) };
  const r = await q.spentSince(db, userId, starts, except, exceptSlip);
  return { day: Number(r?.day ?? 0), week: Number(r?.week ?? 0), month: Number(r?.month ?? 0) };
}

/**
 * A player on a break's refusal (docs/rules/play-safe.md#4-every-purchase-path): 403 `self_excluded` or `time_out`,
 * with until when; `trxId`: a TrxID given on a break, whose text says what becomes of the purchase.
 */
const onBreak = (b: PlayBreak, trxId = false) => {
  const until = iso(b.until);
  const name = b.kind === 'time_out' ? (trxId ? 'time_out_trx_id' : 'time_out') : trxId ? 'self_excluded_trx_id' : 'self_excluded';
  return refusal(name, { vars: { until }, extra: { until } });
};

/**
 * The TrxID of an earlier purchase given while self-excluded or on a time-out (docs/rules/play-safe.md#4-every-purchase-path):
 * refused with the purchase's own words, and what becomes of that purchase (it stays unpaid and is cancelled when its
 * sales close; money already sent is refunded by support). Only the break is checked: the purchase was counted already.
 * Answered, not thrown: the TrxID's path reads it beside its other reads and refuses in its own order.
 */
export async function trxIdBreakRefusal(tx: Db, userId: number): Promise<Refusal | undefined> {
  const b = breakOf(await q.settingsOf(tx, userId), Date.now());
  return b ? onBreak(b, true) : undefined;
}

/**
 * THE check of every purchase path (docs/rules/play-safe.md#4-every-purchase-path): a ticket bought, a checkout
 * started, a generated ticket activated. Called inside the purchase's own database transaction, after the lottery's row
 * lock: it takes the player's lock (server/play-safe/queries.ts lockPlayer) and holds it to the end of that transaction, so
 * that two purchases at once cannot both fit a limit only one of them fits. A self-excluded player is refused (403
 * `self_excluded`); while a reality check is due in the caller's session (`player.sid`) every purchase is refused (409
 * `reality_check`, docs/rules/play-safe.md#7-reality-check); a purchase of `amount` that would take what he spent in a
 * period over its limit is refused (409 `spend_limit`, with the limit, the period and when it starts again); exactly at
 * the limit is allowed. `except`: a purchase already made and counted, checked again as if it were made now (the
 * checkout's start); `exceptSlip`, a whole slip's entries so (a run's checkout, docs/rules/games.md#6-consecutive-draws-and-play-slips). `read`: what playCheckOf reads, when the caller read it already in its own statement under the
 * lottery's lock (a purchase: server/purchases/queries.ts purchaseReads).
 */
export async function checkPlay(
  tx: Db,
  player: SessionOf,
  amount: number,
  o: { except?: number; exceptSlip?: number; read?: q.PlayCheckRead } = {},
): Promise<void> {
  const userId = player.user_id;
  // Most players set nothing: one read (his settings and his session together), no lock. A player with settings is
  // locked first, so that two of his purchases at once take turns and the second counts the first
  // (docs/rules/play-safe.md).
  const first = o.read ?? (await q.playCheckOf(tx, userId, player.sid));
  const session = first?.rc_started_at ? { started_at: first.rc_started_at, acknowledged_at: first.rc_acknowledged_at } : undefined;
  let row: q.PlayRow | undefined;
  if (first?.has_settings) {
    await q.lockPlayer(tx, userId);
    row = await q.settingsOf(tx, userId);
  }
  const nowMs = Date.now();
  const playBreak = breakOf(row, nowMs);
  if (playBreak) throw onBreak(playBreak);
  // Every player has a reality check (every 60 minutes unless he chose otherwise), settings or not.
  await reality.refuseWhileDue(tx, player, { session, minutes: row?.reality_minutes ?? null });
  if (!row) return;
  const limits = limitsNow(settings(row), nowMs);
  if (PERIODS.every((p) => limits[p] === null)) return;
  const breach = limitBreach(limits, await spent(tx, userId, nowMs, o.except ?? null, o.exceptSlip ?? null), amount, nowMs);
  if (!breach) return;
  const over = { period: breach.period, limit: breach.limit, spent: breach.spent, resets_at: iso(breach.resets_at) };
  refuse('spend_limit', { vars: over, extra: over });
}

const limitsJson = (l: Limits) => ({ day: l.day, week: l.week, month: l.month });

/** A player's spend limits and self-exclusion (docs/rules/play-safe.md): he sets his own; staff read anyone's. */
export class Play {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The player's limits in force, a raise waiting, what he spent in each period and when it starts again, his exclusion. */
  async of(userId: number, db: Db = this.db): Promise<z.input<typeof PlayLimits>> {
    const nowMs = Date.now();
    const row = await q.settingsOf(db, userId);
    const s = settings(row);
    const limits = limitsNow(s, nowMs);
    const pending = pendingNow(s, nowMs);
    const used = await spent(db, userId, nowMs, null, null);
    const until = exclusionUntilOf(row);
    const timeOut = timeOutUntilOf(row);
    return {
      limits: limitsJson(limits),
      pending: pending ? { limits: limitsJson(pending.limits), effective_at: iso(pending.effective_at) } : null,
      periods: PERIODS.map((p) => {
        const limit = limits[p];
        return {
          period: p,
          limit,
          spent: used[p],
          left: limit === null ? null : Math.max(0, limit - used[p]),
          resets_at: iso(periodReset(p, nowMs)),
        };
      }),
      self_exclusion:
        until !== null && isExcluded(until, nowMs) && row?.excluded_at ? { until: iso(until), set_at: row.excluded_at } : null,
      time_out: timeOut !== null && isExcluded(timeOut, nowMs) && row?.timeout_at ? { until: iso(timeOut), set_at: row.timeout_at } : null,
    };
  }

  /**
   * New limits (docs/rules/play-safe.md#2-changing-a-limit): lowered or first set at once, raised or removed 24 hours
   * later. Under the player's lock, so that a purchase checks either the old limits or the new ones.
   */
  async setLimits(userId: number, body: z.output<typeof LimitsBody>): Promise<z.input<typeof PlayLimits>> {
    return this.db.tx(async (tx) => {
      await q.lockPlayer(tx, userId);
      const nowMs = Date.now();
      const next = requestLimits(settings(await q.settingsOf(tx, userId)), body, nowMs);
      await q.saveLimits(
        tx,
        userId,
        next.limits,
        next.pending ? { limits: next.pending.limits, effectiveAt: iso(next.pending.effective_at) } : null,
        body,
        iso(next.pending?.effective_at ?? nowMs),
      );
      return this.of(userId, tx);
    });
  }

  /**
   * Self-exclusion (docs/rules/play-safe.md#3-self-exclusion): from now for the period chosen; one in force can only be
   * made longer (a request that would end it sooner is 409 `exclusion_not_shorter`, and changes nothing).
   */
  exclude(userId: number, body: z.output<typeof SelfExclusionBody>): Promise<z.input<typeof PlayLimits>> {
    return this.takeBreak(userId, 'self_exclusion', body.period, (current, nowMs) => extendExclusion(current, body.period, nowMs));
  }

  /**
   * A time-out (docs/rules/play-safe.md#3a-time-out): a break of 24 hours, 7 days or 30 days from now; like a
   * self-exclusion it can only be made longer (one that would end sooner is 409 `time_out_not_shorter`, and changes
   * nothing).
   */
  takeTimeOut(userId: number, body: z.output<typeof TimeOutBody>): Promise<z.input<typeof PlayLimits>> {
    return this.takeBreak(userId, 'time_out', body.period, (current, nowMs) => extendTimeOut(current, body.period, nowMs));
  }

  /**
   * A break taken (a self-exclusion or a time-out), under the player's lock: `extend` gives its new end from the one in
   * force, or null when it would not be longer (409 with a code of its kind). Kept in the player's history
   * (play_limit_events) and in the audit log, the player as its actor (docs/rules/play-safe.md#5-what-staff-see).
   */
  private takeBreak(
    userId: number,
    kind: PlayBreak['kind'],
    period: string,
    extend: (current: number | null, nowMs: number) => number | null,
  ): Promise<z.input<typeof PlayLimits>> {
    return this.db.tx(async (tx) => {
      await q.lockPlayer(tx, userId);
      const nowMs = Date.now();
      const row = await q.settingsOf(tx, userId);
      const current = kind === 'time_out' ? timeOutUntilOf(row) : exclusionUntilOf(row);
      const until = extend(current, nowMs);
      if (until === null && current !== null)
        refuse(kind === 'time_out' ? 'time_out_not_shorter' : 'exclusion_not_shorter', {
          vars: { until: iso(current) },
          extra: { until: iso(current) },
        });
      if (until === null) throw new Error('a break with nothing in force must have an end');
      await q.saveBreak(tx, userId, kind, iso(until));
      await recordAudit(tx, {
        actorId: userId,
        action: kind === 'time_out' ? 'play.time_out' : 'play.self_exclusion',
        entity: 'user',
        entityId: String(userId),
        before: current !== null && isExcluded(current, nowMs) ? { until: iso(current) } : null,
        after: { period, until: iso(until) },
      });
      return this.of(userId, tx);
    });
  }

  /** The reality check of the caller's session (docs/rules/play-safe.md#7-reality-check). */
  reality(who: SessionOf): Promise<z.input<typeof RealityCheck>> {
    return reality.realityOf(this.db, who);
  }

  /** The top bar of the caller's pages: his session's reality check and his unread messages' count, in one read. */
  topBar(who: SessionOf): Promise<z.input<typeof TopBar>> {
    return reality.topBarOf(this.db, who);
  }

  /** The bearer check's reading of a session with the top bar of the player's page, in one read (reality.sessionTopBarOf). */
  sessionTopBar(sid: string, userId: number) {
    return reality.sessionTopBarOf(this.db, sid, userId);
  }

  /** "Continue playing": the reminder due now acknowledged; nothing changes when none is due. */
  acknowledgeReality(who: SessionOf): Promise<z.input<typeof RealityCheck>> {
    return reality.acknowledge(this.db, who);
  }

  /** How often the player is reminded: at once. */
  setRealityInterval(who: SessionOf, body: z.output<typeof RealityIntervalBody>): Promise<z.input<typeof RealityCheck>> {
    return reality.setRealityInterval(this.db, who, body);
  }

  /** Staff (read only): a player's settings and the history of his requests, newest first. */
  async forStaff(userId: number): Promise<z.input<typeof StaffPlayLimits>> {
    if (!(await q.userExists(this.db, userId))) refuse('user_not_found');
    const [now, events, minutes] = await Promise.all([
      this.of(userId),
      q.eventsOf(this.db, userId, HISTORY),
      q.realityMinutesOf(this.db, userId),
    ]);
    return {
      user_id: userId,
      ...now,
      reality_check: { interval_minutes: intervalOf(minutes), chosen: minutes !== null },
      history: events.map((e) => ({
        kind: e.kind,
        limits: e.kind === 'limits' ? { day: e.day_limit, week: e.week_limit, month: e.month_limit } : null,
        effective_at: e.effective_at,
        until: e.until,
        at: e.at,
      })),
    };
  }
}
