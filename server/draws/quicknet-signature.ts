/**
 * drand quicknet's signature of a round, checked against the network's public key (docs/rules/draws.md#4-the-beacon):
 * the one check that makes a beacon value drand's. Pure (node:crypto and @noble/curves only, nothing else of ours), so
 * that the server (server/draws/drand.ts, the draw) and the independent checker scripts/verify-draw.ts run the same
 * library call with the same published constants. Written for Node's type stripping (no enums, no parameter fields).
 */
import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';

/**
 * quicknet's group key and scheme, as drand publishes them at `<relay>/<chain hash>/info`. The key is checked by a
 * real quicknet beacon in tests/unit/drand.test.ts: a wrong constant fails that test.
 */
export const QUICKNET_KEY = {
  scheme: 'bls-unchained-g1-rfc9380',
  /** The group public key: a compressed point on G2 (96 bytes). */
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  /** RFC 9380 hash-to-curve domain separation tag of signatures on G1. */
  dst: 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_',
} as const;

/** A verified beacon: the round, its signature (a compressed G1 point, 96 hex) and randomness = SHA-256(signature). */
export type Beacon = { round: number; randomness: string; signature: string };

const HEX96 = /^[0-9a-f]{96}$/;

/** Trimmed and lower case; null unless 96 hex characters (48 bytes), the form of a quicknet signature. */
export function normaliseSignature(s: unknown): string | null {
  if (typeof s !== 'string') return null;
  const v = s.trim().toLowerCase();
  return HEX96.test(v) ? v : null;
}

/** The message quicknet signs for a round: SHA-256 of the round as an 8-byte big-endian unsigned integer. */
export function roundMessage(round: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(round));
  return createHash('sha256').update(b).digest();
}

/** drand's `randomness` of a signature: SHA-256 of its 48 bytes, as hex. */
export const randomnessOf = (signatureHex: string): string => createHash('sha256').update(Buffer.from(signatureHex, 'hex')).digest('hex');

/**
 * The beacon of `round` when `signature` is quicknet's signature of that round (under `publicKey`, quicknet's unless
 * a test gives another), else null. A malformed signature or point is null too, never a throw.
 */
export function beaconFromSignature(round: number, signature: unknown, publicKey: string = QUICKNET_KEY.publicKey): Beacon | null {
  const sig = normaliseSignature(signature);
  if (!sig || !Number.isSafeInteger(round) || round < 1) return null;
  try {
    const bls = bls12_381.shortSignatures;
    const message = bls.hash(roundMessage(round), QUICKNET_KEY.dst);
    if (!bls.verify(Buffer.from(sig, 'hex'), message, Buffer.from(publicKey, 'hex'))) return null;
  } catch {
    return null; // not a point of G1 (or the key not one of G2): not a signature
  }
  return { round, randomness: randomnessOf(sig), signature: sig };
}
