/**
 * The verifiable draw `bhagya-draw-v1` as pure functions (docs/rules/draws.md): the seed and its commitment, the frozen
 * ticket list and its digest, the drand quicknet round that supplies the beacon, the selection of winning tickets or
 * of drawn numbers, and a check of a published proof. No database, no clock, no network: the draw service supplies the
 * seed, the tickets and the beacon value and stores what these functions return.
 *
 * scripts/verify-draw.ts is a second implementation of the same rule that imports nothing of ours; the fixed vectors in
 * tests/fixtures/draw-vectors.json (shown in docs/rules/draws.md#8-test-vectors) hold both to the same answers.
 */
import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import {
  numbersProofSchema,
  QUICKNET_GENESIS_TIME,
  QUICKNET_PERIOD,
  quicknetRoundTime,
  winnersProofSchema,
} from '../../shared/draws/proof.ts';
import { LAST_MAX, MAIN_COUNT, MAIN_MAX, normaliseTicket, parseTicket } from '../../shared/ticket.ts';
import { LUCKY_CODE_PREFIX } from '../../shared/ticket-typed.ts';

/** The procedure's name, carried by every proof (docs/rules/draws.md#1-the-procedure-in-short). */
export { ALGORITHM } from '../../shared/draws/proof.ts';

/** The one beacon source of `bhagya-draw-v1`: drand's quicknet network (docs/rules/draws.md#4-the-beacon). */
export { BEACON_SOURCE } from '../../shared/draws/proof.ts';

/** drand quicknet, as drand publishes it at `/<chain hash>/info`. */
export const QUICKNET = {
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  /** Unix seconds of round 1. */
  genesisTime: QUICKNET_GENESIS_TIME,
  /** Seconds between rounds. */
  period: QUICKNET_PERIOD,
  /** drand's public HTTP relays; `<relay>/<chainHash>/public/<round>` answers the round's `randomness`. */
  relays: ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh', 'https://drand.cloudflare.com'],
} as const;

/** Labels of the selection loop (docs/rules/draws.md#6-selection). */
export const LABEL_WINNER = 'winner';
export const LABEL_MAIN = 'main';
export const LABEL_LAST = 'last';
/** A game's draw's Lucky Chance winners (docs/rules/draws.md#7a-lucky-chance). */
export const LABEL_LUCKY = 'lucky';

/** A wrong input to the procedure: a seed, beacon value or ticket that is not one, a count below 1. */
export class DrawInputError extends Error {
  override name = 'DrawInputError';
}

const HEX64 = /^[0-9a-f]{64}$/;
const TWO_256 = 1n << 256n;

const isHex64 = (s: unknown): s is string => typeof s === 'string' && HEX64.test(s);

/** A seed `S`: 32 bytes written as 64 lower-case hex characters. */
export const isSeed = isHex64;

/** A beacon value `P` as drand quicknet writes a round's `randomness`: 64 lower-case hex characters. */
export const isBeaconValue = isHex64;

/** A beacon value as staff may paste it (spaces around, capitals): the value in lower case, or null if it is not one. */
export function normaliseBeaconValue(s: string): string | null {
  if (typeof s !== 'string') return null;
  const v = s.trim().toLowerCase();
  return isBeaconValue(v) ? v : null;
}

function requireHex64(value: unknown, what: string): string {
  if (!isHex64(value)) throw new DrawInputError(`${what} must be 64 lower-case hex characters (32 bytes)`);
  return value;
}

function requireCount(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new DrawInputError(`${what} must be a whole number of at least 1, got ${String(value)}`);
  }
  return value;
}

