/** Secrets at rest (server/crypto/sealed.ts, docs/rules/security.md#6-secrets-and-configuration): AES-256-GCM under keys derived from SECRET_KEY. */
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { Keyring, keyringOf, kidOf, SealError } from '../../server/crypto/sealed.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

const refused = (f: () => unknown, reason: SealError['reason']) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SealError);
    expect((e as SealError).reason).toBe(reason);
    return;
  }
  throw new Error('not refused');
};

test('round trip: the value opens as it was; the sealed text names the format and the key, never the value', () => {
  const ring = new Keyring(A);
  const s = ring.seal('draw-seed', SEED);
  expect(s).toMatch(/^v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
  expect(kidOf(s)).toBe(ring.kid);
  expect(s).not.toContain(SEED);
  expect(ring.open('draw-seed', s)).toBe(SEED);
  // A fresh IV each time: the same value sealed twice gives two texts, both opening.
  const again = ring.seal('draw-seed', SEED);
  expect(again).not.toBe(s);
  expect(ring.open('draw-seed', again)).toBe(SEED);
  expect(ring.open('generated-secret', ring.seal('generated-secret', '1234567812345678'))).toBe('1234567812345678');
});

test('it is AES-256-GCM under HKDF-SHA256 of SECRET_KEY with the purpose as label (opened here by hand)', () => {
  const ring = new Keyring(A);
  const [, kid, iv, body] = ring.seal('draw-seed', SEED).split(':') as [string, string, string, string];
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(A), Buffer.alloc(0), 'bhagya seal v1 draw-seed', 32));
  const raw = Buffer.from(body, 'base64url');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(`v1:${kid}:draw-seed`));
  d.setAuthTag(raw.subarray(raw.length - 16));
  expect(Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString()).toBe(SEED);
});

test('tampered: any changed character of the IV, ciphertext or tag is refused', () => {
  const ring = new Keyring(A);
  const s = ring.seal('draw-seed', SEED);
  const parts = s.split(':');
  for (const i of [2, 3]) {
    const p = parts[i] as string;
    for (const at of [0, Math.floor(p.length / 2), p.length - 2]) {
      const changed = [...parts];
      changed[i] = p.slice(0, at) + (p[at] === 'A' ? 'B' : 'A') + p.slice(at + 1);
      refused(() => ring.open('draw-seed', changed.join(':')), 'tampered');
    }
  }
  // Sealed for one purpose, it does not open as another (a ticket's secret cannot pass for a seed).
  refused(() => ring.open('generated-secret', s), 'tampered');
  // Not a sealed value at all.
  for (const bad of ['', SEED, 'v2:' + s.slice(3), s.slice(0, 30), `${s}:x`]) refused(() => ring.open('draw-seed', bad), 'format');
});

test('wrong key: a value sealed under another SECRET_KEY is refused, naming its unknown key', () => {
  const s = new Keyring(A).seal('draw-seed', SEED);
  refused(() => new Keyring(B).open('draw-seed', s), 'unknown_key');
  // The same key id forged onto another key's ciphertext does not open either.
  const forged = new Keyring(B).seal('draw-seed', SEED).split(':');
  forged[1] = kidOf(s) as string;
  refused(() => new Keyring(A).open('draw-seed', forged.join(':')), 'tampered');
});

test('rotation: with the old key as previous, old values open, new ones are sealed by the new key, old ones are stale', () => {
  const old = new Keyring(A).seal('generated-secret', '1234567812345678');
  const ring = keyringOf({ SECRET_KEY: B, SECRET_KEY_PREVIOUS: A });
  expect(ring.kid).toBe(new Keyring(B).kid);
  expect(ring.kid).not.toBe(new Keyring(A).kid);
  expect(ring.open('generated-secret', old)).toBe('1234567812345678');
  expect(ring.stale(old)).toBe(true);
  const fresh = ring.seal('generated-secret', '1234567812345678');
  expect(kidOf(fresh)).toBe(ring.kid);
  expect(ring.stale(fresh)).toBe(false);
  // Without the previous key the old value is lost: the rotation needs both until start-up sealed everything again.
  refused(() => keyringOf({ SECRET_KEY: B }).open('generated-secret', old), 'unknown_key');
});

test('lookup hashes: HMAC-SHA256 hex, per key and purpose; while rotating the old key gives the old hash too', () => {
  const a = new Keyring(A);
  const h = a.lookup('generated-secret', '1234567812345678');
  expect(h).toMatch(/^[0-9a-f]{64}$/);
  expect(a.lookup('generated-secret', '1234567812345678')).toBe(h);
  expect(a.lookup('generated-secret', '1234567812345679')).not.toBe(h);
  expect(a.lookup('draw-seed', '1234567812345678')).not.toBe(h);
  expect(new Keyring(B).lookup('generated-secret', '1234567812345678')).not.toBe(h);
  const ring = new Keyring(B, [A]);
  expect(ring.lookups('generated-secret', '1234567812345678')).toEqual([new Keyring(B).lookup('generated-secret', '1234567812345678'), h]);
});
