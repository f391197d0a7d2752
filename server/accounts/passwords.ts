import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * OWASP: scrypt N=2^17, r=8, p=1 (128 MiB). Parameters are stored in the hash, so they can be raised later: a hash
 * weaker than the current cost is replaced at the next successful login (needsRehash).
 */
export const PRODUCTION_HASH_COST = 17;
const R = 8;
const P = 1;
const KEYLEN = 32;
/**
 * log2 of scrypt's N for new hashes: PASSWORD_HASH_COST, set by createApp. Production refuses less than 17
 * (server/config.ts); tests run with a low cost so that thousands of logins do not each spend 350 ms
 * (docs/decisions/036-password-hash-cost-in-tests.md).
 */
let cost = PRODUCTION_HASH_COST;
export function setPasswordHashCost(log2N: number): void {
  cost = log2N;
}

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

const maxmem = (N: number, r: number) => 128 * N * r * 2;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A stored hash made with less work than new hashes get now: replace it once the password is known to be right. */
export function needsRehash(stored: string): boolean {
  const [alg, n, r, p] = stored.split('$');
  return alg === 'scrypt' && (Number(n) < 2 ** cost || Number(r) < R || Number(p) < P);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const N = Number(n),
    R = Number(r),
    P = Number(p);
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: R,
    p: P,
    maxmem: maxmem(N, R),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to compare against when no account matched, so timing does not tell whether an identifier exists. */
const dummies = new Map<number, Promise<string>>();
export function dummyHash(): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) dummies.set(cost, (dummy = hashPassword(randomBytes(12).toString('hex'))));
  return dummy;
}