const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** A new secret seed `S` from the CSPRNG (docs/rules/draws.md#2-the-seed-and-its-commitment). */
export function newSeed(): string {
  return randomBytes(32).toString('hex');
}

/** `C = SHA-256(S)` over the seed's 32 bytes (not its hex text). */
export function commitment(seedHex: string): string {
  return sha256Hex(Buffer.from(requireHex64(seedHex, 'the seed'), 'hex'));
}

/** Code-unit order; the canonical forms are ASCII of one length, so this is also their numeric order. */
const ascending = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The tickets sorted ascending, each checked to be canonical and listed once (see ticketsText). */
export function sortedTickets(tickets: readonly string[]): string[] {
  if (!Array.isArray(tickets)) throw new DrawInputError('the tickets must be a list');
  for (const t of tickets) {
    if (typeof t !== 'string' || normaliseTicket(t) !== t) {
      throw new DrawInputError(`"${String(t)}" is not a ticket in canonical form (05-12-23-34-45-07)`);
    }
  }
  const sorted = [...tickets].sort(ascending);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) throw new DrawInputError(`the ticket ${sorted[i]} is listed twice`);
  }
  return sorted;
}

/**
 * The participants as one text (docs/rules/draws.md#3-the-tickets): canonical forms, ascending, joined by "\n", no
 * newline at the end ('' for none). A ticket not written canonically, or listed twice, is refused: the list comes from
 * the database, where each combination is sold once and stored canonically, so either would be a fault.
 */
export function ticketsText(tickets: readonly string[]): string {
  return sortedTickets(tickets).join('\n');
}

/** `T = SHA-256` of the tickets' text in UTF-8, hex. */
export function ticketsDigest(tickets: readonly string[]): string {
  return sha256Hex(Buffer.from(ticketsText(tickets), 'utf8'));
}

/** `K = HMAC-SHA256(key = S's 32 bytes, message = UTF-8 of T + ":" + P)`, hex. */
export function drawKey(seedHex: string, ticketsDigestHex: string, beaconHex: string): string {
  const seed = Buffer.from(requireHex64(seedHex, 'the seed'), 'hex');
  const message = `${requireHex64(ticketsDigestHex, 'the tickets digest')}:${requireHex64(beaconHex, 'the beacon value')}`;
  return createHmac('sha256', seed).update(message, 'utf8').digest('hex');
}

/**
 * `HMAC-SHA256(key, UTF-8 of message)` read as a 256-bit big-endian unsigned integer. The key is a KeyObject made once
 * per computation: Node checks a key given as bytes anew on every HMAC, which cost My Lotteries a tenth of its CPU in
 * its Lucky Chance codes (bench/RESULTS.md, issue 32: 56 µs a code with bytes, 13 µs with a KeyObject).
 */
const hmacNumber = (key: KeyObject, message: string): bigint =>
  BigInt(`0x${createHmac('sha256', key).update(message, 'utf8').digest('hex')}`);

/** `h` of attempt `i`: `HMAC-SHA256(key = K's 32 bytes, message = label + ":" + i)` as a 256-bit big-endian integer. */
export function attempt(keyHex: string, label: string, i: number): bigint {
  const key = createSecretKey(Buffer.from(requireHex64(keyHex, 'the draw key'), 'hex'));
  if (!Number.isSafeInteger(i) || i < 0) throw new DrawInputError(`the attempt number must be a whole number ≥ 0, got ${i}`);
  return hmacNumber(key, `${label}:${i}`);
}

/** The rejection rule: `h` is used only below `⌊2^256 / n⌋ · n`, so that `h mod n` has no bias. */
export function acceptable(h: bigint, n: number): boolean {
  const size = BigInt(requireCount(n, 'the number to choose from'));
  return h >= 0n && h < (TWO_256 / size) * size;
}

/**
 * The indexes `h mod n` of the accepted attempts `i = 0, 1, 2, …` of one label, without end (for n below 2^53 a
 * rejection has a probability below 2^-200). Skipping an index already chosen is the caller's part.
 */
export function* pick(keyHex: string, label: string, n: number): Generator<number, never, undefined> {
  const size = BigInt(requireCount(n, 'the number to choose from'));
  for (let i = 0; ; i++) {
    const h = attempt(keyHex, label, i);
    if (acceptable(h, n)) yield Number(h % size);
  }
}

type DrawInput = { seed: string; tickets: readonly string[]; beacon: string };

