/**
 * drand quicknet's beacon, fetched from a relay and checked against the network's public key
 * (docs/rules/draws.md#4-the-beacon). A relay is only a messenger: its `randomness` is never taken on its word; the
 * round's BLS signature must verify under quicknet's key, and the value used is SHA-256 of that signature.
 */
import { request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { QUICKNET } from './verifiable.ts';
import { beaconFromSignature, type Beacon } from './quicknet-signature.ts';

// The signature check itself is in a module of its own, shared with scripts/verify-draw.ts.
export { QUICKNET_KEY, normaliseSignature, roundMessage, randomnessOf, beaconFromSignature, type Beacon } from './quicknet-signature.ts';

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
