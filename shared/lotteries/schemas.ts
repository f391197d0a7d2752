import { z } from 'zod';
import { dhakaLocalToIso, parseIso, toAsciiDigits } from '../dates.ts';
import { freeText, id, optional, text, v, wholeTaka } from '../fields.ts';
import { parseWholeTaka } from '../money.ts';
import { LOTTERY_KINDS } from '../draws/tiers.ts';

export const MAX_PAGE = 100;

/** `?limit=&offset=` of a list: at most MAX_PAGE rows a page. */
export const Paging = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** Route ids are positive integers (anything else is a 404, never a database error). */
export const IdParams = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});

export const Lottery = z.object({
  id: z.number().int(),
  /** English name and description; the Bengali ones are '' when not given (pages then show the English). */
  name: z.string(),
  name_bn: z.string(),
  description: z.string(),
  description_bn: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  ticket_price: z.number().int(),
  total_tickets: z.number().int(),
  winners: z.number().int(),
  total_prize: z.number().int(),
  published: z.boolean(),
  featured: z.boolean(),
  is_result_published: z.boolean(),
  /** Drawn once: taking the results back hides them, and sales never open again (docs/rules/lotteries-and-sales.md#4-when-a-lottery-can-be-bought). */
  drawn: z.boolean(),
  tickets_sold: z.number().int(),
  /** The server's verdict on sales right now (docs/rules/lotteries-and-sales.md). */
  purchasable: z.boolean(),
  /**
   * `tickets` (winning tickets drawn, the total prize split) or `numbers` (numbers drawn, prizes by tier). For a numbers
   * lottery `total_prize` is its jackpot (= `jackpot`) and `winners` is unused (docs/rules/lotteries-and-sales.md#1-lottery-fields).
   */
  kind: z.enum(LOTTERY_KINDS),
  /** A numbers lottery's prize settings, null for the tickets kind: the jackpot's percent of the sales, tiers 2–5 in taka. */
  jackpot_share: z.number().int().nullable(),
  tier2_prize: z.number().int().nullable(),
  tier3_prize: z.number().int().nullable(),
  tier4_prize: z.number().int().nullable(),
  tier5_prize: z.number().int().nullable(),
  /** What earlier draws rolled into this lottery's jackpot (0 for the tickets kind). */
  rollover_in: z.number().int(),
  /** The numbers lottery this one's jackpot rolls into when nobody wins it (null: not named yet). */
  rollover_to: z.number().int().nullable(),
  /** A numbers lottery's jackpot: its share of the paid sales so far, rounded down, plus `rollover_in`; null for the tickets kind. */
  jackpot: z.number().int().nullable(),
  /** A game's draw (docs/rules/games.md): its game and the instant it is drawn (after its sales close); null for a one-off lottery. */
  game_id: z.number().int().nullable(),
  draw_at: z.string().nullable(),
  /** A game's draw's Lucky Chance: how many codes it draws and what each pays (0 and 0: none; docs/rules/draws.md#7a-lucky-chance). */
  lucky_count: z.number().int(),
  lucky_prize: z.number().int(),
  /** The commitment `C` to the draw's secret seed, once the lottery announced its draw (docs/rules/draws.md#2-the-seed-and-its-commitment). */
  commitment: z.string().nullable(),
  /**
   * The draw's beacon value is known but not drand's signed one (typed before decision 046, or a demo sample): an
   * **unverified beacon**, as the proof page says (docs/rules/draws.md#4-the-beacon). False before the value is known.
   */
  beacon_unverified: z.boolean(),
  /** Once the tickets froze at the close of sales (docs/rules/draws.md#3-the-tickets): their count `n` and digest `T`. */
  frozen: z.object({ tickets: z.number().int(), tickets_digest: z.string() }).nullable(),
});

export const DrawResult = z.object({
  lottery: Lottery.pick({
    id: true,
    name: true,
    name_bn: true,
    start_date: true,
    end_date: true,
    total_prize: true,
    kind: true,
    beacon_unverified: true,
    frozen: true,
  }).extend({
    /** When the results were first published (a draw, or staff publishing them without one); null when never. */
    drawn_at: z.string().nullable(),
  }),
  /**
   * `tier`: a numbers draw's prize tier, 1 the jackpot … 5; null for a winning-tickets draw. `withheld_reason`: the prize
   * was withheld by two staff members, and why (docs/rules/lotteries-and-sales.md#9-the-draw); null when it was not.
   */
  prizes: z.array(
    z.object({
      id: z.number().int(),
      ticket: z.string(),
      prize_money: z.number().int(),
      tier: z.number().int().nullable(),
      withheld_reason: z.string().nullable(),
    }),
  ),
  /** A numbers draw's result `[m1, …, m5, last]`, main numbers ascending; null for a winning-tickets draw. */
  numbers: z.array(z.number().int()).nullable(),
  /** A numbers draw without a jackpot ticket: the jackpot that rolled over, and into which lottery; null otherwise. */
  rollover: z.object({ amount: z.number().int(), to: z.number().int() }).nullable(),
});

