/**
 * drand quicknet's beacon, fetched from a relay and checked against the network's public key
 * (docs/rules/draws.md#4-the-beacon). A relay is only a messenger: its `randomness` is never taken on its word; the
 * round's BLS signature must verify under quicknet's key, and the value used is SHA-256 of that signature.
 */
import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { QUICKNET } from './verifiable.ts';

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

/**
 * A relay's answer checked in full: the round asked for, a signature of that round under quicknet's key, and a
 * `randomness` that is SHA-256 of the signature. Anything else is null.
 */
export function verifyBeacon(b: { round: unknown; randomness?: unknown; signature: unknown }, publicKey?: string): Beacon | null {
  if (typeof b.round !== 'number') return null;
  const beacon = beaconFromSignature(b.round, b.signature, publicKey);
  if (!beacon) return null;
  if (b.randomness !== undefined && (typeof b.randomness !== 'string' || b.randomness.toLowerCase() !== beacon.randomness)) return null;
  return beacon;
}

/** A relay's JSON for `/<chain hash>/public/<round>` (other fields, such as drand's `previous_signature`, are ignored). */
const RelayAnswer = z.object({
  round: z.number().int().positive(),
  randomness: z.string().regex(/^[0-9a-fA-F]{64}$/),
  signature: z.string().regex(/^[0-9a-fA-F]{96}$/),
});

/** A relay's answer is a few hundred bytes; more is not drand's. */
const MAX_ANSWER_BYTES = 4096;

export type FetchOptions = {
  /** Each relay's whole exchange (connect, headers, body) must finish within this. */
  timeoutMs: number;
  /** The connection pool (the beacon job keeps one and closes it when it stops); undici's global one otherwise. */
  dispatcher?: Dispatcher;
  /**
   * Told why a relay gave nothing usable, for the log: `unavailable` (no answer, an HTTP error such as drand's 404 or
   * 425 before the round is out) or `invalid` (an answer that is not the round's beacon, or fails the check).
   */
  onMiss?: (relay: string, reason: string, kind: 'unavailable' | 'invalid') => void;
  publicKey?: string;
};

/**
 * The verified beacon of `round`, from the first relay that serves one, trying `relays` in order; null when none did
 * (the round not out yet, relays unreachable, or every answer failing the check). `relays` are base URLs such as
 * `https://api.drand.sh`; the path is `/<chain hash>/public/<round>`.
 */
export async function fetchBeacon(relays: readonly string[], round: number, opts: FetchOptions): Promise<Beacon | null> {
  for (const relay of relays) {
    const base = relay.replace(/\/+$/, '');
    const miss = (reason: string, kind: 'unavailable' | 'invalid' = 'unavailable') => opts.onMiss?.(base, reason, kind);
    let text: string | null;
    try {
      const res = await request(`${base}/${QUICKNET.chainHash}/public/${round}`, {
        method: 'GET',
        headers: { accept: 'application/json' },
        ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      text = await readCapped(res.body);
      if (res.statusCode !== 200) {
        miss(`HTTP ${res.statusCode}`);
        continue;
      }
    } catch (err) {
      const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; code?: unknown };
      const name = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'error';
      miss(/timeout|abort/i.test(name) ? `no answer within ${opts.timeoutMs} ms` : `no answer (${name})`);
      continue;
    }
    if (text === null) {
      miss('answer too long', 'invalid');
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = RelayAnswer.safeParse(json);
    if (!parsed.success) {
      miss('not a drand beacon', 'invalid');
      continue;
    }
    if (parsed.data.round !== round) {
      miss(`round ${parsed.data.round} instead of ${round}`, 'invalid');
      continue;
    }
    const beacon = verifyBeacon(parsed.data, opts.publicKey);
    if (!beacon) {
      miss('signature or randomness does not verify', 'invalid');
      continue;
    }
    return beacon;
  }
  return null;
}

/** The body as text, or null (and the rest discarded) past MAX_ANSWER_BYTES. */
async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += b.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      return null;
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
