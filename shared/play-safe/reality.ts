/**
 * The reality check (docs/rules/play-safe.md#7-reality-check): after the time the player chose in one session, a
 * reminder of how long the session has lasted and what he spent in it; purchases wait until he acknowledges it. The
 * rules as plain functions of their inputs and the time. A session is one login (its refresh token's row).
 */
import type { CountText, Language } from '../i18n.ts';
import { formatNumber } from '../dates.ts';

/** How often a player may be reminded, in minutes; 0 is off. */
export const REALITY_INTERVALS = [0, 15, 30, 60, 120] as const;
export type RealityInterval = (typeof REALITY_INTERVALS)[number];

/**
 * The interval of a player who never chose one, new or existing: every hour (docs/decisions/038-reality-check.md says
 * why not off).
 */
export const REALITY_DEFAULT: RealityInterval = 60;

export const isRealityInterval = (n: unknown): n is RealityInterval => (REALITY_INTERVALS as readonly unknown[]).includes(n);

/** The interval that applies: the one the player chose (stored), else the default. */
export const intervalOf = (stored: number | null | undefined): RealityInterval => (isRealityInterval(stored) ? stored : REALITY_DEFAULT);

const MINUTE_MS = 60_000;

/** A session as the reality check sees it: when it started (the login), when its last reminder was acknowledged. */
export type RealitySession = { started_at: number; acknowledged_at: number | null };

/**
 * When the next reminder is due (UTC ms): one interval after the later of the session's start and the last
 * acknowledgement; null when the player turned reminders off.
 */
export function realityDueAt(s: RealitySession, interval: RealityInterval): number | null {
  if (interval === 0) return null;
  return Math.max(s.started_at, s.acknowledged_at ?? s.started_at) + interval * MINUTE_MS;
}

/** Whether the reminder is due now: from the very moment the interval has passed (exactly at it too). */
export function isRealityDue(s: RealitySession, interval: RealityInterval, nowMs: number): boolean {
  const at = realityDueAt(s, interval);
  return at !== null && nowMs >= at;
}

/**
 * "Continue playing": a reminder due now is acknowledged, and the next is due one interval later. When none is due
 * (not yet, or reminders are off) nothing changes: a reminder cannot be put off before it is shown.
 */
export function acknowledgeReality(s: RealitySession, interval: RealityInterval, nowMs: number): RealitySession {
  return isRealityDue(s, interval, nowMs) ? { ...s, acknowledged_at: nowMs } : s;
}

/** Whole minutes since the session started (never below 0: the clocks of two machines may differ a little). */
export const minutesPlayed = (startedAt: number, nowMs: number): number => Math.max(0, Math.floor((nowMs - startedAt) / MINUTE_MS));

/** Minutes as hours and minutes: 125 → 2 hours 5 minutes. */
export function hoursAndMinutes(total: number): { hours: number; minutes: number } {
  const whole = Math.max(0, Math.floor(total));
  return { hours: Math.floor(whole / 60), minutes: whole % 60 };
}

/**
 * How long a session has lasted, in the language: "2 hours 5 minutes", "45 minutes", "1 hour"; "২ ঘণ্টা ৫ মিনিট" in
 * Bengali digits. The words are `profile:reality.hours` and `profile:reality.minutes` (plurals by `count`); hours are
 * left out under one hour, minutes when they are 0 and there are hours.
 */
export function formatPlayTime(total: number, lng: Language, t: CountText): string {
  const { hours, minutes } = hoursAndMinutes(total);
  const part = (unit: 'hours' | 'minutes', n: number) => t(`profile:reality.${unit}`, { count: n, n: formatNumber(n, lng) });
  if (hours === 0) return part('minutes', minutes);
  return minutes === 0 ? part('hours', hours) : `${part('hours', hours)} ${part('minutes', minutes)}`;
}

/** How many tickets, in the language: "3 tickets", "৩টি টিকিট". */
export const formatTickets = (n: number, lng: Language, t: CountText): string =>
  t('profile:reality.tickets', { count: n, n: formatNumber(n, lng) });
