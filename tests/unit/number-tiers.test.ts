import { jackpotAmount, matchOf, numbersPrizes, tierOf, type TierPrizes } from '../../shared/draws/tiers.ts';

// docs/rules/lotteries-and-sales.md#9-the-draw (a numbers draw): the drawn numbers 05 12 23 34 45 and last 07.
const DRAWN = [5, 12, 23, 34, 45, 7];
const PRIZES: TierPrizes = [50_000, 5_000, 500, 50];

describe('matchOf', () => {
  test('names the main numbers matched, ascending, and whether the last number matched', () => {
    expect(matchOf('05-12-23-34-45-07', DRAWN)).toEqual({ main: [5, 12, 23, 34, 45], last: true });
    expect(matchOf('01-12-30-45-55-07', DRAWN)).toEqual({ main: [12, 45], last: true });
    expect(matchOf('01-02-03-04-06-08', DRAWN)).toEqual({ main: [], last: false });
    expect(matchOf({ main: [45, 5, 1, 2, 3], last: 8 }, DRAWN)).toEqual({ main: [5, 45], last: false });
  });

  test('a last number that equals a drawn main number is not a main match', () => {
    expect(matchOf('01-02-03-04-06-05', DRAWN)).toEqual({ main: [], last: false });
  });

  test('refuses what is not a ticket or not a draw', () => {
    expect(() => matchOf('05-12-23-34-99-07', DRAWN)).toThrow(RangeError);
    expect(() => matchOf('05-12-23-34-45-07', [5, 12, 23, 34, 7])).toThrow(RangeError);
    expect(() => matchOf('05-12-23-34-45-07', [5, 5, 23, 34, 45, 7])).toThrow(RangeError);
  });
});

describe('tierOf: every tier, the best one only', () => {
  test.each<[string, string, number | null]>([
    ['5 main + last', '05-12-23-34-45-07', 1],
    ['5 main', '05-12-23-34-45-08', 2],
    ['4 main + last', '05-12-23-34-50-07', 3],
    ['4 main', '05-12-23-34-50-08', 4],
    ['3 main + last', '05-12-23-50-51-07', 4],
    ['3 main', '05-12-23-50-51-08', 5],
    ['2 main + last', '05-12-50-51-52-07', 5],
    ['2 main', '05-12-50-51-52-08', null],
    ['1 main + last', '05-50-51-52-53-07', null],
    ['last only', '50-51-52-53-54-07', null],
    ['nothing', '50-51-52-53-54-08', null],
  ])('%s → %s', (_what, ticket, tier) => {
    expect(tierOf(ticket, DRAWN)).toBe(tier);
  });
});

describe('jackpotAmount', () => {
  test('the share of the sales rounded down, plus the rollover in', () => {
    expect(jackpotAmount(1_000, 50, 0)).toBe(500);
    expect(jackpotAmount(999, 50, 0)).toBe(499);
    expect(jackpotAmount(999, 33, 7)).toBe(336);
    expect(jackpotAmount(0, 50, 10_000)).toBe(10_000);
    expect(jackpotAmount(1_000, 0, 0)).toBe(0);
    expect(jackpotAmount(1_000, 100, 0)).toBe(1_000);
  });

  test('exact near 2^53, refused beyond it', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(jackpotAmount(max, 100, 0)).toBe(max);
    expect(jackpotAmount(max, 50, 0)).toBe(4_503_599_627_370_495);
    expect(jackpotAmount(max - 1, 100, 1)).toBe(max);
    expect(() => jackpotAmount(max, 100, 1)).toThrow(RangeError);
    expect(() => jackpotAmount(max + 1, 1, 0)).toThrow(RangeError);
    expect(() => jackpotAmount(100, 101, 0)).toThrow(RangeError);
    expect(() => jackpotAmount(100, 1.5, 0)).toThrow(RangeError);
    expect(() => jackpotAmount(-1, 10, 0)).toThrow(RangeError);
  });
});

