import { withheldPrizes } from './withholding-queries.ts';
import type { z } from 'zod';
import { ALGORITHM, BEACON_SOURCE, type DrawProofReply } from '../../shared/draws/proof.ts';
import type { Db } from '../db/index.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { SealError, type Keyring } from '../crypto/sealed.ts';
import * as q from './commitment-queries.ts';
import { freezeOf } from './freeze-queries.ts';
import { numbersOf } from '../../shared/draws/tiers.ts';
import { commitment, luckyCode, newSeed, quicknetRound, roundTime } from './verifiable.ts';
import { beaconFromSignature } from './quicknet-signature.ts';

/**
 * Whether the announcement's beacon value is drand's (docs/rules/draws.md#4-the-beacon, decision 046): it carries
 * quicknet's signature of its round, the signature verifies under quicknet's key, and the value is its SHA-256. A value
 * typed without a signature (before decision 046) or a sample is not; only a verified beacon draws.
 */
export const verifiedBeacon = (c: { beacon_round: number; beacon_value: string | null; beacon_signature: string | null }): boolean =>
  c.beacon_value !== null &&
  c.beacon_signature !== null &&
  beaconFromSignature(Number(c.beacon_round), c.beacon_signature)?.randomness === c.beacon_value;

/** A new announcement: a fresh secret seed, sealed at once (never stored in clear), its commitment, the beacon round. */
function fresh(keys: Keyring, lotteryId: number, round: number): Parameters<typeof q.insertCommitment>[1] {
  const seed = newSeed();
  return {
    lottery_id: lotteryId,
    seed_sealed: keys.seal('draw-seed', seed),
    commitment: commitment(seed),
    beacon_source: BEACON_SOURCE,
    beacon_round: round,
  };
}

/**
 * The seed `S` of an announced draw, for the draw only (docs/rules/draws.md#2-the-seed-and-its-commitment): opened from
 * its sealed form; in clear only once revealed (or a row written by hand and not sealed yet).
 */
export function seedOf(keys: Keyring, c: Pick<q.CommitmentRow, 'seed' | 'seed_sealed'>): string {
  if (c.seed_sealed !== null) return keys.open('draw-seed', c.seed_sealed);
  if (c.seed === null) throw new Error('a commitment without a seed');
  return c.seed;
}

/**
 * The seed for the draw, in its transaction: a seed this server cannot open (sealed under a SECRET_KEY it does not
 * hold) is a 409 `seed_unopenable` and nothing is drawn, never a draw from another seed.
 */
export function seedForDraw(keys: Keyring, c: Pick<q.CommitmentRow, 'seed' | 'seed_sealed'>): string {
  try {
    return seedOf(keys, c);
  } catch (err) {
    if (err instanceof SealError) refuse('seed_unopenable');
    throw err;
  }
}

/**
 * Announces the draw of a published lottery (docs/rules/draws.md#2-the-seed-and-its-commitment), in the transaction that
 * publishes or changes it: a fresh secret seed, its commitment and the drand round after the end of sales, once. While
 * that round has not come (its value unknown to anyone), a new end of sales moves the round with it; once it has come,
 * the end of sales can no longer move (409): the operator would otherwise pick a round whose value he has seen.
 */
export async function announceDraw(tx: Db, keys: Keyring, lotteryId: number, endDate: string | Date, now = Date.now()): Promise<void> {
  const round = quicknetRound(new Date(endDate));
  const existing = await q.commitmentForUpdate(tx, lotteryId);
  if (!existing) {
    await q.insertCommitment(tx, fresh(keys, lotteryId, round));
    return;
  }
  if (existing.revealed_at !== null || existing.beacon_round === round) return;
  if (roundTime(existing.beacon_round).getTime() <= now) refuse('beacon_round_passed');
  await q.setBeaconRound(tx, lotteryId, round);
}

/**
 * Announces the draws of published lotteries that have none (those made before announcements existed, the demo data's):
 * at start, so that every lottery on sale shows its commitment.
 */
