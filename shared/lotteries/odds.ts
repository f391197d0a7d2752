/**
 * What a player can know before buying (docs/rules/lotteries-and-sales.md#12-odds-and-the-advertised-prize): the exact
 * odds of each prize of a numbers lottery, the chance of a ticket in a lottery that draws winning tickets, and the
 * prize a lottery is advertised with (never TK. 0). Pure functions, no data access: the cards and the ticket page use
 * them, and so do their unit tests (tests/unit/odds.test.ts).
 */
import { LAST_MAX, MAIN_COUNT, MAIN_MAX } from '../ticket.ts';
import { TIERS, tierOfMatch, type Tier } from '../draws/tiers.ts';

/** n choose k, exact. */
export function choose(n: number, k: number): bigint {
  if (!Number.isInteger(n) || !Number.isInteger(k) || n < 0) throw new RangeError(`choose(${n}, ${k})`);
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 0; i < Math.min(k, n - k); i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}

/** Every ticket there is: 5 main numbers of 1–55 and a last number of 1–15 (52,181,415). */
export const COMBINATIONS = choose(MAIN_MAX, MAIN_COUNT) * BigInt(LAST_MAX);

/**
 * How many of all the tickets there are reach each tier of a given draw: for k main numbers matched and the last number
 * matched or not, C(5, k) · C(50, 5 − k) · (1 or 14), summed into the tier `tierOfMatch` gives that match. The same
 * rule as the draw, so the odds cannot disagree with what pays.
 */
export function tierCombinations(): Record<Tier, bigint> {
  const counts: Record<Tier, bigint> = { 1: 0n, 2: 0n, 3: 0n, 4: 0n, 5: 0n };
  for (let k = 0; k <= MAIN_COUNT; k++) {
    const mains = choose(MAIN_COUNT, k) * choose(MAIN_MAX - MAIN_COUNT, MAIN_COUNT - k);
    for (const last of [true, false]) {
      const tier = tierOfMatch({ main: Array.from({ length: k }, (_, i) => i + 1), last });
      if (tier !== null) counts[tier] += mains * (last ? 1n : BigInt(LAST_MAX - 1));
    }
  }
  return counts;
}

/** `total / part` rounded to the nearest whole number, halves up: the X of "1 in X". */
const oneIn = (total: bigint, part: bigint): number => Number((2n * total + part) / (2n * part));

/** The odds of one ticket reaching each tier, as the X of "1 in X" (rounded to the nearest whole number). */
export function tierOdds(): Record<Tier, number> {
  const c = tierCombinations();
  return Object.fromEntries(TIERS.map((t) => [t, oneIn(COMBINATIONS, c[t])])) as Record<Tier, number>;
}

/** The odds of one ticket winning any prize (any of the five tiers), as the X of "1 in X". */
export function anyPrizeOdds(): number {
  const c = tierCombinations();
  return oneIn(
    COMBINATIONS,
    TIERS.reduce((s, t) => s + c[t], 0n),
  );
}

/**
 * The chance of one more ticket, bought now, in a lottery that draws `winners` winning tickets among those sold, if no
 * other ticket were sold before the draw (more tickets only lower it):
 * - `none`: no ticket sold yet;
 * - `all`: fewer tickets sold than winners, so every ticket sold so far, and one more, would win;
 * - `oneIn`: 1 in (sold + 1) / winners — `x` to one decimal below 10, else to the nearest whole number; `exact` when
 *   that is the chance itself and not a rounding of it.
 */
export type TicketChance = { kind: 'none' } | { kind: 'all' } | { kind: 'oneIn'; x: number; exact: boolean };

export function ticketChance(winners: number, sold: number): TicketChance {
  for (const [name, v] of [
    ['winners', winners],
    ['sold', sold],
  ] as const)
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${v}`);
  if (winners < 1) throw new RangeError('a lottery draws at least one winner');
  if (sold === 0) return { kind: 'none' };
  if (sold < winners) return { kind: 'all' };
  const tickets = sold + 1;
  // Tenths below 10 ("1 in 1.3"), whole numbers above; computed in integers, halves up.
  const tenths = Math.floor((20 * tickets + winners) / (2 * winners));
  if (tenths < 100) return { kind: 'oneIn', x: tenths / 10, exact: tenths * winners === 10 * tickets };
  const whole = Math.floor((2 * tickets + winners) / (2 * winners));
  return { kind: 'oneIn', x: whole, exact: whole * winners === tickets };
}

/**
 * The prize a lottery is advertised with (decision 057):
 * - `prize`: a lottery that draws winning tickets, its total prize;
 * - `jackpot`: a numbers lottery drawn, its jackpot as it was paid (> 0);
 * - `guaranteed`: a numbers lottery not drawn holding a rolled-over jackpot, which no sale can lower: that amount
 *   (`now` is the jackpot with the sales so far, when it is more);
 * - `estimated`: a numbers lottery not drawn, nothing rolled in, the jackpot's share of the sales paid so far (> 0);
 * - `tier`: no jackpot money yet (or a drawn jackpot of 0): the highest fixed prize instead, with `grows` when the
 *   jackpot takes a share of every ticket still to be sold;
 * - `none`: no prize money at all is set (every amount 0), said as such.
 * Never an amount of 0.
 */
export type PrizeHeadline =
  | { kind: 'prize' | 'jackpot' | 'estimated'; amount: number }
  | { kind: 'guaranteed'; amount: number; now: number | null }
  | { kind: 'tier'; tier: Exclude<Tier, 1>; amount: number; grows: boolean }
  | { kind: 'none' };

export type HeadlineLottery = {
  kind: 'tickets' | 'numbers';
  total_prize: number;
  jackpot: number | null;
  jackpot_share: number | null;
  rollover_in: number;
  drawn: boolean;
  tier2_prize: number | null;
  tier3_prize: number | null;
  tier4_prize: number | null;
  tier5_prize: number | null;
};

export function prizeHeadline(l: HeadlineLottery): PrizeHeadline {
  if (l.kind !== 'numbers') return l.total_prize > 0 ? { kind: 'prize', amount: l.total_prize } : { kind: 'none' };
  const jackpot = l.jackpot ?? 0;
  if (l.drawn && jackpot > 0) return { kind: 'jackpot', amount: jackpot };
  if (!l.drawn && l.rollover_in > 0) return { kind: 'guaranteed', amount: l.rollover_in, now: jackpot > l.rollover_in ? jackpot : null };
  if (!l.drawn && jackpot > 0) return { kind: 'estimated', amount: jackpot };
  const fixed = ([2, 3, 4, 5] as const)
    .map((tier) => ({ tier, amount: { 2: l.tier2_prize, 3: l.tier3_prize, 4: l.tier4_prize, 5: l.tier5_prize }[tier] ?? 0 }))
    .find((p) => p.amount > 0);
  if (!fixed) return { kind: 'none' };
  return { kind: 'tier', tier: fixed.tier, amount: fixed.amount, grows: !l.drawn && (l.jackpot_share ?? 0) > 0 };
}