function keyOf({ seed, tickets, beacon }: DrawInput): { sorted: string[]; digest: string; key: string } {
  requireHex64(seed, 'the seed');
  requireHex64(beacon, 'the beacon value');
  const sorted = sortedTickets(tickets);
  const digest = sha256Hex(Buffer.from(sorted.join('\n'), 'utf8'));
  return { sorted, digest, key: drawKey(seed, digest, beacon) };
}

/**
 * A winning-tickets draw (docs/rules/draws.md#6-selection): `min(winners, n)` distinct tickets in the order drawn.
 * Refuses a draw without tickets.
 */
export function selectWinners(input: DrawInput & { winners: number }): { tickets_digest: string; winners: string[] } {
  const wanted = requireCount(input.winners, 'the number of winners');
  const { sorted, digest, key } = keyOf(input);
  if (sorted.length < 1) throw new DrawInputError('there are no tickets to draw from');
  return { tickets_digest: digest, winners: chooseTickets(key, LABEL_WINNER, sorted, wanted) };
}

/**
 * `min(wanted, n)` distinct tickets of the sorted list, in the order the attempts of `label` draw them, a ticket already
 * chosen skipped (docs/rules/draws.md#6-selection): the winning tickets (`winner`) and a game's Lucky Chance (`lucky`).
 */
function chooseTickets(key: string, label: string, sorted: readonly string[], wanted: number): string[] {
  const chosen = new Set<number>();
  const out: string[] = [];
  const stop = Math.min(wanted, sorted.length);
  if (stop === 0) return out;
  for (const index of pick(key, label, sorted.length)) {
    if (chosen.has(index)) continue;
    chosen.add(index);
    out.push(sorted[index] as string);
    if (out.length === stop) break;
  }
  return out;
}

/**
 * A numbers draw (docs/rules/draws.md#7-numbers-draw): five distinct main numbers of 1–55 (returned ascending) and a
 * last number of 1–15, as `[m1, m2, m3, m4, m5, last]`. The tickets only enter through `T`; there may be none.
 */
export function drawNumbers(input: DrawInput): { tickets_digest: string; numbers: number[] } {
  const { digest, key } = keyOf(input);
  return { tickets_digest: digest, numbers: numbersOfKey(key) };
}

/** The numbers a draw key `K` (hex) draws: step 4 of the numbers draw once `K` is known (docs/rules/draws.md#7-numbers-draw). */
export function numbersOfKey(key: string): number[] {
  const main: number[] = [];
  for (const index of pick(key, LABEL_MAIN, MAIN_MAX)) {
    if (main.includes(index + 1)) continue;
    main.push(index + 1);
    if (main.length === MAIN_COUNT) break;
  }
  const last = (pick(key, LABEL_LAST, LAST_MAX).next().value as number) + 1;
  return [...main.sort((a, b) => a - b), last];
}

// ---- Lucky Chance (docs/rules/draws.md#7a-lucky-chance) ----

