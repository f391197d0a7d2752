/**
 * The results archive and "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players): what a
 * visitor asks (a page of drawn lotteries searched by name and Dhaka date; a ticket) and what the API answers.
 */
import { z } from 'zod';
import { dhakaLocalToIso, toAsciiDigits } from '../dates.ts';
import { ALGORITHM } from '../draws/proof.ts';
import { LOTTERY_KINDS } from '../draws/tiers.ts';
import { id, optional, text, v, type ValidationKey } from '../fields.ts';
import { LAST_MAX, MAIN_MAX } from '../ticket.ts';
import { readLuckyCode, readTypedTicket, type TypedTicketError } from '../ticket-typed.ts';

/** Drawn lotteries on one page of the archive, at most (each carries its winners or its tier summary). */
export const RESULTS_PAGE_MAX = 20;
export const RESULTS_OFFSET_MAX = 1_000_000;
/** "Check my numbers" matches a ticket against the latest this many numbers draws (docs/rules/lotteries-and-sales.md#10-results-for-players). */
export const CHECK_NUMBERS_DRAWS = 500;

/** A whole number from `min` to `max` in a query (digits, Bengali digits too); absent or blank: `fallback`. */
const wholeIn = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (x) => (x === undefined || x === null || (typeof x === 'string' && x.trim() === '') ? fallback : x),
    z.union([z.number(), z.string().max(12)], { error: () => v('countInvalid') }).transform((x, ctx) => {
      const s = typeof x === 'number' ? String(x) : toAsciiDigits(x).trim();
      const n = /^\d{1,12}$/.test(s) ? Number(s) : NaN;
      if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
      ctx.addIssue({ code: 'custom', message: v('countInvalid'), params: { min, max } });
      return z.NEVER;
    }),
  );

/** A Dhaka calendar date `YYYY-MM-DD` (Bengali digits read), as the day's start and end instants in UTC. */
export const dhakaDay = text(20).transform((s, ctx) => {
  const date = toAsciiDigits(s);
  const from = dhakaLocalToIso(date, '00:00');
  if (from === null) {
    ctx.addIssue({ code: 'custom', message: v('dateInvalid') });
    return z.NEVER;
  }
  return { date, from, to: new Date(Date.parse(from) + 24 * 3600 * 1000).toISOString() };
});

/** `GET /api/v1/results/`: `limit` 1–20 (10), `offset`, `search` (part of either name), `date` (drawn that Dhaka day). */
export const ResultsQuery = z.strictObject({
  limit: wholeIn(1, RESULTS_PAGE_MAX, 10),
  offset: wholeIn(0, RESULTS_OFFSET_MAX, 0),
  search: optional(text(100).transform((s) => s.normalize('NFC'))),
  date: optional(dhakaDay),
});

/** Each reason a typed ticket is refused, and its message (validation.json). */
const TYPED_TICKET_MESSAGES: Record<TypedTicketError, ValidationKey> = {
  notNumbers: 'typedTicketNotNumbers',
  tooFew: 'typedTicketTooFew',
  tooMany: 'typedTicketTooMany',
  mainOutOfRange: 'typedTicketMainOutOfRange',
  lastOutOfRange: 'typedTicketLastOutOfRange',
  repeated: 'typedTicketRepeated',
};

/** What "check my numbers" checks: a ticket (canonical), or a Lucky Chance code (as the proof writes it). */
export type Checked = { ticket: string; code: null } | { ticket: null; code: string };

/**
 * `GET /api/v1/check-numbers/?ticket=`: a ticket as people type it (docs/rules/tickets.md#9-a-ticket-as-people-type-it):
 * the main numbers in any order, any separators, Bengali digits; read canonically. Or a Lucky Chance code
 * (`BHG 4821 7730`, shared/ticket-typed.ts readLuckyCode), typed in the same field.
 */
export const CheckNumbersQuery = z.strictObject({
  ticket: z.preprocess(
    (x) => x ?? '',
    text(40, 'ticketNumberRequired').transform((s, ctx): Checked => {
      if (s === '') return z.NEVER;
      const code = readLuckyCode(s);
      if (code) return { ticket: null, code };
      const r = readTypedTicket(s);
      if (r.ok) return { ticket: r.canonical, code: null };
      ctx.addIssue({ code: 'custom', message: v(TYPED_TICKET_MESSAGES[r.error]) });
      return z.NEVER;
    }),
  ),
});

