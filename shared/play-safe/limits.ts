/**
 * Keeping play safe (docs/rules/play-safe.md): the rules of spend limits and self-exclusion as plain functions of
 * their inputs and the time. Periods are Dhaka's calendar (UTC+6, no daylight saving: shared/dates.ts): a day starts at
 * Dhaka midnight, a week on Saturday 00:00 (Bangladesh's week), a month on the 1st.
 */
import { DHAKA_OFFSET_MS } from '../dates.ts';
import type { TransactionStatus } from '../purchases/schemas.ts';

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** A limit per period in whole taka; null: no limit. */
export type Limits = Record<Period, number | null>;
export const NO_LIMITS: Limits = { day: null, week: null, month: null };

/** The highest limit a player may set (one crore taka): a bigger number is a typing mistake, not a limit. */
export const LIMIT_MAX = 10_000_000;

/** A raise, or a limit removed, takes effect this long after it was asked for (docs/rules/play-safe.md#2-changing-a-limit). */
export const RAISE_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * The purchases that count as spent (docs/rules/play-safe.md#1-spend-limits): every one that is not `failed`. A pending
 * purchase holds its ticket and may be paid (and approved) at any moment, so it counts from the moment it is made; a
 * failed one holds nothing and was never paid, so it does not.
 */
export const COUNTED_STATUSES = ['pending', 'success'] as const satisfies readonly TransactionStatus[];
export const countsAsSpent = (status: TransactionStatus): boolean => (COUNTED_STATUSES as readonly string[]).includes(status);

const DAY_MS = 24 * 60 * 60 * 1000;
const SATURDAY = 6;

/** Dhaka's wall clock of an instant, as the UTC fields of a Date. */
const dhaka = (ms: number): Date => new Date(ms + DHAKA_OFFSET_MS);
/** A Dhaka wall-clock date and time → the instant (UTC ms). */
const fromDhaka = (y: number, m: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number =>
  Date.UTC(y, m, d, h, mi, s, ms) - DHAKA_OFFSET_MS;

/** When the current period started (UTC ms): Dhaka midnight; the Saturday 00:00 of this week; the 1st of the month. */
export function periodStart(period: Period, nowMs: number): number {
  const l = dhaka(nowMs);
  const midnight = fromDhaka(l.getUTCFullYear(), l.getUTCMonth(), l.getUTCDate());
  switch (period) {
    case 'day':
      return midnight;
    case 'week':
      return midnight - ((l.getUTCDay() - SATURDAY + 7) % 7) * DAY_MS;
    case 'month':
      return fromDhaka(l.getUTCFullYear(), l.getUTCMonth(), 1);
  }
}

/** When the current period ends and the amount spent starts again from nothing (UTC ms). */
export function periodReset(period: Period, nowMs: number): number {
  const start = periodStart(period, nowMs);
  if (period === 'day') return start + DAY_MS;
  if (period === 'week') return start + 7 * DAY_MS;
  const l = dhaka(start);
  return fromDhaka(l.getUTCFullYear(), l.getUTCMonth() + 1, 1);
}

/** A purchase as the limits see it. */
export type Spend = { amount: number; status: TransactionStatus; created_at: string | number };

/** What the player spent in the current period: the amounts of the purchases that count, made since it started. */
export function spentIn(period: Period, purchases: readonly Spend[], nowMs: number): number {
  const start = periodStart(period, nowMs);
  let sum = 0;
  for (const p of purchases) {
    const at = typeof p.created_at === 'number' ? p.created_at : Date.parse(p.created_at);
    if (countsAsSpent(p.status) && at >= start && at <= nowMs) sum += p.amount;
  }
  return sum;
}

/** A player's settings as stored: the limits in force when last written, and a raise waiting for its time. */
export type LimitSettings = { limits: Limits; pending: { limits: Limits; effective_at: number } | null };

/** The limits that apply now: a waiting raise whose time has come applies (docs/rules/play-safe.md#2-changing-a-limit). */
export function limitsNow(s: LimitSettings, nowMs: number): Limits {
  return s.pending && s.pending.effective_at <= nowMs ? s.pending.limits : s.limits;
}

/** The raise still waiting now, if any. */
export const pendingNow = (s: LimitSettings, nowMs: number): LimitSettings['pending'] =>
  s.pending && s.pending.effective_at > nowMs ? s.pending : null;

/** Whether going from `from` to `to` makes play less safe: a higher limit, or a limit removed. */
const loosens = (from: number | null, to: number | null): boolean => from !== null && (to === null || to > from);

/**
 * A player asks for new limits (docs/rules/play-safe.md#2-changing-a-limit). Each limit lowered, or set where there was
 * none, takes effect at once; each one raised or removed takes effect RAISE_DELAY_MS after the request, the old one
 * applying until then. A new request replaces a raise still waiting (asking again for the limits in force cancels it;
 * asking again for a raise starts its wait again).
 */
export function requestLimits(current: LimitSettings, requested: Limits, nowMs: number): LimitSettings {
  const inForce = limitsNow(current, nowMs);
  const now: Limits = { ...inForce };
  let raised = false;
  for (const p of PERIODS) {
    if (loosens(inForce[p], requested[p])) raised = true;
    else now[p] = requested[p];
  }
  return { limits: now, pending: raised ? { limits: { ...requested }, effective_at: nowMs + RAISE_DELAY_MS } : null };
}

/** Why a purchase of `amount` is refused, or null when it fits every limit (exactly at a limit fits; one taka over does not). */
export type LimitBreach = { period: Period; limit: number; spent: number; resets_at: number };

export function limitBreach(limits: Limits, spent: Record<Period, number>, amount: number, nowMs: number): LimitBreach | null {
  for (const p of PERIODS) {
    const limit = limits[p];
    if (limit !== null && spent[p] + amount > limit) return { period: p, limit, spent: spent[p], resets_at: periodReset(p, nowMs) };
  }
  return null;
}

// Self-exclusion -------------------------------------------------------------------------------------------------------

export const EXCLUSION_PERIODS = ['6m', '1y', '5y'] as const;
export type ExclusionPeriod = (typeof EXCLUSION_PERIODS)[number];
const MONTHS: Record<ExclusionPeriod, number> = { '6m': 6, '1y': 12, '5y': 60 };

/**
 * When a self-exclusion chosen now ends: the same Dhaka time of day, that many calendar months later (the last day of
 * the month when the month is shorter: 31 August + 6 months is 28 or 29 February).
 */
export function exclusionUntil(period: ExclusionPeriod, nowMs: number): number {
  const l = dhaka(nowMs);
  const months = l.getUTCMonth() + MONTHS[period];
  const lastDay = new Date(Date.UTC(l.getUTCFullYear(), months + 1, 0)).getUTCDate();
  return fromDhaka(
    l.getUTCFullYear(),
    months,
    Math.min(l.getUTCDate(), lastDay),
    l.getUTCHours(),
    l.getUTCMinutes(),
    l.getUTCSeconds(),
    l.getUTCMilliseconds(),
  );
}

/** Whether an exclusion ending at `until` (null: none) still holds. */
export const isExcluded = (until: number | null, nowMs: number): boolean => until !== null && until > nowMs;

/**
 * A new self-exclusion over one that may still hold (docs/rules/play-safe.md#3-self-exclusion): it can only make the
 * exclusion longer. The new end, or null when it would end sooner than (or when) the one in force.
 */
export function extendExclusion(current: number | null, period: ExclusionPeriod, nowMs: number): number | null {
  const until = exclusionUntil(period, nowMs);
  return isExcluded(current, nowMs) && current !== null && until <= current ? null : until;
}

// Time-out: a short break (docs/rules/play-safe.md#3a-time-out) ------------------------------------------------------------

export const TIME_OUT_PERIODS = ['24h', '7d', '30d'] as const;
export type TimeOutPeriod = (typeof TIME_OUT_PERIODS)[number];
const TIME_OUT_MS: Record<TimeOutPeriod, number> = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

/** When a time-out taken now ends: exactly 24 hours, 7 days or 30 days later (Dhaka has no daylight saving). */
export const timeOutUntil = (period: TimeOutPeriod, nowMs: number): number => nowMs + TIME_OUT_MS[period];

/**
 * A new time-out over one that may still run: like a self-exclusion, it can only make it longer. The new end, or null
 * when it would end sooner than (or when) the one in force.
 */
export function extendTimeOut(current: number | null, period: TimeOutPeriod, nowMs: number): number | null {
  const until = timeOutUntil(period, nowMs);
  return isExcluded(current, nowMs) && current !== null && until <= current ? null : until;
}

/** A break from play in force: a self-exclusion or a time-out, and when it ends. */
export type PlayBreak = { kind: 'self_exclusion' | 'time_out'; until: number };

/**
 * The break that stops the player playing now, or null (docs/rules/play-safe.md#4-every-purchase-path): a
 * self-exclusion is told first (it is the longer commitment); a time-out otherwise. Both block the same things.
 */
export function breakNow(exclusion: number | null, timeOut: number | null, nowMs: number): PlayBreak | null {
  if (exclusion !== null && isExcluded(exclusion, nowMs)) return { kind: 'self_exclusion', until: exclusion };
  if (timeOut !== null && isExcluded(timeOut, nowMs)) return { kind: 'time_out', until: timeOut };
  return null;
}
