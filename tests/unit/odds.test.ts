import {
  anyPrizeOdds,
  choose,
  COMBINATIONS,
  prizeHeadline,
  ticketChance,
  tierCombinations,
  tierOdds,
  type HeadlineLottery,
} from '../../shared/lotteries/odds.ts';
import { tierOf } from '../../shared/draws/tiers.ts';

// docs/rules/lotteries-and-sales.md#12-odds-and-the-advertised-prize
describe('the odds of a numbers lottery', () => {
  test('choose is exact', () => {
    expect(choose(55, 5)).toBe(3_478_761n);
    expect(choose(50, 3)).toBe(19_600n);
    expect(choose(5, 0)).toBe(1n);
    expect(choose(5, 6)).toBe(0n);
  });

  test('every ticket there is: C(55,5) × 15', () => {
    expect(COMBINATIONS).toBe(52_181_415n);
  });

  test('the tickets reaching each tier, by hand', () => {
    // 1: 5+last. 2: 5 main, 14 wrong last. 3: C(5,4)·50 with the last. 4: 250·14 + C(5,3)·C(50,2). 5: 12,250·14 + C(5,2)·C(50,3).
    expect(tierCombinations()).toEqual({ 1: 1n, 2: 14n, 3: 250n, 4: 3_500n + 12_250n, 5: 171_500n + 196_000n });
  });

  test('the tiers and the rest make up every ticket there is', () => {
    const c = tierCombinations();
    const winning = c[1] + c[2] + c[3] + c[4] + c[5];
    // No prize: k main (0–5) without a prize: 0 or 1 main whatever the last, 2 main without it.
    const losing = (choose(50, 5) + 5n * choose(50, 4)) * 15n + choose(5, 2) * choose(50, 3) * 14n;
    expect(winning + losing).toBe(COMBINATIONS);
  });

  test('1 in X, rounded to the nearest whole number', () => {
    expect(tierOdds()).toEqual({ 1: 52_181_415, 2: 3_727_244, 3: 208_726, 4: 3_313, 5: 142 });
    expect(anyPrizeOdds()).toBe(136);
  });

  test('counted with the same rule as the draw pays', () => {
    // A sample of matches against drawn numbers: the tier the draw gives is the one the counts put it in.
    expect(tierOf('05-12-23-34-45-08', [5, 12, 23, 34, 45, 7])).toBe(2);
    expect(tierOf('05-12-50-51-52-07', [5, 12, 23, 34, 45, 7])).toBe(5);
  });
});

describe('ticketChance: a lottery that draws winning tickets', () => {
  test('none sold', () => {
    expect(ticketChance(3, 0)).toEqual({ kind: 'none' });
  });

  test('fewer sold than winners: every ticket sold so far would win', () => {
    expect(ticketChance(3, 2)).toEqual({ kind: 'all' });
    expect(ticketChance(3, 1)).toEqual({ kind: 'all' });
  });

  test('one more ticket counted: 1 in (sold + 1) / winners', () => {
    expect(ticketChance(1, 1)).toEqual({ kind: 'oneIn', x: 2, exact: true });
    expect(ticketChance(3, 3)).toEqual({ kind: 'oneIn', x: 1.3, exact: false });
    expect(ticketChance(2, 9)).toEqual({ kind: 'oneIn', x: 5, exact: true });
    expect(ticketChance(4, 9)).toEqual({ kind: 'oneIn', x: 2.5, exact: true });
    expect(ticketChance(3, 99)).toEqual({ kind: 'oneIn', x: 33, exact: false }); // 100 / 3 = 33.3
    expect(ticketChance(3, 1000)).toEqual({ kind: 'oneIn', x: 334, exact: false }); // 1001 / 3 = 333.67
    expect(ticketChance(7, 62)).toEqual({ kind: 'oneIn', x: 9, exact: true });
    expect(ticketChance(7, 68)).toEqual({ kind: 'oneIn', x: 9.9, exact: false }); // 69 / 7 = 9.857
    expect(ticketChance(7, 69)).toEqual({ kind: 'oneIn', x: 10, exact: true }); // 70 / 7
  });

  test('refuses what is not a count', () => {
    expect(() => ticketChance(0, 5)).toThrow(RangeError);
    expect(() => ticketChance(2, -1)).toThrow(RangeError);
    expect(() => ticketChance(1.5, 5)).toThrow(RangeError);
  });
});

describe('prizeHeadline: never TK. 0', () => {
  const numbers: HeadlineLottery = {
    kind: 'numbers',
    total_prize: 0,
    jackpot: 0,
    jackpot_share: 50,
    rollover_in: 0,
    drawn: false,
    tier2_prize: 50_000,
    tier3_prize: 5_000,
    tier4_prize: 500,
    tier5_prize: 50,
  };

  test('a lottery that draws winning tickets: its total prize', () => {
    expect(prizeHeadline({ ...numbers, kind: 'tickets', total_prize: 1_000_000, jackpot: null })).toEqual({
      kind: 'prize',
      amount: 1_000_000,
    });
  });

  test('a new numbers lottery: the 2nd prize, and the jackpot grows with every ticket', () => {
    expect(prizeHeadline(numbers)).toEqual({ kind: 'tier', tier: 2, amount: 50_000, grows: true });
    expect(prizeHeadline({ ...numbers, jackpot: null })).toEqual({ kind: 'tier', tier: 2, amount: 50_000, grows: true });
  });

  test('a 2nd prize of 0: the highest fixed prize there is', () => {
    expect(prizeHeadline({ ...numbers, tier2_prize: 0, tier3_prize: 0 })).toEqual({ kind: 'tier', tier: 4, amount: 500, grows: true });
  });

  test('a jackpot share of 0 does not grow', () => {
    expect(prizeHeadline({ ...numbers, jackpot_share: 0 })).toEqual({ kind: 'tier', tier: 2, amount: 50_000, grows: false });
  });

  test('sales so far: the estimated jackpot', () => {
    expect(prizeHeadline({ ...numbers, jackpot: 1_200 })).toEqual({ kind: 'estimated', amount: 1_200 });
  });

  test('a rolled-over jackpot is guaranteed; the sales add to it', () => {
    expect(prizeHeadline({ ...numbers, rollover_in: 9_000, jackpot: 9_000 })).toEqual({ kind: 'guaranteed', amount: 9_000, now: null });
    expect(prizeHeadline({ ...numbers, rollover_in: 9_000, jackpot: 9_600 })).toEqual({ kind: 'guaranteed', amount: 9_000, now: 9_600 });
  });

  test('drawn: the jackpot as paid, or the top fixed prize when it was 0', () => {
    expect(prizeHeadline({ ...numbers, drawn: true, jackpot: 7_000 })).toEqual({ kind: 'jackpot', amount: 7_000 });
    expect(prizeHeadline({ ...numbers, drawn: true, rollover_in: 9_000, jackpot: 9_500 })).toEqual({ kind: 'jackpot', amount: 9_500 });
    expect(prizeHeadline({ ...numbers, drawn: true })).toEqual({ kind: 'tier', tier: 2, amount: 50_000, grows: false });
  });

  test('no prize money at all: said, never an amount of 0', () => {
    expect(prizeHeadline({ ...numbers, jackpot_share: 0, tier2_prize: 0, tier3_prize: 0, tier4_prize: 0, tier5_prize: 0 })).toEqual({
      kind: 'none',
    });
  });
});
