/**
 * The verifiable draw `bhagya-draw-v1` (docs/rules/draws.md) as pure functions, against the fixed vectors of
 * tests/fixtures/draw-vectors.json, which docs/rules/draws.md#8-test-vectors shows: the tests check the docs too, so the
 * vectors an outside implementation checks itself with are the ones our code gives.
 */
import { readFileSync } from 'node:fs';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  ALGORITHM,
  BEACON_SOURCE,
  DrawInputError,
  QUICKNET,
  acceptable,
  attempt,
  commitment,
  drawKey,
  drawNumbers,
  isBeaconValue,
  luckyCode,
  selectLucky,
  TICKET_COUNT,
  ticketRank,
  isSeed,
  newSeed,
  normaliseBeaconValue,
  pendingProofSchema,
  pick,
  quicknetRound,
  roundTime,
  selectWinners,
  sortedTickets,
  ticketsDigest,
  ticketsText,
  verifyProof,
} from '../../server/draws/verifiable.ts';

type Step = { i: number; h: string; index: number | null; outcome: 'chosen' | 'skipped' | 'rejected' };
type Vector = {
  name: string;
  tickets: string[];
  sorted: string[];
  tickets_digest: string;
  key: string;
} & (
  | { kind: 'winners'; max_winners: number; winners: string[]; steps: Step[] }
  | {
      kind: 'numbers';
      numbers: number[];
      steps_main?: Step[];
      steps_last?: Step[];
      lucky_count?: number;
      lucky?: { ticket: string; code: string }[];
      steps_lucky?: Step[];
    }
);
type LuckyCodeVector = { ticket: string; rank: number; rounds: { j: number; r_in: number; f: number }[]; code: string };
type Vectors = {
  algorithm: string;
  seed: string;
  commitment: string;
  beacon: { source: string; round: number; value: string; sample: boolean; end_of_sales: string; round_time: string };
  vectors: Vector[];
  lucky_codes: LuckyCodeVector[];
};

const fixture = JSON.parse(readFileSync(new URL('../fixtures/draw-vectors.json', import.meta.url), 'utf8')) as Vectors;
const docs = readFileSync(new URL('../../docs/rules/draws.md', import.meta.url), 'utf8');
const { seed } = fixture;
const beacon = fixture.beacon.value;
const vector = (name: string): Vector => {
  const v = fixture.vectors.find((x) => x.name === name);
  if (!v) throw new Error(`no vector ${name}`);
  return v;
};
const winnersVector = (name: string) => {
  const v = vector(name);
  if (v.kind !== 'winners') throw new Error(`${name} is not a winners vector`);
  return v;
};
const TWO_256 = 1n << 256n;
const hex = (h: bigint) => h.toString(16).padStart(64, '0');

/** A drawn proof as the API answers it (docs/rules/draws.md#9-the-proof), for a vector. */
function proofOf(v: Vector): Record<string, unknown> {
  const base = {
    algorithm: ALGORITHM,
    commitment: fixture.commitment,
    seed,
    beacon: { source: BEACON_SOURCE, round: fixture.beacon.round, value: beacon, sample: true },
    tickets_digest: v.tickets_digest,
    tickets: v.sorted,
  };
  if (v.kind === 'winners') return { ...base, max_winners: v.max_winners, winners: v.winners };
  return { ...base, numbers: v.numbers, ...(v.lucky ? { lucky_chance: { count: v.lucky_count, winners: v.lucky } } : {}) };
}

describe('the names and the beacon (docs/rules/draws.md#4-the-beacon)', () => {
  test('algorithm, source and drand quicknet as drand documents it', () => {
    expect(ALGORITHM).toBe('bhagya-draw-v1');
    expect(BEACON_SOURCE).toBe('drand-quicknet');
    expect(QUICKNET.chainHash).toBe('52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971');
    expect([QUICKNET.genesisTime, QUICKNET.period]).toEqual([1692803367, 3]);
    expect(QUICKNET.relays[0]).toBe('https://api.drand.sh');
  });
});

