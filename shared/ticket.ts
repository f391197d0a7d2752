/**
 * Ticket rules, shared by the browser, SSR and the API (docs/rules/tickets.md):
 * five distinct main numbers 1–55 plus one last number 1–15.
 * Canonical text form: main numbers ascending, zero-padded, last at the end: `05-12-23-34-45-07`.
 */

export const MAIN_COUNT = 5;
export const MAIN_MAX = 55;
export const LAST_MAX = 15;
export const SECRET_LENGTH = 16;

export type Ticket = { main: number[]; last: number };

export type SelectionError = 'selectFiveMain' | 'selectLastNumber' | 'invalidNumber' | 'duplicateNumber';

/** Returns a uniformly distributed integer in [0, maxExclusive). */
export type RandomInt = (maxExclusive: number) => number;

const PART = /^\d{1,2}$/;

export const isMainNumber = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAIN_MAX;

export const isLastNumber = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= LAST_MAX;

const ascending = (a: number, b: number): number => a - b;

/** Parses `5-12-23-34-45-7` or `05 - 12-23-34-45-07`; null for anything that is not a valid ticket. */
export function parseTicket(text: string): Ticket | null {
  if (typeof text !== 'string') return null;
  const parts = text.split('-');
  if (parts.length !== MAIN_COUNT + 1) return null;
  const nums: number[] = [];
  for (const raw of parts) {
    const p = raw.trim();
    if (!PART.test(p)) return null;
    nums.push(Number(p));
  }
  const last = nums.pop() as number;
  if (!isLastNumber(last) || !nums.every(isMainNumber)) return null;
  if (new Set(nums).size !== MAIN_COUNT) return null;
  return { main: nums.sort(ascending), last };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Canonical text form; main numbers are sorted here too so any valid Ticket formats the same. */
export function formatTicket(t: Ticket): string {
  return [...[...t.main].sort(ascending), t.last].map(pad2).join('-');
}

export function normaliseTicket(text: string): string | null {
  const t = parseTicket(text);
  return t ? formatTicket(t) : null;
}

/** The six two-digit strings of a valid ticket (for balls and boxes); null if the text is not a ticket. */
export function ticketNumberParts(text: string): string[] | null {
  const canonical = normaliseTicket(text);
  return canonical ? canonical.split('-') : null;
}

export function validateSelection(
  main: number[],
  last: number | null,
): { ok: true; ticket: Ticket } | { ok: false; errors: SelectionError[] } {
  const errors: SelectionError[] = [];
  if (main.length !== MAIN_COUNT) errors.push('selectFiveMain');
  if (last === null) errors.push('selectLastNumber');
  if (!main.every(isMainNumber) || (last !== null && !isLastNumber(last))) errors.push('invalidNumber');
  if (new Set(main).size !== main.length) errors.push('duplicateNumber');
  if (errors.length > 0 || last === null) return { ok: false, errors };
  return { ok: true, ticket: { main: [...main].sort(ascending), last } };
}

/**
 * Adds n to the selection (kept ascending) or removes it if already picked.
 * A sixth pick or an out-of-range n is ignored and the same array is returned (no React re-render).
 */
export function toggleMain(selected: number[], n: number): number[] {
  if (selected.includes(n)) return selected.filter((x) => x !== n);
  if (!isMainNumber(n) || selected.length >= MAIN_COUNT) return selected;
  return [...selected, n].sort(ascending);
}

/** Picks n as the last number; picking the current one again clears it. Out-of-range n is ignored. */
export function toggleLast(current: number | null, n: number): number | null {
  if (!isLastNumber(n)) return current;
  return current === n ? null : n;
}

/** CSPRNG integer in [0, maxExclusive) by rejection sampling (no modulo bias). Works in browsers and Node ≥ 19. */
export function cryptoRandomInt(maxExclusive: number): number {
  if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 2 ** 32) {
    throw new RangeError(`maxExclusive must be an integer in 1..2^32, got ${maxExclusive}`);
  }
  const buf = new Uint32Array(1);
  // Largest multiple of maxExclusive that fits in 32 bits: values at or above it would bias the result.
  const limit = 2 ** 32 - (2 ** 32 % maxExclusive);
  for (;;) {
    globalThis.crypto.getRandomValues(buf);
    const x = buf[0] as number;
    if (x < limit) return x % maxExclusive;
  }
}

function draw(rand: RandomInt, maxExclusive: number): number {
  const r = rand(maxExclusive);
  if (!Number.isInteger(r) || r < 0 || r >= maxExclusive) {
    throw new RangeError(`random source returned ${r} for maxExclusive ${maxExclusive}`);
  }
  return r;
}

/** Easy Pick: five distinct main numbers (partial Fisher–Yates) and a last number, uniformly. */
export function randomTicket(rand: RandomInt = cryptoRandomInt): Ticket {
  const pool = Array.from({ length: MAIN_MAX }, (_, i) => i + 1);
  for (let i = 0; i < MAIN_COUNT; i++) {
    const j = i + draw(rand, MAIN_MAX - i);
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return { main: pool.slice(0, MAIN_COUNT).sort(ascending), last: draw(rand, LAST_MAX) + 1 };
}

/** Secret number of a generated ticket: the 16 digits with spaces and dashes removed, or null. */
export function normaliseSecret(s: string): string | null {
  if (typeof s !== 'string') return null;
  const digits = s.replace(/[\s-]/g, '');
  return /^\d{16}$/.test(digits) ? digits : null;
}

export const isSecretNumber = (s: string): boolean => normaliseSecret(s) !== null;

/** `1234567812345678` → `1234 5678 1234 5678`; null when s is not a secret number. */
export function groupSecret(s: string): string | null {
  const digits = normaliseSecret(s);
  return digits ? (digits.match(/\d{4}/g) as string[]).join(' ') : null;
}