const int = z.number().int();
const ResultLottery = z.object({
  id: int,
  name: z.string(),
  name_bn: z.string(),
  kind: z.enum(LOTTERY_KINDS),
  /** When the results were published (the end of sales for a lottery published without a recorded draw time). */
  drawn_at: z.string(),
});

/** One tier of a numbers draw: the prizes paid in it and what each paid (tier 1: the jackpot's share, or the jackpot). */
export const TierSummary = z.object({ tier: int, winners: int, prize: int });

/** A drawn lottery of the archive. */
export const ArchivedResult = z.object({
  lottery: ResultLottery.extend({ total_prize: int }),
  /** A numbers draw's `[m1, …, m5, last]`; null for a winning-tickets draw. */
  numbers: z.array(int).nullable(),
  /** A numbers draw: tiers 1 to 5, counted by the database (never the tickets); null for a winning-tickets draw. */
  tiers: z.array(TierSummary).nullable(),
  /** A winning-tickets draw: its winning tickets (at most the lottery's winners), in the order drawn; null for a numbers draw. */
  winners: z
    .array(
      z.object({
        ticket: z.string(),
        prize_money: int,
        /** Why two staff members withheld this prize (docs/rules/lotteries-and-sales.md#9-the-draw); null when paid as drawn. */
        withheld_reason: z.string().nullable(),
      }),
    )
    .nullable(),
  /**
   * A game's draw with Lucky Chance (docs/rules/draws.md#7a-lucky-chance): the codes drawn, in the order drawn, and
   * what each pays; null for any other draw.
   */
  lucky: z.object({ prize: int, codes: z.array(z.string()) }).nullable(),
  /** What the draw's withheld prizes come to, out of the total prize (0 when none is withheld). */
  withheld: int,
  /** A numbers draw nobody won the jackpot of: what rolled over, and into which lottery. */
  rollover: z.object({ amount: int, to: int }).nullable(),
  /** The draw's proof: `bhagya-draw-v1` when anyone can check it (docs/rules/draws.md#9-the-proof), else unverifiable. */
  algorithm: z.enum([ALGORITHM, 'unverifiable']),
  /** Where the draw stands, as a lottery's card says it (shared/lotteries/schemas.ts `Lottery`, docs/rules/draws.md#12-where-it-stands). */
  beacon_unverified: z.boolean(),
  frozen: z.object({ tickets: int, tickets_digest: z.string() }).nullable(),
});

/** A past draw the ticket won, or would have won had it been sold. */
export const CheckHit = z.object({
  lottery: ResultLottery,
  /** A numbers draw's tier (1 the jackpot … 5); null for a winning-tickets draw. */
  tier: int.nullable(),
  /** What it paid (the prize, when the ticket was sold and won), or would have paid (the tier's prize, or the jackpot). */
  prize: int,
  /** The ticket was a paid (`success`) ticket of that lottery; false: it would have won. */
  sold: z.boolean(),
  /** Its prize was withheld by two staff members, and why (docs/rules/lotteries-and-sales.md#9-the-draw); else null. */
  withheld_reason: z.string().nullable(),
  numbers: z.array(int).nullable(),
  matched: z.object({ main: z.array(int), last: z.boolean() }).nullable(),
  /** A Lucky Chance code checked: the code drawn in that game's draw (its prize is `prize`); null for a ticket's hit. */
  lucky_code: z.string().nullable(),
});

export const CheckNumbersReply = z.object({
  /** The ticket in its canonical form; null when a Lucky Chance code was checked. */
  ticket: z.string().nullable(),
  /** The Lucky Chance code checked, as the proof writes it; null when a ticket was checked. */
  code: z.string().nullable(),
  /** Newest draw first. */
  hits: z.array(CheckHit),
  /** How many numbers draws were checked: the latest CHECK_NUMBERS_DRAWS at most. */
  numbers_draws_checked: int,
  numbers_draws_limit: int,
});

/** `GET /api/v1/results/frequency/`: one game (`game`, paused or not), or without it every active game with a draw. */
export const FrequencyQuery = z.strictObject({ game: optional(id) });

/**
 * How often each number was drawn in a game's draws whose results are published (docs/rules/games.md#7-charts):
 * `main[n - 1]` the draws whose five main numbers held n (1–55), `last[n - 1]` those whose last number was n (1–15).
 */
export const NumberFrequency = z.object({
  game: z.object({ id: int, name: z.string(), name_bn: z.string() }),
  /** The draws counted. */
  draws: int,
  /** When the latest of them was drawn; null when none was. */
  last_drawn_at: z.string().nullable(),
  main: z.array(int).length(MAIN_MAX),
  last: z.array(int).length(LAST_MAX),
});