describe('the seed and its commitment', () => {
  test('C = SHA-256 of the seed bytes (the vectors)', () => {
    expect(commitment(seed)).toBe(fixture.commitment);
    // Of the 32 bytes, not of the 64-character text.
    expect(commitment(seed)).not.toBe(createHash('sha256').update(seed).digest('hex'));
  });

  test('newSeed: 32 fresh random bytes as lower-case hex', () => {
    const a = newSeed();
    const b = newSeed();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(isSeed(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  test.each([
    ['too short', seed.slice(2)],
    ['too long', `${seed}00`],
    ['capital hex', seed.toUpperCase()],
    ['not hex', 'z'.repeat(64)],
    ['empty', ''],
  ])('a seed %s is refused', (_, bad) => {
    expect(isSeed(bad)).toBe(false);
    expect(() => commitment(bad)).toThrow(new DrawInputError('the seed must be 64 lower-case hex characters (32 bytes)'));
  });
});

describe('the tickets (docs/rules/draws.md#3-the-tickets)', () => {
  test.each(fixture.vectors.map((v) => [v.name, v] as const))('%s: sorted, joined by \\n, T', (_, v) => {
    expect(sortedTickets(v.tickets)).toEqual(v.sorted);
    expect(ticketsText(v.tickets)).toBe(v.sorted.join('\n'));
    expect(ticketsDigest(v.tickets)).toBe(v.tickets_digest);
  });

  test('the order given does not matter; the list given is not changed', () => {
    const v = vector('a ticket already chosen is skipped');
    const reversed = [...v.tickets].reverse();
    const copy = [...reversed];
    expect(ticketsDigest(reversed)).toBe(v.tickets_digest);
    expect(reversed).toEqual(copy);
  });

  test('no tickets: the empty text, SHA-256 of nothing', () => {
    expect(ticketsText([])).toBe('');
    expect(ticketsDigest([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test.each(['5-12-23-34-45-7', '12-05-23-34-45-07', '05-12-23-34-45-16', '05-12-23-34-45-07 ', '05 12 23 34 45 07'])(
    'a ticket not in canonical form (%j) is refused',
    (bad) => {
      expect(() => ticketsText(['01-02-03-04-05-06', bad])).toThrow(DrawInputError);
      expect(() => ticketsText(['01-02-03-04-05-06', bad])).toThrow(/not a ticket in canonical form/);
    },
  );

  test('a ticket listed twice is refused', () => {
    expect(() => ticketsDigest(['05-12-23-34-45-07', '01-02-03-04-05-06', '05-12-23-34-45-07'])).toThrow(
      new DrawInputError('the ticket 05-12-23-34-45-07 is listed twice'),
    );
  });
});

describe('the key and the attempts (docs/rules/draws.md#5-the-key, #6-selection)', () => {
  test.each(fixture.vectors.map((v) => [v.name, v] as const))('%s: K and every attempt h of the vectors', (_, v) => {
    expect(drawKey(seed, v.tickets_digest, beacon)).toBe(v.key);
    const labelled: [string, Step[] | undefined][] =
      v.kind === 'winners'
        ? [['winner', v.steps]]
        : [
            ['main', v.steps_main],
            ['last', v.steps_last],
          ];
    for (const [label, steps] of labelled) {
      for (const s of steps ?? []) expect(hex(attempt(v.key, label, s.i))).toBe(s.h);
    }
  });

  test('the beacon value and the digest must be 64 lower-case hex characters', () => {
    const T = fixture.vectors[0]?.tickets_digest as string;
    expect(() => drawKey(seed, T, beacon.toUpperCase())).toThrow(
      new DrawInputError('the beacon value must be 64 lower-case hex characters (32 bytes)'),
    );
    expect(() => drawKey(seed, T.slice(1), beacon)).toThrow(/the tickets digest must be 64/);
    expect(() => attempt(fixture.vectors[0]?.key as string, 'winner', -1)).toThrow(DrawInputError);
  });
});

describe('the rejection rule: h ≥ ⌊2^256 / n⌋ · n is rejected', () => {
  test('n = 3: only 2^256 − 1 is rejected', () => {
    expect(acceptable(TWO_256 - 1n, 3)).toBe(false);
    expect(acceptable(TWO_256 - 2n, 3)).toBe(true);
    expect((TWO_256 - 2n) % 3n).toBe(2n);
  });

  test('n = 10: the six values from 2^256 − 6 up are rejected', () => {
    for (let d = 1n; d <= 6n; d++) expect(acceptable(TWO_256 - d, 10)).toBe(false);
    expect(acceptable(TWO_256 - 7n, 10)).toBe(true);
  });

  test('n = 1 and powers of two reject nothing; 0 is accepted; nothing of 2^256 or more, or negative', () => {
    expect(acceptable(TWO_256 - 1n, 1)).toBe(true);
    expect(acceptable(TWO_256 - 1n, 1024)).toBe(true);
    expect(acceptable(0n, 55)).toBe(true);
    expect(acceptable(TWO_256, 1)).toBe(false);
    expect(acceptable(-1n, 1)).toBe(false);
  });

  test.each([0, -1, 1.5, Number.NaN])('n = %p is refused', (n) => {
    expect(() => acceptable(1n, n)).toThrow(DrawInputError);
    expect(() => pick(fixture.vectors[0]?.key as string, 'winner', n).next()).toThrow(DrawInputError);
  });

  test('pick yields h mod n of the accepted attempts, in order', () => {
    const key = winnersVector('n = winners').key;
    const it = pick(key, 'main', 55);
    for (let i = 0; i < 20; i++) {
      const h = attempt(key, 'main', i);
      expect(acceptable(h, 55)).toBe(true); // a rejection is never met by chance; the crafted cases are above
      expect(it.next().value).toBe(Number(h % 55n));
    }
  });
});

describe('winning tickets (docs/rules/draws.md#6-selection)', () => {
  const draw = (v: Vector, winners: number) => selectWinners({ seed, tickets: v.tickets, beacon, winners });

  test.each(fixture.vectors.filter((v) => v.kind === 'winners').map((v) => [v.name, v] as const))('vector %s', (_, v) => {
    if (v.kind !== 'winners') return;
    expect(draw(v, v.max_winners)).toEqual({ tickets_digest: v.tickets_digest, winners: v.winners });
    // The steps agree with the result: the chosen attempts, in order, are the winners.
    const chosen = v.steps.filter((s) => s.outcome === 'chosen').map((s) => v.sorted[s.index as number]);
    expect(chosen).toEqual(v.winners);
  });

  test('n = 1: the only ticket wins', () => {
    const v = winnersVector('n = 1');
    expect(v.sorted).toHaveLength(1);
    expect(draw(v, 1).winners).toEqual(v.sorted);
  });

  test('n = winners: every ticket wins once, in the order drawn', () => {
    const v = winnersVector('n = winners');
    const { winners } = draw(v, v.sorted.length);
    expect([...winners].sort()).toEqual(v.sorted);
    expect(winners).toEqual(v.winners);
  });

  test('a ticket already chosen is skipped', () => {
    const v = winnersVector('a ticket already chosen is skipped');
    const skipped = v.steps.filter((s) => s.outcome === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(v.steps.some((t) => t.i < s.i && t.outcome === 'chosen' && t.index === s.index)).toBe(true);
    expect(new Set(draw(v, v.max_winners).winners).size).toBe(v.max_winners);
  });

  test('more winners than tickets: stops at n, the order unchanged', () => {
    const v = winnersVector('n = winners');
    expect(draw(v, 1000).winners).toEqual(v.winners);
  });

  test('fewer winners: the first ones of the same order', () => {
    const v = winnersVector('a ticket already chosen is skipped');
    expect(draw(v, 2).winners).toEqual(v.winners.slice(0, 2));
    expect(draw(v, 1).winners).toEqual(v.winners.slice(0, 1));
  });

  test('each seed gives distinct winners among the tickets', () => {
    const v = winnersVector('a ticket already chosen is skipped');
    for (let k = 0; k < 100; k++) {
      const { winners } = selectWinners({ seed: randomBytes(32).toString('hex'), tickets: v.tickets, beacon, winners: 5 });
      expect(winners).toHaveLength(5);
      expect(new Set(winners).size).toBe(5);
      for (const w of winners) expect(v.sorted).toContain(w);
    }
  });

  test.each([0, -1, 2.5, Number.NaN])('winners = %p is refused', (winners) => {
    expect(() => draw(winnersVector('n = 1'), winners)).toThrow(DrawInputError);
  });

  test('no tickets, a wrong seed or beacon value: refused', () => {
    expect(() => selectWinners({ seed, tickets: [], beacon, winners: 1 })).toThrow(new DrawInputError('there are no tickets to draw from'));
    expect(() => selectWinners({ seed: 'ab', tickets: ['01-02-03-04-05-06'], beacon, winners: 1 })).toThrow(/the seed must be/);
    expect(() => selectWinners({ seed, tickets: ['01-02-03-04-05-06'], beacon: `0x${beacon}`, winners: 1 })).toThrow(
      /the beacon value must be/,
    );
  });
});

describe('numbers draw (docs/rules/draws.md#7-numbers-draw)', () => {
  test.each(fixture.vectors.filter((v) => v.kind === 'numbers').map((v) => [v.name, v] as const))('vector %s', (_, v) => {
    if (v.kind !== 'numbers') return;
    expect(drawNumbers({ seed, tickets: v.tickets, beacon })).toEqual({ tickets_digest: v.tickets_digest, numbers: v.numbers });
    if (v.steps_main && v.steps_last) {
      const main = v.steps_main.filter((s) => s.outcome === 'chosen').map((s) => (s.index as number) + 1);
      expect([...main.sort((a, b) => a - b), (v.steps_last[0]?.index as number) + 1]).toEqual(v.numbers);
    }
  });

  test('the vector draws a main number twice and skips it', () => {
    const v = vector('numbers draw');
    expect(v.kind === 'numbers' && v.steps_main?.some((s) => s.outcome === 'skipped')).toBe(true);
  });

  test('five distinct main numbers of 1–55 ascending and a last number of 1–15, for any seed', () => {
    const seen = new Set<number>();
    for (let k = 0; k < 300; k++) {
      const { numbers } = drawNumbers({ seed: randomBytes(32).toString('hex'), tickets: [], beacon });
      expect(numbers).toHaveLength(6);
      const main = numbers.slice(0, 5);
      const last = numbers[5] as number;
      expect(new Set(main).size).toBe(5);
      expect(main).toEqual([...main].sort((a, b) => a - b));
      for (const m of main) expect(m >= 1 && m <= 55 && Number.isInteger(m)).toBe(true);
      expect(last >= 1 && last <= 15).toBe(true);
      main.forEach((m) => seen.add(m));
    }
    // 1 and 55 both occur: h mod 55 + 1 covers the whole range (1,500 draws of 55 numbers).
    expect(seen.has(1) && seen.has(55)).toBe(true);
  });

  test('the tickets change the numbers (they enter through T)', () => {
    const a = drawNumbers({ seed, tickets: [], beacon }).numbers;
    const b = drawNumbers({ seed, tickets: ['01-02-03-04-05-06'], beacon }).numbers;
    expect(a).not.toEqual(b);
  });
});

describe('Lucky Chance (docs/rules/draws.md#7a-lucky-chance)', () => {
  const game = vector('numbers draw');
  const lucky = game.kind === 'numbers' ? game : null;
  /** The tickets whose main numbers are all at most 12 (C(12, 5) × 15 of them), each listed once. */
  const small: string[] = [];
  const two = (n: number) => String(n).padStart(2, '0');
  for (let a = 1; a <= 12; a++)
    for (let b = a + 1; b <= 12; b++)
      for (let c = b + 1; c <= 12; c++)
        for (let d = c + 1; d <= 12; d++)
          for (let e = d + 1; e <= 12; e++) for (let l = 1; l <= 15; l++) small.push([a, b, c, d, e, l].map(two).join('-'));

  test('the vector: three winners of four tickets, in the order the attempts lucky:i draw them, with their codes', () => {
    expect(lucky?.lucky).toHaveLength(3);
    const r = selectLucky({ seed, tickets: game.tickets, beacon, count: lucky?.lucky_count as number });
    expect(r).toEqual({ tickets_digest: game.tickets_digest, lucky: lucky?.lucky });
    const chosen = (lucky?.steps_lucky ?? []).filter((s) => s.outcome === 'chosen').map((s) => game.sorted[s.index as number]);
    expect(chosen).toEqual(lucky?.lucky?.map((w) => w.ticket));
    for (const s of lucky?.steps_lucky ?? []) expect(hex(attempt(game.key, 'lucky', s.i))).toBe(s.h);
  });

  test('its own label: the Lucky Chance is not the winners loop, and a ticket can win both', () => {
    const winners = selectWinners({ seed, tickets: game.tickets, beacon, winners: 3 }).winners;
    expect(lucky?.lucky?.map((w) => w.ticket)).not.toEqual(winners);
  });

  test.each(fixture.lucky_codes.map((c) => [c.ticket, c] as const))('the code of %s: its rank, its rounds, its code', (ticket, c) => {
    expect(ticketRank(ticket)).toBe(c.rank);
    expect(luckyCode(fixture.commitment, ticket)).toBe(c.code);
    // The rounds as the docs list them: each round's F from the right half going in.
    let left = Math.floor(c.rank / 10_000);
    let right = c.rank % 10_000;
    for (const r of c.rounds) {
      expect(r.r_in).toBe(right);
      const f = Number(
        BigInt(`0x${createHmac('sha256', Buffer.from(fixture.commitment, 'hex')).update(`lucky-code:${r.j}:${right}`).digest('hex')}`) %
          10_000n,
      );
      expect(f).toBe(r.f);
      [left, right] = [right, (left + f) % 10_000];
    }
    expect(`BHG ${String(left).padStart(4, '0')} ${String(right).padStart(4, '0')}`).toBe(c.code);
  });

  test('ranks: the first and last tickets, and one rank per ticket from 0 up (every ticket of numbers ≤ 12 first)', () => {
    expect(ticketRank('01-02-03-04-05-01')).toBe(0);
    expect(ticketRank('51-52-53-54-55-15')).toBe(TICKET_COUNT - 1);
    expect(TICKET_COUNT).toBe(52_181_415);
    const ranks = small.map(ticketRank).sort((a, b) => a - b);
    expect(small).toHaveLength(792 * 15);
    expect(ranks).toEqual(ranks.map((_, i) => i));
  });

  test('codes: two tickets of a draw never share one, each is BHG and eight digits, and another draw has other codes', () => {
    const codes = small.map((t) => luckyCode(fixture.commitment, t));
    expect(new Set(codes).size).toBe(small.length);
    for (const c of codes) expect(c).toMatch(/^BHG \d{4} \d{4}$/);
    const other = commitment(randomBytes(32).toString('hex'));
    const changed = small.slice(0, 200).filter((t) => luckyCode(other, t) !== luckyCode(fixture.commitment, t));
    expect(changed.length).toBeGreaterThan(190);
  });

  test('more prizes than tickets: every ticket once; no tickets: none; a count below 1, a ticket not canonical: refused', () => {
    const all = selectLucky({ seed, tickets: game.tickets, beacon, count: 10 }).lucky.map((w) => w.ticket);
    expect([...all].sort()).toEqual(game.sorted);
    expect(all.slice(0, 3)).toEqual(lucky?.lucky?.map((w) => w.ticket));
    expect(selectLucky({ seed, tickets: [], beacon, count: 3 }).lucky).toEqual([]);
    for (const count of [0, -1, 1.5]) expect(() => selectLucky({ seed, tickets: game.tickets, beacon, count })).toThrow(DrawInputError);
    expect(() => ticketRank('5-12-23-34-45-7')).toThrow(DrawInputError);
    expect(() => luckyCode('zz', '05-12-23-34-45-07')).toThrow(/the commitment must be/);
  });
});

describe('the quicknet round (docs/rules/draws.md#4-the-beacon)', () => {
  const G = QUICKNET.genesisTime * 1000;
  const at = (ms: number) => quicknetRound(new Date(ms));

  test('round r is at genesis + (r − 1) · 3 s', () => {
    expect(roundTime(1).getTime()).toBe(G);
    expect(roundTime(2).getTime()).toBe(G + 3000);
    // drand's own example: round 27946612 is 2026-04-20T00:00:00Z.
    expect(roundTime(27946612).toISOString()).toBe('2026-04-20T00:00:00.000Z');
    expect(() => roundTime(0)).toThrow(DrawInputError);
  });

  test('the first round strictly after the end of sales, at the boundaries', () => {
    expect(at(0)).toBe(1);
    expect(at(G - 1)).toBe(1);
    expect(at(G)).toBe(2); // round 1 is at the end itself: not after it
    expect(at(G + 1)).toBe(2);
    expect(at(G + 2999)).toBe(2);
    expect(at(G + 3000)).toBe(3);
    expect(at(Date.parse('2026-04-20T00:00:00Z'))).toBe(27946613);
    expect(at(Date.parse('2026-04-19T23:59:59.999Z'))).toBe(27946612);
  });

  test('the vectors: 8 PM in Dhaka, 2025-06-01, is itself a round time', () => {
    const end = new Date(fixture.beacon.end_of_sales);
    expect(quicknetRound(end)).toBe(fixture.beacon.round);
    expect(roundTime(fixture.beacon.round).toISOString()).toBe(fixture.beacon.round_time);
    expect(quicknetRound(new Date(end.getTime() - 1))).toBe(fixture.beacon.round - 1);
  });

  test('for any end: the round is after it and the round before is not', () => {
    for (let k = 0; k < 500; k++) {
      const e = G + Math.floor(Math.random() * 2e11);
      const r = at(e);
      expect(roundTime(r).getTime()).toBeGreaterThan(e);
      expect(roundTime(r - 1).getTime()).toBeLessThanOrEqual(e);
    }
  });

  test('an invalid date is refused', () => {
    expect(() => quicknetRound(new Date('nonsense'))).toThrow(new DrawInputError('the end of sales must be a valid date'));
  });
});

describe('beacon values', () => {
  test('64 lower-case hex characters; a pasted value is trimmed and lowered', () => {
    expect(isBeaconValue(beacon)).toBe(true);
    expect(isBeaconValue(beacon.toUpperCase())).toBe(false);
    expect(isBeaconValue(42)).toBe(false);
    expect(normaliseBeaconValue(`  ${beacon.toUpperCase()}\n`)).toBe(beacon);
    expect(normaliseBeaconValue(beacon.slice(1))).toBeNull();
    expect(normaliseBeaconValue(`0x${beacon}`)).toBeNull();
  });
});

describe('verifyProof (docs/rules/draws.md#10-checking-a-draw)', () => {
  const skip = winnersVector('a ticket already chosen is skipped');

  test.each(fixture.vectors.map((v) => [v.name, v] as const))('the proof of vector %s verifies', (_, v) => {
    expect(verifyProof(proofOf(v))).toEqual({ ok: true });
  });

  test('a proof before the draw is not verified: not drawn yet', () => {
    const pending = { algorithm: ALGORITHM, commitment: fixture.commitment, beacon: { source: BEACON_SOURCE, round: 18661013 } };
    expect(pendingProofSchema.parse(pending)).toEqual(pending);
    expect(verifyProof(pending)).toEqual({ ok: false, problems: ['the lottery is not drawn yet: the proof has no seed'] });
  });

  const problemsOf = (change: (p: Record<string, unknown>) => void, v: Vector = skip): string[] => {
    const p = structuredClone(proofOf(v));
    change(p);
    const r = verifyProof(p);
    return r.ok ? [] : r.problems;
  };

  test('a seed that is not the committed one', () => {
    expect(problemsOf((p) => (p.seed = 'ff'.repeat(32)))).toContain('the seed does not match the commitment: SHA-256(seed) ≠ commitment');
  });

  test('a ticket list that is not the digested one (a ticket that did not win left out)', () => {
    const loser = skip.sorted.find((t) => !skip.winners.includes(t));
    const problems = problemsOf((p) => (p.tickets = skip.sorted.filter((t) => t !== loser)));
    expect(problems.some((m) => m.startsWith('tickets_digest differs'))).toBe(true);
  });

  test('winners swapped, one left out, or one added', () => {
    expect(problemsOf((p) => (p.winners = [skip.winners[1], skip.winners[0], skip.winners[2]]))).toEqual([
      `winner 1 differs: the proof says ${skip.winners[1]}, the draw gives ${skip.winners[0]}`,
      `winner 2 differs: the proof says ${skip.winners[0]}, the draw gives ${skip.winners[1]}`,
    ]);
    expect(problemsOf((p) => (p.winners = skip.winners.slice(0, 2)))).toEqual(['2 winners listed; the draw gives 3']);
    expect(problemsOf((p) => (p.max_winners = 2))).toEqual(['3 winners listed; the draw gives 2']);
  });

  test('a wrong digest, unsorted or repeated tickets, a wrong number', () => {
    expect(problemsOf((p) => (p.tickets_digest = 'a'.repeat(64)))[0]).toMatch(/^tickets_digest differs/);
    expect(problemsOf((p) => (p.tickets = [...skip.sorted].reverse()))).toContain('the tickets are not listed in ascending order');
    expect(problemsOf((p) => (p.tickets = [...skip.sorted, skip.sorted[7]]))).toContain(`the ticket ${skip.sorted[7]} is listed twice`);
    const numbers = vector('numbers draw');
    expect(problemsOf((p) => ((p.numbers as number[])[5] = 1), numbers)[0]).toMatch(/^numbers differ/);
  });

  test('a Lucky Chance winner swapped, its code changed, or one left out', () => {
    const game = vector('numbers draw');
    const listed = game.kind === 'numbers' ? (game.lucky ?? []) : [];
    const [a, b, c] = listed as [{ ticket: string; code: string }, { ticket: string; code: string }, { ticket: string; code: string }];
    const luckyOf = (p: Record<string, unknown>) => p.lucky_chance as { count: number; winners: unknown[] };
    expect(problemsOf((p) => (luckyOf(p).winners = [b, a, c]), game)).toEqual([
      `Lucky Chance winner 1 differs: the proof says ${b.ticket} (${b.code}), the draw gives ${a.ticket} (${a.code})`,
      `Lucky Chance winner 2 differs: the proof says ${a.ticket} (${a.code}), the draw gives ${b.ticket} (${b.code})`,
    ]);
    expect(problemsOf((p) => (luckyOf(p).winners = [a, b, { ...c, code: 'BHG 0000 0000' }]), game)).toEqual([
      `Lucky Chance winner 3 differs: the proof says ${c.ticket} (BHG 0000 0000), the draw gives ${c.ticket} (${c.code})`,
    ]);
    expect(problemsOf((p) => (luckyOf(p).winners = [a, b]), game)).toEqual(['2 Lucky Chance winners listed; the draw gives 3']);
  });

  test('a proof of another algorithm, or not a proof at all', () => {
    expect(problemsOf((p) => (p.algorithm = 'typed'))).toEqual(['algorithm: Invalid input: expected "bhagya-draw-v1"']);
    expect(verifyProof(null)).toEqual({ ok: false, problems: ['the proof is not a JSON object'] });
    expect(problemsOf((p) => (p.numbers = [1, 2, 3, 4, 5, 6]))).toEqual(['the proof carries both winners and numbers']);
  });
});

describe('docs/rules/draws.md shows the vectors', () => {
  test('every value of the fixture is in section 8', () => {
    const section = docs.slice(docs.indexOf('## 8. Test vectors'), docs.indexOf('## 9. The proof'));
    const values = [seed, fixture.commitment, beacon, String(fixture.beacon.round)];
    for (const v of fixture.vectors) {
      values.push(v.tickets_digest, v.key, ...v.sorted);
      if (v.kind === 'winners') {
        values.push(v.winners.map((w) => `\`${w}\``).join(', '));
        values.push(...v.steps.map((s) => s.h));
      } else {
        values.push(`\`${v.numbers.join(' ')}\``);
        values.push(...[...(v.steps_main ?? []), ...(v.steps_last ?? []), ...(v.steps_lucky ?? [])].map((s) => s.h));
        values.push(...(v.lucky ?? []).map((w) => `\`${w.ticket}\` \`${w.code}\``));
      }
    }
    for (const c of fixture.lucky_codes) {
      values.push(`| ${c.ticket} | ${c.rank.toLocaleString('en')} |`, `\`${c.code}\``);
      values.push(...c.rounds.map((r) => `${r.r_in} → ${r.f}`));
    }
    for (const value of values)
      expect(
        section
          .replace(/ +\|/g, ' |')
          .replace(/\| +/g, '| ')
          .replace(/\n(?!\n)/g, ' '),
      ).toContain(value);
  });

  test('the proofs shown in section 9 parse and verify', () => {
    const section = docs.slice(docs.indexOf('## 9. The proof'), docs.indexOf('## 10.'));
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] as string) as unknown);
    expect(blocks).toHaveLength(2);
    expect(pendingProofSchema.safeParse(blocks[0]).success).toBe(true);
    expect(verifyProof(blocks[1])).toEqual({ ok: true });
  });
});
