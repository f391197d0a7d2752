/**
 * The numbers lottery the numbers-draw journey draws (tests/e2e/numbers-draw.spec.ts), put into the journeys' database
 * before the server starts (tests/e2e/prepare-data.ts). Only drand's signed value draws (docs/rules/draws.md#4-the-beacon,
 * decision 046), so the journey cannot choose the beacon: it draws on SIGNED, a real quicknet round whose signature the
 * tests have, and its seed is chosen here, as a test's data, so that on SIGNED the journey's one ticket wins a tier. In
 * production the seed is drawn by the server and nobody knows it before the draw
 * (docs/rules/draws.md#2-the-seed-and-its-commitment).
 */
import { createHash } from 'node:crypto';
import { drawNumbers } from '../../server/draws/verifiable.ts';
import { tierOf } from '../../shared/draws/tiers.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';

/** The real quicknet beacon the journey draws on: the lottery's round is its round, staff paste its signature. */
export const SIGNED = REAL_BEACONS[1];

/** The one ticket the journey sells. */
export const TICKET = '03-14-25-36-47-09';

/** The first seed (SHA-256 of "journey seed <i>") under which TICKET, the only ticket sold, wins a tier below the jackpot on SIGNED. */
function seedFor(ticket: string): string {
  for (let i = 0; i < 1_000_000; i++) {
    const seed = createHash('sha256').update(`journey seed ${i}`).digest('hex');
    const tier = tierOf(ticket, drawNumbers({ seed, tickets: [ticket], beacon: SIGNED.randomness }).numbers);
    if (tier === 4 || tier === 5) return seed;
  }
  throw new Error('no seed found');
}

export const NUMBERS_FIXTURE = {
  name: 'Meghna Numbers (journey)',
  name_bn: 'মেঘনা নম্বর (যাত্রা)',
  seed: seedFor(TICKET),
  ticketPrice: 100,
  jackpotShare: 50,
  tierPrizes: [25_000, 5_000, 1_000, 200] as const,
} as const;
