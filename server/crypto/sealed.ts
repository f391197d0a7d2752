/**
 * Secrets at rest (docs/rules/security.md#6-secrets-and-configuration, docs/decisions/049-secrets-sealed-at-rest.md):
 * values a database dump must not reveal — the seed of an undrawn lottery, a generated ticket's secret — are sealed
 * with AES-256-GCM under a key derived from `SECRET_KEY` with HKDF-SHA256 and the value's purpose, and found again by
 * an HMAC-SHA256 lookup hash under another derived key. A sealed value names the key that sealed it:
 *
 *     v1:<kid>:<iv>:<ciphertext and tag>      (kid, iv, ciphertext: base64url)
 *
 * The key id is derived from the secret too (never the secret itself). While `SECRET_KEY` is being rotated, the old
 * one in `SECRET_KEY_PREVIOUS` still opens what it sealed; start-up seals it again under the new key
 * (server/crypto/seal-at-start.ts).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed value is for: each purpose has keys of its own, and a value sealed for one never opens as another. */
export type Purpose = 'draw-seed' | 'generated-secret';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = /^v1:([A-Za-z0-9_-]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/** A sealed value that cannot be opened: not in the format, sealed by a key not held, or changed since it was sealed. */
export class SealError extends Error {
  readonly reason: 'format' | 'unknown_key' | 'tampered';
  constructor(reason: 'format' | 'unknown_key' | 'tampered') {
    super(`sealed value refused: ${reason}`);
    this.reason = reason;
    this.name = 'SealError';
  }
}

const derived = new Map<string, Buffer>();

/** HKDF-SHA256 of the secret under a label of its own (no salt: the secret is a key, not a password); kept once made. */
function derive(secret: string, label: string, bytes = 32): Buffer {
  const id = `${label}\0${bytes}\0${secret}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `bhagya ${label}`, bytes));
    derived.set(id, key);
  }
  return key;
}

type Key = { kid: string; secret: string };

const keyOf = (secret: string): Key => ({ kid: derive(secret, 'key id v1', 6).toString('base64url'), secret });

/** The additional data every seal is bound to: the format, the key and the purpose. */
const aad = (kid: string, purpose: Purpose) => Buffer.from(`${VERSION}:${kid}:${purpose}`, 'utf8');

/** The key id of a sealed value, or null when it is not one. */
export function kidOf(sealed: string): string | null {
  return FORMAT.exec(sealed)?.[1] ?? null;
}

/**
 * The keys of this server: `current` seals and makes lookup hashes; `previous` (while rotating) only opens what it
 * sealed and gives the lookup hashes of values not sealed again yet.
 */
export class Keyring {
  private readonly keys: Key[];

  constructor(current: string, previous: readonly string[] = []) {
    this.keys = [current, ...previous.filter((p) => p !== current)].map(keyOf);
  }

  /** The id of the key that seals now. */
  get kid(): string {
    return (this.keys[0] as Key).kid;
  }

  seal(purpose: Purpose, plain: string): string {
    const { kid, secret } = this.keys[0] as Key;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', derive(secret, `seal v1 ${purpose}`), iv);
    cipher.setAAD(aad(kid, purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}:${kid}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  /** The plain value; a SealError when it is not a sealed value, its key is not held, or it was changed. */
  open(purpose: Purpose, sealed: string): string {
    const m = FORMAT.exec(sealed);
    if (!m) throw new SealError('format');
    const [, kid, ivText, bodyText] = m as unknown as [string, string, string, string];
    const key = this.keys.find((k) => k.kid === kid);
    if (!key) throw new SealError('unknown_key');
    const body = Buffer.from(bodyText, 'base64url');
    if (body.length <= TAG_BYTES) throw new SealError('format');
    const decipher = createDecipheriv('aes-256-gcm', derive(key.secret, `seal v1 ${purpose}`), Buffer.from(ivText, 'base64url'));
    decipher.setAAD(aad(kid, purpose));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError('tampered');
    }
  }

  /** True when the value was sealed by another key than the current one (start-up seals it again). */
  stale(sealed: string): boolean {
    return kidOf(sealed) !== this.kid;
  }

  /** The lookup hash of a value under the current key: HMAC-SHA256, hex. */
  lookup(purpose: Purpose, value: string): string {
    return lookupUnder(this.keys[0] as Key, purpose, value);
  }

  /** The lookup hashes of a value under every key held, the current one first (a value not sealed again yet). */
  lookups(purpose: Purpose, value: string): string[] {
    return this.keys.map((k) => lookupUnder(k, purpose, value));
  }
}

const lookupUnder = (k: Key, purpose: Purpose, value: string) =>
  createHmac('sha256', derive(k.secret, `lookup v1 ${purpose}`))
    .update(value, 'utf8')
    .digest('hex');

/** The keyring of a configuration: `SECRET_KEY`, and `SECRET_KEY_PREVIOUS` while rotating. */
export const keyringOf = (config: { SECRET_KEY: string; SECRET_KEY_PREVIOUS?: string | undefined }): Keyring =>
  new Keyring(config.SECRET_KEY, config.SECRET_KEY_PREVIOUS ? [config.SECRET_KEY_PREVIOUS] : []);

/** A generated ticket's secret as it is stored: sealed, and its lookup hash (docs/rules/tickets.md#6-generated-tickets). */
export const sealSecret = (keys: Keyring, secret: string) => ({
  secret_sealed: keys.seal('generated-secret', secret),
  secret_lookup: keys.lookup('generated-secret', secret),
});
