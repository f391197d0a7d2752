/**
 * Lucky Chance codes as the player's pages show them, one per entry of a game's draw (docs/decisions/085-lucky-codes-from-a-table.md).
 * The value is luckyCode's (server/draws/verifiable.ts): the ticket's rank through four Feistel rounds whose function
 * is an HMAC of the draw's commitment. That function has only 4 × 10,000 inputs, so once a draw's codes are asked for
 * often, its values are computed once into a table (80 KB) and each code becomes four lookups instead of four HMACs.
 *
 * - A draw's first BUILD_AFTER codes are computed directly; the next one starts the table, built in slices between
 *   the event loop's turns so that no request waits for it; codes are computed directly until it is complete.
 * - The tables of the KEEP draws asked for most recently are kept, the least recent dropped first.
 * - The draw itself and its proof compute their codes directly (selectLucky): the table is only ever a faster way to
 *   the same numbers (tests/unit/lucky-codes.test.ts compares them).
 */
import { feistelCode, LUCKY_HALF, LUCKY_ROUNDS, luckyRound } from './verifiable.ts';

/**
 * Codes computed directly before a draw's table is built: a thousand cost about 20 ms here, the table 170–300 ms,
 * and each code read from it saves 15–20 µs — a draw asked for a thousand codes is one that players are looking at.
 */
const BUILD_AFTER = 1_000;
/** Entries of the table computed in one turn of the event loop (about 1 ms). */
const SLICE = 250;
/** Draws whose tables are kept: 80 KB each. */
const KEEP = 16;

type Draw = {
  /** The round function: luckyRound's HMAC, or once the table is complete, a lookup in it. */
  f: (round: number, right: number) => number;
  asked: number;
  tabled: boolean;
};

export type LuckyCodesOptions = { buildAfter: number; slice: number; keep: number };

export class LuckyCodes {
  private readonly draws = new Map<string, Draw>();
  private readonly o: LuckyCodesOptions;

  constructor(options: Partial<LuckyCodesOptions> = {}) {
    this.o = { buildAfter: BUILD_AFTER, slice: SLICE, keep: KEEP, ...options };
  }

  /** The ticket's code in the draw whose commitment is `commitmentHex`: luckyCode's, and its errors. */
  code(commitmentHex: string, ticket: string): string {
    const d = this.drawOf(commitmentHex);
    if (++d.asked === this.o.buildAfter) this.build(d);
    return feistelCode(ticket, d.f);
  }

  /** Whether the draw's table is complete (for the tests). */
  hasTable(commitmentHex: string): boolean {
    return this.draws.get(commitmentHex)?.tabled === true;
  }

  private drawOf(commitmentHex: string): Draw {
    let d = this.draws.get(commitmentHex);
    if (d) {
      // The most recently asked last: the first in the map is the one dropped.
      this.draws.delete(commitmentHex);
    } else {
      d = { f: luckyRound(commitmentHex), asked: 0, tabled: false };
      const oldest = this.draws.size >= this.o.keep ? this.draws.keys().next().value : undefined;
      if (oldest !== undefined) this.draws.delete(oldest);
    }
    this.draws.set(commitmentHex, d);
    return d;
  }

  /** The draw's table, a slice per turn of the event loop; once complete, it is the draw's round function. */
  private build(d: Draw): void {
    const f = d.f;
    const table = new Uint16Array(LUCKY_ROUNDS * LUCKY_HALF);
    let i = 0;
    const slice = () => {
      for (const end = Math.min(i + this.o.slice, table.length); i < end; i++) table[i] = f(Math.floor(i / LUCKY_HALF), i % LUCKY_HALF);
      if (i < table.length) return void setImmediate(slice);
      d.f = (round, right) => table[round * LUCKY_HALF + right] as number;
      d.tabled = true;
    };
    setImmediate(slice);
  }
}

/** The process's codes for pages (server/purchases/player-json.ts). */
export const luckyCodes = new LuckyCodes();
