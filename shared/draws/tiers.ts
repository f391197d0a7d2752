/**
 * The prize tiers of a numbers lottery (docs/rules/lotteries-and-sales.md#9-the-draw, "A numbers draw"): which drawn
 * numbers a ticket matched, the one tier it wins, and what every winning ticket is paid, with the jackpot split and
 * the amount that rolls over. Pure functions: the draw (server/draws/numbers-draw.ts) supplies the tickets, the
 * numbers and the lottery's prize settings; the pages use `matchOf` and `tierOf` to show a ticket's result.
 */
import { parseTicket, type Ticket } from '../ticket.ts';
import { splitPrize } from '../money.ts';

/** The two kinds of lottery: winning tickets drawn (the total prize split equally), or numbers drawn with tiers. */
export const LOTTERY_KINDS = ['tickets', 'numbers'] as const;
export type LotteryKind = (typeof LOTTERY_KINDS)[number];

/** Tier 1 is the jackpot, 5 the smallest prize. */
export const TIERS = [1, 2, 3, 4, 5] as const;
export type Tier = (typeof TIERS)[number];

/** The fixed prizes of tiers 2 to 5, in that order (whole taka, each ≥ 0). */
export type TierPrizes = readonly [number, number, number, number];

/** What a ticket matched of a draw: its main numbers among the five drawn ones (ascending), and the last number. */
export type Match = { main: number[]; last: boolean };

/** Drawn numbers as the draw gives them: `[m1, …, m5, last]`, the main numbers ascending. */
export type DrawnNumbers = readonly number[];

function ticketOf(ticket: string | Ticket): Ticket {
  const t = typeof ticket === 'string' ? parseTicket(ticket) : ticket;
  if (!t) throw new RangeError(`"${String(ticket)}" is not a ticket`);
  return t;
}

function drawnOf(numbers: DrawnNumbers): { main: number[]; last: number } {
  const t = numbers.length === 6 ? parseTicket(numbers.join('-')) : null;
  if (!t) throw new RangeError(`drawn numbers must be five distinct main numbers and a last number, got ${numbers.join(', ')}`);
  return t;
}

/** Drawn numbers as stored (written as a ticket, `05-12-23-34-45-07`) → `[m1, …, m5, last]`; null for none. */
export function numbersOf(stored: string | null): number[] | null {
  const t = stored === null ? null : parseTicket(stored);
  return t ? [...t.main, t.last] : null;
}

/** Which of the ticket's main numbers were drawn (ascending) and whether its last number is the drawn last number. */
export function matchOf(ticket: string | Ticket, numbers: DrawnNumbers): Match {
  const t = ticketOf(ticket);
  const d = drawnOf(numbers);
  return { main: t.main.filter((n) => d.main.includes(n)).sort((a, b) => a - b), last: t.last === d.last };
}

/**
 * The tier of a match, its best one only (a ticket wins one prize):
 * 1 jackpot = 5 main + last; 2 = 5 main; 3 = 4 main + last; 4 = 4 main, or 3 main + last; 5 = 3 main, or 2 main + last.
 * Null: no prize.
 */
export function tierOfMatch(m: Match): Tier | null {
  const k = m.main.length;
  if (k === 5) return m.last ? 1 : 2;
  if (k === 4) return m.last ? 3 : 4;
  if (k === 3) return m.last ? 4 : 5;
  if (k === 2 && m.last) return 5;
  return null;
}

/** The tier a ticket wins with these drawn numbers, or null. */
export const tierOf = (ticket: string | Ticket, numbers: DrawnNumbers): Tier | null => tierOfMatch(matchOf(ticket, numbers));

/** `⌊sales × share / 100⌋ + rollover_in`, exact; a RangeError beyond whole taka a number holds exactly (as money.ts). */
export function jackpotAmount(sales: number, share: number, rolloverIn: number): number {
  for (const [name, x] of [
    ['sales', sales],
    ['rollover_in', rolloverIn],
  ] as const)
    if (!Number.isSafeInteger(x) || x < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${x}`);
  if (!Number.isInteger(share) || share < 0 || share > 100) throw new RangeError(`the jackpot share must be 0 to 100, got ${share}`);
  const j = (BigInt(sales) * BigInt(share)) / 100n + BigInt(rolloverIn);
  if (j > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`the jackpot ${j} is beyond exact whole taka`);
  return Number(j);
}

export type NumbersPrizeInput<T extends { ticket: string }> = {
  /** The participants: the lottery's `success` tickets (each once). */
  tickets: readonly T[];
  numbers: DrawnNumbers;
  /** The sum of the `success` tickets' price, whole taka. */
  sales: number;
  /** Percent of the sales that goes to the jackpot, 0–100. */
  jackpotShare: number;
  /** What earlier draws rolled into this lottery's jackpot. */
  rolloverIn: number;
  tierPrizes: TierPrizes;
};

export type NumbersPrizes<T> = {
  /** The jackpot: the share of the sales, rounded down, plus the rollover in. */
  jackpot: number;
  /** Every ticket that wins money, in the order given, with its tier and prize (a tier paying 0 gives none). */
  winners: (T & { tier: Tier; prize_money: number })[];
  /** How many tickets reached each tier (those of a tier paying 0 included). */
  counts: Record<Tier, number>;
  /** The jackpot's split among its tickets (null without a jackpot ticket, or with a jackpot of 0). */
  split: { each: number; remainder: number } | null;
  /** What rolls over into the next numbers lottery: the whole jackpot when no ticket won it, else 0. */
  rollover: number;
  /** The total paid out, all tiers. */
  paid: number;
};

/**
 * Tickets → tier → money: tiers 2–5 pay their fixed amount to each of their tickets; the jackpot is split equally
 * among its tickets in whole taka (`splitPrize`, the remainder stays with the operator as in every split); no jackpot
 * ticket, and the whole jackpot rolls over. Amounts beyond exact whole taka are refused (RangeError), as money.ts does.
 */
export function numbersPrizes<T extends { ticket: string }>(input: NumbersPrizeInput<T>): NumbersPrizes<T> {
  const { tierPrizes } = input;
  if (tierPrizes.length !== 4 || !tierPrizes.every((p) => Number.isSafeInteger(p) && p >= 0))
    throw new RangeError(`the tier prizes must be four whole numbers ≥ 0, got ${tierPrizes.join(', ')}`);
  const jackpot = jackpotAmount(input.sales, input.jackpotShare, input.rolloverIn);
  const counts: Record<Tier, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  const tiered: { t: T; tier: Tier }[] = [];
  for (const t of input.tickets) {
    const tier = tierOf(t.ticket, input.numbers);
    if (tier === null) continue;
    counts[tier] += 1;
    tiered.push({ t, tier });
  }
  const split = counts[1] > 0 && jackpot > 0 ? splitPrize(jackpot, counts[1]) : null;
  const money = (tier: Tier): number => (tier === 1 ? (split?.each ?? 0) : tierPrizes[tier - 2]!);
  const winners = tiered.filter(({ tier }) => money(tier) > 0).map(({ t, tier }) => ({ ...t, tier, prize_money: money(tier) }));
  let paid = 0n;
  for (const w of winners) paid += BigInt(w.prize_money);
  if (paid > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`the prizes ${paid} are beyond exact whole taka`);
  return { jackpot, winners, counts, split, rollover: counts[1] === 0 ? jackpot : 0, paid: Number(paid) };
}
