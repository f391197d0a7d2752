/** A game and its calendar, as staff define it and the API answers it (docs/rules/games.md). */
import { z } from 'zod';
import { freeText, text, v, wholeTaka } from '../fields.ts';
import { DESCRIPTION_MAX, MAX_TOTAL_TICKETS, blankless, count, flag, instant, takaOrZero } from '../lotteries/schemas.ts';
import { WEEKDAYS, minuteOf } from './calendar.ts';

/** A game's name leaves room for its draw's date in the lottery's name (LOTTERY_NAME_MAX). */
export const GAME_NAME_MAX = 80;
/** At most this many draws of a game on sale at once: a year of weekly draws. */
export const DRAWS_AHEAD_MAX = 52;
/** Sales close at most a week before the draw. */
export const CLOSE_MINUTES_MAX = 7 * 24 * 60;
/** At most this many Lucky Chance codes drawn in a draw. */
export const LUCKY_COUNT_MAX = 100;

/** A new game's defaults (docs/rules/games.md#1-the-game): Saturday 8 PM, sales closing half an hour before. */
export const NEW_GAME = {
  ticket_price: 100,
  tickets_per_draw: 1_000_000,
  jackpot_share: 50,
  draw_days: ['sat'],
  draw_time: '20:00',
  close_minutes: 30,
  draws_ahead: 5,
} as const;

/** The weekdays of the draws: one (`sat`) or several, as JSON or as a form's ticked boxes. */
const drawDays = z
  .union([z.enum(WEEKDAYS), z.array(z.enum(WEEKDAYS)).max(WEEKDAYS.length)], {
    error: () => v('drawDaysRequired'),
  })
  .transform((x, ctx) => {
    const days = WEEKDAYS.filter((d) => (typeof x === 'string' ? x === d : x.includes(d)));
    if (days.length) return days;
    ctx.addIssue({ code: 'custom', message: v('drawDaysRequired') });
    return z.NEVER;
  });

/** The Dhaka time of the draws, `HH:MM` (24 hours), stored as minutes after midnight. */
const drawTime = text(5, 'drawTimeInvalid').transform((s, ctx) => {
  const m = minuteOf(s);
  if (m !== null) return m;
  ctx.addIssue({ code: 'custom', message: v('drawTimeInvalid') });
  return z.NEVER;
});

const gameFields = {
  name: text(GAME_NAME_MAX, 'fieldRequired'),
  name_bn: text(GAME_NAME_MAX),
  description: freeText(DESCRIPTION_MAX),
  description_bn: freeText(DESCRIPTION_MAX),
  ticket_price: wholeTaka,
  tickets_per_draw: count(1, MAX_TOTAL_TICKETS),
  jackpot_share: count(0, 100),
  tier2_prize: takaOrZero,
  tier3_prize: takaOrZero,
  tier4_prize: takaOrZero,
  tier5_prize: takaOrZero,
  lucky_count: blankless(count(0, LUCKY_COUNT_MAX)),
  lucky_prize: blankless(takaOrZero),
  draw_days: drawDays,
  draw_time: drawTime,
  close_minutes: count(0, CLOSE_MINUTES_MAX),
  draws_ahead: count(1, DRAWS_AHEAD_MAX),
  /** No draw before this: a date alone is Dhaka midnight. */
  starts_at: instant('00:00'),
  /** false: paused (no new draw goes on sale). */
  active: flag,
};

/** Lucky Chance has both its count and each code's prize, or neither (0 and 0). */
function checkLucky(g: { lucky_count?: number | undefined; lucky_prize?: number | undefined }, ctx: z.RefinementCtx): void {
  const n = g.lucky_count ?? 0;
  const p = g.lucky_prize ?? 0;
  if ((n === 0) !== (p === 0)) ctx.addIssue({ code: 'custom', path: [n === 0 ? 'lucky_count' : 'lucky_prize'], message: v('luckyBoth') });
}

/** `POST /api/v1/games/` (staff): the texts in Bengali and the descriptions optional; active unless said. */
export const GameBody = z
  .strictObject({
    ...gameFields,
    name_bn: gameFields.name_bn.default(''),
    description: gameFields.description.default(''),
    description_bn: gameFields.description_bn.default(''),
    starts_at: gameFields.starts_at.optional(),
    active: flag.default(true),
    // Not given: no Lucky Chance.
    lucky_count: gameFields.lucky_count.transform((x) => x ?? 0),
    lucky_prize: gameFields.lucky_prize.transform((x) => x ?? 0),
  })
  .superRefine(checkLucky);

/**
 * `PATCH /api/v1/games/{id}/` (staff): any of the fields. A change applies to the draws put on sale after it; the draws
 * on sale keep what their tickets were sold with (docs/rules/games.md#1-the-game).
 */