export async function announceMissing(db: Db, keys: Keyring): Promise<number> {
  const rows = await q.unannounced(db);
  for (const l of rows) await q.insertCommitment(db, fresh(keys, l.id, quicknetRound(new Date(l.end_date))));
  return rows.length;
}

/**
 * `GET /api/v1/lotteries/{id}/draw-proof/` (docs/rules/draws.md#9-the-proof): before the draw the commitment and the
 * beacon's identity; a lottery drawn without the procedure says it cannot be checked. Never the seed before it is
 * revealed. A published lottery that announced nothing yet (made straight in the database) announces now.
 */
export async function drawProof(db: Db, keys: Keyring, lotteryId: number): Promise<z.input<typeof DrawProofReply>> {
  const lottery = await q.lotteryForProof(db, lotteryId);
  if (!lottery?.published) refuse('draw_lottery_not_found');
  let c = await q.announcement(db, lotteryId);
  if (!c && !lottery.drawn) {
    await q.insertCommitment(db, fresh(keys, lotteryId, quicknetRound(new Date(lottery.end_date))));
    c = await q.announcement(db, lotteryId);
  }
  // Drawn by the procedure: everything needed to check it, the seed revealed; the winners, or for a numbers draw the
  // numbers (docs/rules/draws.md#7-numbers-draw).
  const drawnNumbers = numbersOf(c?.numbers ?? null);
  const outcome =
    c && c.max_winners !== null && c.winners !== null
      ? { max_winners: c.max_winners, winners: lines(c.winners) }
      : drawnNumbers
        ? { numbers: drawnNumbers, ...(c ? luckyChance(c, lottery.lucky_count) : {}) }
        : null;
  if (c?.revealed_at && c.tickets !== null && c.tickets_digest && c.beacon_value && outcome) {
    const seed = await q.revealedSeed(db, lotteryId);
    if (seed)
      return {
        algorithm: ALGORITHM,
        commitment: c.commitment,
        seed,
        beacon: {
          source: BEACON_SOURCE,
          round: Number(c.beacon_round),
          value: c.beacon_value,
          ...signed(c.beacon_signature),
          ...sample(c),
        },
        tickets_digest: c.tickets_digest,
        tickets: lines(c.tickets),
        ...outcome,
        withheld: await withheldPrizes(db, lotteryId),
      };
  }
  const beacon = c ? ({ source: BEACON_SOURCE, round: Number(c.beacon_round) } as const) : null;
  if (lottery.drawn || !c || !beacon) return { algorithm: 'unverifiable', commitment: c?.commitment ?? null, beacon };
  const frozen = await freezeOf(db, lotteryId);
  return {
    algorithm: ALGORITHM,
    commitment: c.commitment,
    beacon: { ...beacon, ...(c.beacon_value ? { value: c.beacon_value, ...signed(c.beacon_signature) } : {}) },
    ...(frozen
      ? {
          frozen: {
            at: new Date(frozen.frozen_at).toISOString(),
            tickets: Number(frozen.tickets_count),
            tickets_digest: frozen.tickets_digest,
          },
        }
      : {}),
  };
}

/** drand's signature of the round, when known (fetched, or entered by staff): anyone can check the value with it. */
const signed = (signature: string | null) => (signature ? { signature } : {});

/** A demo draw's beacon value is a sample, not drand's (server/db/seed.ts): its proof says so. */
const sample = (c: { beacon_sample: boolean }) => (c.beacon_sample ? { sample: true } : {});

/**
 * A game's draw's Lucky Chance as the proof lists it (docs/rules/draws.md#7a-lucky-chance): how many it draws, and its
 * winners in the order drawn, each with the code the commitment gives its ticket. Nothing for a draw without it.
 */
const luckyChance = (c: { lucky: string | null; commitment: string }, count: number) =>
  c.lucky !== null && count > 0
    ? { lucky_chance: { count, winners: lines(c.lucky).map((ticket) => ({ ticket, code: luckyCode(c.commitment, ticket) })) } }
    : {};

/** A list stored one per line ('' for none). */
const lines = (s: string): string[] => (s === '' ? [] : s.split('\n'));