/** `C(n, k)`, exactly (the numbers here stay far below 2^53). */
function binomial(n: number, k: number): number {
  if (k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** How many tickets there are: `C(55, 5) × 15` = 52,181,415. */
export const TICKET_COUNT = binomial(MAIN_MAX, MAIN_COUNT) * LAST_MAX;

/**
 * A ticket's rank among all tickets, 0 to 52,181,414: its main numbers `m1 < … < m5` in the combinatorial number system,
 * `Σ C(m_k − 1, k)` for k = 1…5, times 15, plus the last number − 1. One rank per ticket, one ticket per rank.
 */
export function ticketRank(ticket: string): number {
  const t = typeof ticket === 'string' ? parseTicket(ticket) : null;
  if (!t || normaliseTicket(ticket) !== ticket)
    throw new DrawInputError(`"${String(ticket)}" is not a ticket in canonical form (05-12-23-34-45-07)`);
  const main = t.main.reduce((r, m, k) => r + binomial(m - 1, k + 1), 0);
  return main * LAST_MAX + (t.last - 1);
}

/** What every Lucky Chance code begins with (shared/ticket-typed.ts, where a typed code is read too). */
export { LUCKY_CODE_PREFIX };
/** The code's two halves of four digits each. */
const HALF = 10_000;
/** Rounds of the code's Feistel network. */
const CODE_ROUNDS = 4;

/**
 * A ticket's Lucky Chance code in a draw whose commitment is `C`: its rank (ticketRank) through a four-round Feistel
 * network over two halves of four digits, each round's function `HMAC-SHA256(key = C's 32 bytes, message =
 * "lucky-code:" + round + ":" + right half)` mod 10,000. A permutation of the eight-digit numbers, so two tickets of a
 * draw never share a code, and anyone with the draw's commitment can compute every ticket's code. Written
 * `BHG 4821 7730`.
 */
export function luckyCode(commitmentHex: string, ticket: string): string {
  return feistelCode(ticket, luckyRound(commitmentHex));
}

/** The code's halves (LUCKY_HALF) and its rounds (LUCKY_ROUNDS), for a table of the round function (server/draws/lucky-codes.ts). */
export { HALF as LUCKY_HALF, CODE_ROUNDS as LUCKY_ROUNDS };

/**
 * The round function of a draw's codes (luckyCode): `f(round, right) = HMAC-SHA256(C, "lucky-code:" + round + ":" +
 * right) mod 10,000`, for round 0–3 and a right half 0–9,999.
 */
export function luckyRound(commitmentHex: string): (round: number, right: number) => number {
  const key = createSecretKey(Buffer.from(requireHex64(commitmentHex, 'the commitment'), 'hex'));
  return (round, right) => Number(hmacNumber(key, `lucky-code:${round}:${right}`) % BigInt(HALF));
}

/** A ticket's code through the Feistel network of luckyCode, with the round function `f` (luckyRound or a table of it). */
export function feistelCode(ticket: string, f: (round: number, right: number) => number): string {
  const rank = ticketRank(ticket);
  let left = Math.floor(rank / HALF);
  let right = rank % HALF;
  for (let round = 0; round < CODE_ROUNDS; round++) [left, right] = [right, (left + f(round, right)) % HALF];
  const four = (x: number) => String(x).padStart(4, '0');
  return `${LUCKY_CODE_PREFIX} ${four(left)} ${four(right)}`;
}

/** A Lucky Chance winner: the ticket the attempts chose and its code. */
export type LuckyWinner = { ticket: string; code: string };

/**
 * A game's draw's Lucky Chance (docs/rules/draws.md#7a-lucky-chance): `min(count, n)` distinct tickets among the frozen
 * ones, drawn by the attempts `lucky:i` with the draw's key, each with its code. None without tickets.
 */
export function selectLucky(input: DrawInput & { count: number }): { tickets_digest: string; lucky: LuckyWinner[] } {
  const wanted = requireCount(input.count, 'the number of Lucky Chance winners');
  const { sorted, digest, key } = keyOf(input);
  const c = commitment(input.seed);
  return {
    tickets_digest: digest,
    lucky: chooseTickets(key, LABEL_LUCKY, sorted, wanted).map((ticket) => ({ ticket, code: luckyCode(c, ticket) })),
  };
}

/** When drand quicknet publishes `round`: `genesis + (round − 1) · period` seconds (round 1 at genesis). */
export function roundTime(round: number): Date {
  requireCount(round, 'the round');
  return quicknetRoundTime(round);
}

/**
 * The first quicknet round whose time is strictly after the end of sales (docs/rules/draws.md#4-the-beacon):
 * `⌊(E − genesis) / period⌋ + 2` for `E ≥ genesis` (in milliseconds), round 1 before genesis.
 */
export function quicknetRound(endOfSales: Date): number {
  const e = endOfSales instanceof Date ? endOfSales.getTime() : Number.NaN;
  if (!Number.isFinite(e)) throw new DrawInputError('the end of sales must be a valid date');
  const genesis = QUICKNET.genesisTime * 1000;
  if (e < genesis) return 1;
  return Math.floor((e - genesis) / (QUICKNET.period * 1000)) + 2;
}

// ---- The proof (docs/rules/draws.md#9-the-proof) ----

export { numbersProofSchema, pendingProofSchema, unverifiableProofSchema, winnersProofSchema } from '../../shared/draws/proof.ts';
export type { DrawProof, NumbersProof, PendingProof, UnverifiableProof, WinnersProof } from '../../shared/draws/proof.ts';

export type Verification = { ok: true } | { ok: false; problems: string[] };

const issues = (error: z.ZodError): string[] =>
  error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : 'the proof'}: ${i.message}`);

/**
 * Re-checks a drawn proof with this implementation: `SHA-256(S) = C`, the tickets canonical, sorted and distinct, `T`
 * recomputed from them, and the winners (or numbers) drawn again. A proof of a lottery not drawn yet is not verified.
 */
export function verifyProof(proof: unknown): Verification {
  if (typeof proof !== 'object' || proof === null) return { ok: false, problems: ['the proof is not a JSON object'] };
  const record = proof as Record<string, unknown>;
  if (record.seed === undefined || record.seed === null) {
    return { ok: false, problems: ['the lottery is not drawn yet: the proof has no seed'] };
  }
  const isNumbers = 'numbers' in record;
  if (isNumbers && 'winners' in record) return { ok: false, problems: ['the proof carries both winners and numbers'] };
  const parsed = isNumbers ? numbersProofSchema.safeParse(proof) : winnersProofSchema.safeParse(proof);
  if (!parsed.success) return { ok: false, problems: issues(parsed.error) };
  const p = parsed.data;
  const problems: string[] = [];

  if (commitment(p.seed) !== p.commitment) problems.push('the seed does not match the commitment: SHA-256(seed) ≠ commitment');

  let sorted: string[] | null = null;
  try {
    sorted = sortedTickets(p.tickets);
  } catch (e) {
    problems.push((e as Error).message);
  }
  if (sorted && sorted.some((t, i) => t !== p.tickets[i])) problems.push('the tickets are not listed in ascending order');
  if (!sorted) return { ok: false, problems };

  const digest = sha256Hex(Buffer.from(sorted.join('\n'), 'utf8'));
  if (digest !== p.tickets_digest) {
    problems.push(`tickets_digest differs: the proof says ${p.tickets_digest}, the tickets listed give ${digest}`);
  }

  const input = { seed: p.seed, tickets: sorted, beacon: p.beacon.value };
  if ('winners' in p) {
    if (sorted.length === 0) {
      problems.push('a winning-tickets draw without tickets');
    } else {
      const expected = selectWinners({ ...input, winners: p.max_winners }).winners;
      if (expected.length !== p.winners.length) {
        problems.push(`${p.winners.length} winners listed; the draw gives ${expected.length}`);
      }
      expected.forEach((t, i) => {
        const listed = p.winners[i];
        if (listed !== undefined && listed !== t) problems.push(`winner ${i + 1} differs: the proof says ${listed}, the draw gives ${t}`);
      });
    }
  } else {
    const expected = drawNumbers(input).numbers;
    if (expected.join(',') !== p.numbers.join(',')) {
      problems.push(`numbers differ: the proof says ${p.numbers.join(', ')}, the draw gives ${expected.join(', ')}`);
    }
    if (p.lucky_chance) {
      const listed = p.lucky_chance.winners;
      const drawn = selectLucky({ ...input, count: p.lucky_chance.count }).lucky;
      if (drawn.length !== listed.length) problems.push(`${listed.length} Lucky Chance winners listed; the draw gives ${drawn.length}`);
      drawn.forEach((w, i) => {
        const l = listed[i];
        if (l !== undefined && (l.ticket !== w.ticket || l.code !== w.code)) {
          problems.push(
            `Lucky Chance winner ${i + 1} differs: the proof says ${l.ticket} (${l.code}), the draw gives ${w.ticket} (${w.code})`,
          );
        }
      });
    }
  }
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}
