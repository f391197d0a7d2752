/**
 * The proof of a draw as `GET /api/v1/lotteries/{id}/draw-proof/` answers it (docs/rules/draws.md#9-the-proof): before
 * the draw the commitment and the beacon that will be used, after it everything needed to check it. Shared by the
 * server (server/draws/verifiable.ts checks a proof) and the pages.
 */
import { z } from 'zod';
import { v } from '../fields.ts';

/** The procedure's name and its one beacon source (docs/rules/draws.md#1-the-procedure-in-short, #4-the-beacon). */
export const ALGORITHM = 'bhagya-draw-v1';
export const BEACON_SOURCE = 'drand-quicknet';

const HEX64 = /^[0-9a-f]{64}$/;

/** drand quicknet's clock, as drand publishes it at `/<chain hash>/info` (docs/rules/draws.md#4-the-beacon). */
export const QUICKNET_GENESIS_TIME = 1692803367;
export const QUICKNET_PERIOD = 3;

/** When drand quicknet publishes `round` (a whole number ≥ 1): `genesis + (round − 1) · period` seconds. */
export const quicknetRoundTime = (round: number): Date => new Date((QUICKNET_GENESIS_TIME + (round - 1) * QUICKNET_PERIOD) * 1000);
const hex64 = z.string().regex(HEX64, 'must be 64 lower-case hex characters');
/** drand quicknet's signature of the round (a compressed G1 point, 48 bytes); the beacon value is SHA-256 of it. */
const hex96 = z.string().regex(/^[0-9a-f]{96}$/, 'must be 96 lower-case hex characters');
const beaconId = { source: z.literal(BEACON_SOURCE), round: z.number().int().min(1) };

/**
 * An **unverified beacon** (docs/rules/draws.md#4-the-beacon, decision 046): a value without drand's signature of its
 * round (typed by staff before the signature was required), or a sample (demo data). Nothing shows such a value is
 * drand's; every page that shows the beacon says so. The server stores a signature only once it verified it, and
 * checks it again before a draw; scripts/verify-draw.ts checks it for itself.
 */
export const isUnverifiedBeacon = (b: { value?: string | null; signature?: string | null; sample?: boolean }): boolean =>
  typeof b.value === 'string' && (!b.signature || b.sample === true);

/** `GET /api/v1/lotteries/{id}/draw-proof/` before the draw: the commitment and the beacon that will be used. */
export const pendingProofSchema = z.object({
  algorithm: z.literal(ALGORITHM),
  commitment: hex64,
  /** `value` once the round has come and its value was entered or fetched (public at drand anyway). */
  beacon: z.object({ ...beaconId, value: hex64.optional(), signature: hex96.optional() }),
  /**
   * Once sales closed and the tickets froze (docs/rules/draws.md#3-the-tickets): when the freeze was recorded, the number
   * `n` of `success` tickets and their digest `T`, which the draw must find again.
   */
  frozen: z.object({ at: z.string(), tickets: z.number().int().min(0), tickets_digest: hex64 }).optional(),
});

const drawnFields = {
  algorithm: z.literal(ALGORITHM),
  commitment: hex64,
  seed: hex64,
  /** `signature` when the server fetched the value or staff entered the signature (docs/rules/draws.md#9-the-proof). */
  beacon: z.object({ ...beaconId, value: hex64, signature: hex96.optional(), sample: z.boolean().optional() }),
  tickets_digest: hex64,
  tickets: z.array(z.string()),
  /**
   * The prizes of this draw withheld by two staff members since, each with why (docs/rules/lotteries-and-sales.md#9-the-draw):
   * the draw chose them all the same, so they stay among `winners` (or the tiers); the checker re-derives them as drawn.
   */
  withheld: z.array(z.object({ ticket: z.string(), reason: z.string() })).optional(),
};

/** After a winning-tickets draw. `max_winners` is the lottery's `winners`. */
export const winnersProofSchema = z.object({
  ...drawnFields,
  max_winners: z.number().int().min(1),
  winners: z.array(z.string()),
});

/**
 * After a numbers draw: `numbers` is `[m1, …, m5, last]`, the main numbers ascending. A game's draw also has its Lucky
 * Chance (docs/rules/draws.md#7a-lucky-chance): `count` winners at most, listed in the order drawn with their codes.
 */
export const numbersProofSchema = z.object({
  ...drawnFields,
  numbers: z.array(z.number().int()),
  lucky_chance: z
    .object({
      count: z.number().int().min(1),
      winners: z.array(z.object({ ticket: z.string(), code: z.string() })),
    })
    .optional(),
});

export type PendingProof = z.infer<typeof pendingProofSchema>;
export type WinnersProof = z.infer<typeof winnersProofSchema>;
export type NumbersProof = z.infer<typeof numbersProofSchema>;
export type DrawProof = WinnersProof | NumbersProof;

/**
 * A lottery drawn without the procedure (its winners chosen by staff, as every draw before it was built): nothing to
 * check. Its commitment, where one was announced, stays; its seed is never shown (docs/rules/draws.md#12-where-it-stands).
 */
export const unverifiableProofSchema = z.object({
  algorithm: z.literal('unverifiable'),
  commitment: hex64.nullable(),
  beacon: z.object(beaconId).nullable(),
});
export type UnverifiableProof = z.infer<typeof unverifiableProofSchema>;

/**
 * What the endpoint answers: a draw by the procedure (winning tickets or numbers), its announcement before the draw, or
 * an unverifiable draw. The drawn proofs come before the announcement, whose fields they all have.
 */
export const DrawProofReply = z.union([winnersProofSchema, numbersProofSchema, pendingProofSchema, unverifiableProofSchema]);

/**
 * `PUT /api/v1/lotteries/{id}/draw-beacon/` (staff): the announced round's `signature` (96 hex) as any drand relay
 * shows it, which the server verifies against drand quicknet's public key and derives the value from
 * (docs/rules/draws.md#4-the-beacon). A `value` typed alone is nobody's proof that it is drand's (decision 046): it
 * is refused with a text that says to paste the signature, rather than as an unknown field.
 */
export const BeaconBody = z
  .strictObject({ signature: z.string().max(200).optional(), value: z.string().max(200).optional() })
  .superRefine((b, ctx) => {
    if (b.value !== undefined) ctx.addIssue({ code: 'custom', message: v('beaconValueRefused'), path: ['value'] });
    else if (b.signature === undefined) ctx.addIssue({ code: 'custom', message: v('beaconSignatureRequired'), path: ['signature'] });
  });