// Staff: creating, changing and listing lotteries (docs/rules/lotteries-and-sales.md#1-lottery-fields) -----------------

/** The most winning tickets and tickets on sale a lottery may have. */
export const MAX_WINNERS = 1000;
export const MAX_TOTAL_TICKETS = 10_000_000;
export const LOTTERY_NAME_MAX = 120;
export const DESCRIPTION_MAX = 2000;

/** A whole number from `min` to `max`, sent as a number or as digits (a form field). */
export const count = (min: number, max: number) =>
  z
    .union([z.number(), z.string().max(12)], { error: (i) => (i.input === undefined ? v('required') : v('countInvalid')) })
    .transform((x, ctx) => {
      const n = typeof x === 'number' ? x : /^\s*\d+\s*$/.test(toAsciiDigits(x)) ? Number(toAsciiDigits(x)) : NaN;
      if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
      ctx.addIssue({ code: 'custom', message: v('countInvalid'), params: { min, max } });
      return z.NEVER;
    });

/**
 * An instant: an ISO date-time with its offset, or a Dhaka calendar date `YYYY-MM-DD` (a date input) at `time`
 * Dhaka time — the start of a lottery at midnight, its end at the draw hour, 8 PM (docs/rules/money-and-time.md).
 */
export const instant = (time: string) =>
  text(40, 'fieldRequired').transform((s, ctx) => {
    const iso = /^\d{4}-\d{2}-\d{2}$/.test(s) ? dhakaLocalToIso(s, time) : /[zZ]|[+-]\d{2}:?\d{2}$/.test(s) ? isoOf(s) : null;
    if (iso) return iso;
    ctx.addIssue({ code: 'custom', message: v('instantInvalid') });
    return z.NEVER;
  });

const isoOf = (s: string): string | null => {
  const ms = parseIso(s);
  return ms === null ? null : new Date(ms).toISOString();
};

/** A yes/no: JSON true/false, or a checkbox ("on" when ticked; the form sends nothing when not). */
export const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0'])])
  .transform((x) => x === true || x === 'true' || x === 'on' || x === '1');

/** A form leaves a field it does not use empty: '' is the field not given. */
export const blankless = <T extends z.ZodType>(schema: T) =>
  z.preprocess((x) => (typeof x === 'string' && x.trim() === '' ? undefined : x), schema.optional());

/** Whole taka, 0 allowed (a tier that pays nothing). */
export const takaOrZero = z
  .union([z.number(), z.string().max(24)], { error: (i) => (i.input === undefined ? v('required') : v('amountInvalid')) })
  .transform((x, ctx) => {
    const n = parseWholeTaka(x);
    if (n !== null && n >= 0) return n;
    ctx.addIssue({ code: 'custom', message: v('amountInvalid') });
    return z.NEVER;
  });

/** The fields of a numbers lottery only (docs/rules/lotteries-and-sales.md#1-lottery-fields). */
export const NUMBERS_FIELDS = ['jackpot_share', 'tier2_prize', 'tier3_prize', 'tier4_prize', 'tier5_prize'] as const;
/** The fields of a winning-tickets lottery only. */
export const TICKETS_FIELDS = ['winners', 'total_prize'] as const;

/** The jackpot's percent of the sales. */
export const JACKPOT_SHARE_MAX = 100;

const lotteryFields = {
  name: text(LOTTERY_NAME_MAX, 'fieldRequired'),
  name_bn: text(LOTTERY_NAME_MAX),
  description: freeText(DESCRIPTION_MAX),
  description_bn: freeText(DESCRIPTION_MAX),
  winners: count(1, MAX_WINNERS),
  ticket_price: wholeTaka,
  total_prize: wholeTaka,
  total_tickets: count(1, MAX_TOTAL_TICKETS),
  start_date: instant('00:00'),
  end_date: instant('20:00'),
  published: flag,
  featured: flag,
  kind: z.enum(LOTTERY_KINDS, { error: (i) => (i.input === undefined ? v('required') : v('lotteryKindInvalid')) }),
  jackpot_share: blankless(count(0, JACKPOT_SHARE_MAX)),
  tier2_prize: blankless(takaOrZero),
  tier3_prize: blankless(takaOrZero),
  tier4_prize: blankless(takaOrZero),
  tier5_prize: blankless(takaOrZero),
  /** The lottery the jackpot rolls into; '' or null: none named. */
  rollover_to: z.preprocess((x) => (x === '' ? null : x), id.nullable()),
};

type KindFields = Partial<Record<(typeof NUMBERS_FIELDS)[number] | (typeof TICKETS_FIELDS)[number] | 'rollover_to', unknown>> & {
  kind?: string;
};

