/**
 * Keeping play safe (docs/rules/play-safe.md): the requests and answers of spend limits and self-exclusion. Messages are
 * keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { toAsciiDigits } from '../dates.ts';
import { v } from '../fields.ts';
import { parseWholeTaka } from '../money.ts';
import { EXCLUSION_PERIODS, LIMIT_MAX, PERIODS, TIME_OUT_PERIODS } from './limits.ts';
import { isRealityInterval, REALITY_INTERVALS } from './reality.ts';

/** One limit: whole taka from 1 to LIMIT_MAX, as a number or digits (Bengali digits too); null, absent or blank: no limit. */
const limit = z
  .union([z.number(), z.string().max(24), z.null()], { error: () => v('spendLimitInvalid') })
  .optional()
  .transform((x, ctx) => {
    if (x === undefined || x === null || (typeof x === 'string' && x.trim() === '')) return null;
    const n = parseWholeTaka(typeof x === 'string' ? toAsciiDigits(x.trim()) : x);
    if (n !== null && n >= 1 && n <= LIMIT_MAX) return n;
    ctx.addIssue({ code: 'custom', message: v('spendLimitInvalid') });
    return z.NEVER;
  });

/** `PUT /api/v1/my-limits/`: the three limits wanted; each null (or left out) for none. */
export const LimitsBody = z.strictObject({ day: limit, week: limit, month: limit });

/** `POST /api/v1/self-exclusion/`: how long, and the player's confirmation that it cannot be undone early. */
export const SelfExclusionBody = z.strictObject({
  period: z.enum(EXCLUSION_PERIODS, { error: () => v('exclusionPeriodInvalid') }),
  confirm: z.literal(true, { error: () => v('exclusionConfirm') }),
});

/** `POST /api/v1/time-out/`: a short break of 24 hours, 7 days or 30 days, confirmed like a self-exclusion. */
export const TimeOutBody = z.strictObject({
  period: z.enum(TIME_OUT_PERIODS, { error: () => v('timeOutPeriodInvalid') }),
  confirm: z.literal(true, { error: () => v('exclusionConfirm') }),
});

const amount = z.number().int().nullable();
const LimitsOut = z.object({ day: amount, week: amount, month: amount });

/** One period as the player sees it: its limit in force, what he spent in it so far, and when it starts again. */
const PeriodState = z.object({
  period: z.enum(PERIODS),
  limit: amount,
  spent: z.number().int(),
  /** The limit less what was spent (never below 0); null without a limit. */
  left: amount,
  resets_at: z.string(),
});

/** The player's self-exclusion: until when (null: none now) and when it was asked for. */
const Exclusion = z.object({ until: z.string(), set_at: z.string() }).nullable();

/** `GET /api/v1/my-limits/` and the staff's view: the limits in force, a raise waiting, each period, the exclusion. */
export const PlayLimits = z.object({
  limits: LimitsOut,
  /** Raised or removed limits waiting for their time (docs/rules/play-safe.md#2-changing-a-limit), or null. */
  pending: z.object({ limits: LimitsOut, effective_at: z.string() }).nullable(),
  periods: z.array(PeriodState),
  self_exclusion: Exclusion,
  /** The player's time-out (docs/rules/play-safe.md#3a-time-out): until when (null: none now) and when it was taken. */
  time_out: Exclusion,
});

/** What the player asked for and when: the history staff see. */
export const PlayEvent = z.object({
  kind: z.enum(['limits', 'self_exclusion', 'time_out']),
  limits: LimitsOut.nullable(),
  effective_at: z.string().nullable(),
  until: z.string().nullable(),
  at: z.string(),
});

/**
 * `GET /api/v1/admin-users/{id}/play-limits/` (staff, read only): the player's settings and their history, newest first;
 * with his reality check (docs/rules/play-safe.md#7-reality-check): the interval in force, in minutes (0: off), and
 * whether he chose it (else the default applies).
 */
export const StaffPlayLimits = PlayLimits.extend({
  user_id: z.number().int(),
  history: z.array(PlayEvent),
  reality_check: z.object({ interval_minutes: z.number().int(), chosen: z.boolean() }),
});

/**
 * The page's self-exclusion form (/profile/limits): the period, and the box "I understand this cannot be undone early",
 * which a browser sends as `confirm=yes` only when ticked. Read into the API's own body.
 */
export const SelfExclusionForm = z
  .object({
    period: z.enum(EXCLUSION_PERIODS, { error: () => v('exclusionPeriodInvalid') }),
    confirm: z.unknown().refine((x) => x === 'yes', v('exclusionConfirm')),
  })
  .transform(({ period }) => ({ period, confirm: true as const }));

/** The page's time-out form (/profile/limits): the period and the same box, read into the API's own body. */
export const TimeOutForm = z
  .object({
    period: z.enum(TIME_OUT_PERIODS, { error: () => v('timeOutPeriodInvalid') }),
    confirm: z.unknown().refine((x) => x === 'yes', v('exclusionConfirm')),
  })
  .transform(({ period }) => ({ period, confirm: true as const }));

// The reality check (docs/rules/play-safe.md#7-reality-check) -------------------------------------------------------

/**
 * `PUT /api/v1/reality-check/`: how often the player is reminded, in minutes (0: off), as a number or digits (Bengali
 * digits too: the page's form sends text).
 */
export const RealityIntervalBody = z.strictObject({
  interval_minutes: z.union([z.number(), z.string()], { error: () => v('realityIntervalInvalid') }).transform((x, ctx) => {
    const digits = typeof x === 'string' ? toAsciiDigits(x).trim() : '';
    const n = typeof x === 'string' ? (/^\d{1,3}$/.test(digits) ? Number(digits) : NaN) : x;
    if (isRealityInterval(n)) return n;
    ctx.addIssue({ code: 'custom', message: v('realityIntervalInvalid') });
    return z.NEVER;
  }),
});

/**
 * `GET`, `POST` (acknowledge) and `PUT /api/v1/reality-check/`: the caller's session as the reality check sees it — the
 * interval, whether a reminder is due now and when the next one is, when the session started, how long it has lasted,
 * and what he spent in it (the purchases since it started that count, as for the spend limits) on how many tickets.
 */
export const RealityCheck = z.object({
  interval_minutes: z.literal(REALITY_INTERVALS),
  due: z.boolean(),
  /** When the next reminder is (or was) due; null when reminders are off. */
  due_at: z.string().nullable(),
  session_started_at: z.string(),
  minutes_played: z.number().int(),
  spent: z.number().int(),
  tickets: z.number().int(),
});

/**
 * `GET /api/v1/top-bar/`: what the top bar of every page a logged-in player opens shows, read at once — his session's
 * reality check (as `GET /api/v1/reality-check/`) and how many of his messages are unread (as
 * `GET /api/v1/notifications/unread/`).
 */
export const TopBar = z.object({ reality: RealityCheck, unread: z.number().int() });