export const GamePatch = z
  .strictObject(gameFields)
  .partial()
  .superRefine((g, ctx) => {
    // Given alone, the other is checked against the stored one by the server (refusal `lucky_both`).
    if (g.lucky_count !== undefined && g.lucky_prize !== undefined) checkLucky(g, ctx);
  });

/** A game as staff see it. */
export const Game = z.object({
  id: z.number().int(),
  name: z.string(),
  name_bn: z.string(),
  description: z.string(),
  description_bn: z.string(),
  ticket_price: z.number().int(),
  tickets_per_draw: z.number().int(),
  jackpot_share: z.number().int(),
  tier2_prize: z.number().int(),
  tier3_prize: z.number().int(),
  tier4_prize: z.number().int(),
  tier5_prize: z.number().int(),
  lucky_count: z.number().int(),
  lucky_prize: z.number().int(),
  draw_days: z.array(z.enum(WEEKDAYS)),
  /** `HH:MM`, Dhaka time. */
  draw_time: z.string(),
  close_minutes: z.number().int(),
  draws_ahead: z.number().int(),
  starts_at: z.string(),
  active: z.boolean(),
  /** A jackpot nobody won that waits for the game's next draw (the game was paused when it rolled). */
  carry: z.number().int(),
  /** Its next draw not drawn yet (on sale, or closed and waiting for its draw); null when none. */
  next_draw: z.string().nullable(),
  /** How many of its draws are on sale now. */
  draws_on_sale: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Where a game's draw stands (docs/rules/games.md#3-a-draws-life). */
export const DRAW_STATES = ['on_sale', 'closed', 'drawn', 'results_withdrawn'] as const;

/** One draw of a game on its calendar. */
export const GameDraw = z.object({
  lottery_id: z.number().int(),
  draw_at: z.string(),
  end_date: z.string(),
  state: z.enum(DRAW_STATES),
  tickets_sold: z.number().int(),
  /** Its jackpot now: its share of the paid sales, plus what rolled in. */
  jackpot: z.number().int(),
  rollover_in: z.number().int(),
  /** What its draw rolled on when nobody won the jackpot; null before the draw. */
  rollover_out: z.number().int().nullable(),
  /** `[m1, …, m5, last]` once drawn. */
  numbers: z.array(z.number().int()).nullable(),
  /** The prizes its draw owes, in taka (0 before the draw). */
  prizes_total: z.number().int(),
});

/** A game with its draws, the latest first (at most the last 20 drawn and every one on sale). */
export const GameDetail = Game.extend({ draws: z.array(GameDraw) });

export const GamesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** How many drawn draws the charts of a game's page cover, beside those not drawn yet (docs/rules/games.md#7-charts). */
export const STATS_DRAWN = 8;
/** A draw's sales are charted over its last this many Dhaka days at most (a draw put on sale a year ahead has more). */
export const STATS_DAYS_MAX = 62;

/** One Dhaka day of a draw's sales: the tickets paid that day and its jackpot at the end of the day. */
export const SalesDay = z.object({
  /** The Dhaka calendar date, `YYYY-MM-DD`. */
  date: z.string(),
  /** Its `success` tickets bought that day. */
  tickets: z.number().int(),
  /** ⌊paid sales up to the end of the day × jackpot share / 100⌋ + what rolled in (the draw's rollover now). */
  jackpot: z.number().int(),
});

/**
 * What a drawn draw owes its winners, in taka: every prize once, by where its money stands — paid out (its claim's
 * transfer completed), claimed (a claim under way: waiting for details, submitted, or its transfer failed), unclaimed
 * (no claim yet) and withheld by two staff members (docs/rules/lotteries-and-sales.md#9-the-draw).
 */
export const OwedToWinners = z.object({
  paid_out: z.number().int(),
  claimed: z.number().int(),
  unclaimed: z.number().int(),
  withheld: z.number().int(),
});

/** One draw of the game's charts. */
export const DrawStats = GameDraw.pick({
  lottery_id: true,
  draw_at: true,
  end_date: true,
  state: true,
  tickets_sold: true,
  jackpot: true,
}).extend({
  /**
   * Its sales day by day, every Dhaka day from its first on sale (or its first sale) to today or its close, the last
   * STATS_DAYS_MAX at most; days without a sale are there with 0. A draw made today and not sold has today alone.
   */
  days: z.array(SalesDay),
  /** Tickets bought before the first day listed (a draw on sale longer than STATS_DAYS_MAX days); else 0. */
  tickets_before: z.number().int(),
  /** What its prizes owe its winners; null before the draw. */
  owed: OwedToWinners.nullable(),
});

/** `GET /api/v1/games/{id}/stats/` (staff): the draws not drawn yet and the last STATS_DRAWN drawn, the latest first. */
export const GameStats = z.object({
  game_id: z.number().int(),
  draws: z.array(DrawStats),
});