/**
 * The fields of one kind refused on the other: a numbers lottery has no total prize or winners of its own, a
 * winning-tickets lottery no tiers or rollover. `whole`: the body describes the whole lottery (creation), so the
 * fields of its kind are required too. A change is checked against the stored kind by the server.
 */
function checkKind(l: KindFields, ctx: z.RefinementCtx, whole: boolean): void {
  if (l.kind === undefined) return;
  const mine: readonly string[] = l.kind === 'numbers' ? NUMBERS_FIELDS : TICKETS_FIELDS;
  const others: readonly string[] = l.kind === 'numbers' ? TICKETS_FIELDS : [...NUMBERS_FIELDS, 'rollover_to'];
  const given = l as Record<string, unknown>;
  for (const f of others)
    if (given[f] !== undefined && !(f === 'rollover_to' && given[f] === null))
      ctx.addIssue({ code: 'custom', path: [f], message: v(l.kind === 'numbers' ? 'ticketsKindOnly' : 'numbersKindOnly') });
  if (whole) for (const f of mine) if (given[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: v('required') });
}

/** The checks across fields: the end after the start, no more winners than tickets on sale. */
export function checkLottery(
  l: { start_date?: string; end_date?: string; winners?: number; total_tickets?: number },
  ctx: z.RefinementCtx,
): void {
  if (l.start_date && l.end_date && Date.parse(l.end_date) <= Date.parse(l.start_date))
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: v('endBeforeStart') });
  if (l.winners !== undefined && l.total_tickets !== undefined && l.winners > l.total_tickets)
    ctx.addIssue({ code: 'custom', path: ['winners'], message: v('winnersOverTickets') });
}

/** New-lottery defaults of the back office (docs/rules/lotteries-and-sales.md#1-lottery-fields). */
export const NEW_LOTTERY = { winners: 1, ticket_price: 100, total_prize: 1000, total_tickets: 10_000, days: 7 } as const;

/**
 * `POST /api/v1/lotteries/` (staff). Description and the Bengali texts are optional; not published, not featured unless
 * said. The kind is `tickets` unless said; a `tickets` lottery needs its winners and total prize, a `numbers` lottery its
 * jackpot share and tier prizes (and may name `rollover_to`), each refused on the other kind.
 */
export const LotteryBody = z
  .strictObject({
    ...lotteryFields,
    name_bn: lotteryFields.name_bn.default(''),
    description: lotteryFields.description.default(''),
    description_bn: lotteryFields.description_bn.default(''),
    winners: blankless(lotteryFields.winners),
    total_prize: blankless(lotteryFields.total_prize),
    total_tickets: lotteryFields.total_tickets.default(NEW_LOTTERY.total_tickets),
    published: flag.default(false),
    featured: flag.default(false),
    kind: lotteryFields.kind.default('tickets'),
    jackpot_share: lotteryFields.jackpot_share.optional(),
    tier2_prize: lotteryFields.tier2_prize.optional(),
    tier3_prize: lotteryFields.tier3_prize.optional(),
    tier4_prize: lotteryFields.tier4_prize.optional(),
    tier5_prize: lotteryFields.tier5_prize.optional(),
    rollover_to: lotteryFields.rollover_to.optional(),
  })
  .superRefine((l, ctx) => {
    checkLottery(l, ctx);
    checkKind(l, ctx, true);
  });

/**
 * `PATCH /api/v1/lotteries/{id}/` (staff): any of the fields, and whether the results are published. The kind and a
 * numbers lottery's prizes change only while no ticket is held; `rollover_to` until the draw (server/lotteries/admin-service.ts).
 * `results_reason`: why published results are taken back, which only a superuser does and must say
 * (docs/rules/lotteries-and-sales.md#9-the-draw); given with nothing else it is refused.
 */
export const LotteryPatch = z
  .strictObject({ ...lotteryFields, is_result_published: flag, results_reason: text(500, 'reasonRequired') })
  .partial()
  .superRefine((l, ctx) => {
    checkLottery(l, ctx);
    checkKind(l, ctx, false);
  });

export const LOTTERY_FILTERS = ['all', 'active', 'inactive', 'featured', 'result_published', 'result_not_published'] as const;
export type LotteryFilter = (typeof LOTTERY_FILTERS)[number];

/** `GET /api/v1/lotteries/` (staff): paged, searched by name or description (either language), filtered. */
export const StaffLotteriesQuery = Paging.extend({
  search: optional(text(100)),
  filter: z.enum(LOTTERY_FILTERS).default('all'),
});

/** A lottery as staff see it: its fields, what sold, when it was drawn and how many prizes it has. */
export const StaffLottery = Lottery.extend({
  drawn_at: z.string().nullable(),
  prizes: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