describe('numbersPrizes', () => {
  const t = (id: number, ticket: string) => ({ id, ticket });

  test('each tier paid its amount, the jackpot split with its remainder, nothing rolls over', () => {
    const r = numbersPrizes({
      tickets: [
        t(1, '05-12-23-34-45-07'), // jackpot
        t(2, '05-12-23-34-45-08'), // 2nd
        t(3, '05-12-23-34-50-07'), // 3rd
        t(4, '05-12-23-50-51-07'), // 4th (3 + last)
        t(5, '05-12-50-51-52-07'), // 5th (2 + last)
        t(6, '50-51-52-53-54-07'), // nothing
        t(7, '01-02-03-04-06-07'), // nothing
      ],
      numbers: DRAWN,
      sales: 7_000,
      jackpotShare: 50,
      rolloverIn: 1_001,
      tierPrizes: PRIZES,
    });
    expect(r.jackpot).toBe(4_501);
    expect(r.split).toEqual({ each: 4_501, remainder: 0 });
    expect(r.rollover).toBe(0);
    expect(r.counts).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
    expect(r.winners).toEqual([
      { id: 1, ticket: '05-12-23-34-45-07', tier: 1, prize_money: 4_501 },
      { id: 2, ticket: '05-12-23-34-45-08', tier: 2, prize_money: 50_000 },
      { id: 3, ticket: '05-12-23-34-50-07', tier: 3, prize_money: 5_000 },
      { id: 4, ticket: '05-12-23-50-51-07', tier: 4, prize_money: 500 },
      { id: 5, ticket: '05-12-50-51-52-07', tier: 5, prize_money: 50 },
    ]);
    expect(r.paid).toBe(4_501 + 50_000 + 5_000 + 500 + 50);
  });

  test('several jackpot tickets share it equally; the remainder stays unpaid (as splitPrize)', () => {
    // Two tickets cannot hold one combination in one lottery, but the rule must not depend on it.
    const r = numbersPrizes({
      tickets: [t(1, '05-12-23-34-45-07'), t(2, '05-12-23-34-45-07'), t(3, '05-12-23-34-45-07')],
      numbers: DRAWN,
      sales: 1_000,
      jackpotShare: 100,
      rolloverIn: 0,
      tierPrizes: PRIZES,
    });
    expect(r.split).toEqual({ each: 333, remainder: 1 });
    expect(r.winners.map((w) => w.prize_money)).toEqual([333, 333, 333]);
    expect(r.rollover).toBe(0);
    expect(r.paid).toBe(999);
  });

  test('no jackpot ticket: the whole jackpot rolls over; the other tiers are still paid', () => {
    const r = numbersPrizes({
      tickets: [t(1, '05-12-23-34-45-08'), t(2, '50-51-52-53-54-01')],
      numbers: DRAWN,
      sales: 200,
      jackpotShare: 40,
      rolloverIn: 5_000,
      tierPrizes: PRIZES,
    });
    expect(r.jackpot).toBe(5_080);
    expect(r.split).toBeNull();
    expect(r.rollover).toBe(5_080);
    expect(r.winners).toEqual([{ id: 1, ticket: '05-12-23-34-45-08', tier: 2, prize_money: 50_000 }]);
  });

  test('no tickets at all: no winners, the jackpot (the rollover in) rolls over', () => {
    const r = numbersPrizes({ tickets: [], numbers: DRAWN, sales: 0, jackpotShare: 50, rolloverIn: 700, tierPrizes: PRIZES });
    expect(r).toEqual({ jackpot: 700, winners: [], counts: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }, split: null, rollover: 700, paid: 0 });
  });

  test('a tier paying 0 gives no prize, but its tickets are counted; a jackpot of 0 pays nothing and rolls nothing', () => {
    const r = numbersPrizes({
      tickets: [t(1, '05-12-23-34-45-07'), t(2, '05-12-23-50-51-08')],
      numbers: DRAWN,
      sales: 100,
      jackpotShare: 0,
      rolloverIn: 0,
      tierPrizes: [10, 10, 10, 0],
    });
    expect(r.jackpot).toBe(0);
    expect(r.winners).toEqual([]);
    expect(r.counts[1]).toBe(1);
    expect(r.counts[5]).toBe(1);
    expect(r.rollover).toBe(0);
  });

  test('amounts beyond exact whole taka are refused', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const base = { numbers: DRAWN, sales: 0, jackpotShare: 0, rolloverIn: 0 };
    expect(() => numbersPrizes({ ...base, tickets: [], tierPrizes: [max + 1, 0, 0, 0] })).toThrow(RangeError);
    expect(() => numbersPrizes({ ...base, tickets: [], tierPrizes: [-1, 0, 0, 0] })).toThrow(RangeError);
    // Each prize is exact, their sum is not: refused rather than rounded.
    const two = [t(1, '05-12-23-34-45-08'), t(2, '05-12-23-34-45-08')];
    expect(() => numbersPrizes({ ...base, tickets: two, tierPrizes: [max, 0, 0, 0] })).toThrow(RangeError);
    expect(numbersPrizes({ ...base, tickets: two.slice(0, 1), tierPrizes: [max, 0, 0, 0] }).paid).toBe(max);
    expect(() => numbersPrizes({ ...base, tickets: [], rolloverIn: max, sales: 100, jackpotShare: 1, tierPrizes: PRIZES })).toThrow(
      RangeError,
    );
  });
});
