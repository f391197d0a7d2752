/**
 * server/draws/drand.ts (docs/rules/draws.md#4-the-beacon): drand quicknet's beacons checked against the network's
 * public key with real published beacons (a wrong key constant fails here), tampering refused, and the fetch from relays
 * in order, with timeouts, against a local fake relay (never the real network). Also DRAND_URLS in server/config.ts.
 */
import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { loadConfig } from '../../server/config.ts';
import { roundAt } from '../../server/draws/beacon-job.ts';
import { beaconFromSignature, fetchBeacon, QUICKNET_KEY, roundMessage, verifyBeacon } from '../../server/draws/drand.ts';
import { roundTime } from '../../server/draws/verifiable.ts';
import { REAL_BEACONS, REAL_SIGNATURE_5928395, serveBeacons, startFakeRelay, type FakeRelay } from '../helpers/fake-drand.ts';

const [early, recent] = REAL_BEACONS;
const sha256 = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
/** The signature with one bit of its last byte flipped. */
const tamper = (sig: string) => sig.slice(0, -2) + (parseInt(sig.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');

describe('verifying a quicknet beacon', () => {
  test.each(REAL_BEACONS)('the real beacon of round $round verifies with quicknet key, randomness = SHA-256(signature)', (b) => {
    expect(verifyBeacon(b)).toEqual(b);
    expect(sha256(b.signature)).toBe(b.randomness);
  });

  test('a third real signature, from another source, verifies too (round 5928395)', () => {
    expect(beaconFromSignature(5928395, REAL_SIGNATURE_5928395)).toEqual({
      round: 5928395,
      signature: REAL_SIGNATURE_5928395,
      randomness: sha256(REAL_SIGNATURE_5928395),
    });
  });

  test('the message is SHA-256 of the round as 8 bytes big-endian', () => {
    expect(roundMessage(1).toString('hex')).toBe(sha256('0000000000000001'));
    expect(roundMessage(20791007).toString('hex')).toBe(sha256((20791007).toString(16).padStart(16, '0')));
  });

  test('a tampered signature is refused', () => {
    expect(verifyBeacon({ ...recent, signature: tamper(recent.signature) })).toBeNull();
    expect(beaconFromSignature(recent.round, tamper(recent.signature))).toBeNull();
  });

  test("another round's signature is refused (wrong round)", () => {
    expect(verifyBeacon({ ...recent, round: recent.round + 1 })).toBeNull();
    expect(beaconFromSignature(early.round, recent.signature)).toBeNull();
  });

  test('a randomness that is not SHA-256 of the signature is refused', () => {
    expect(verifyBeacon({ ...recent, randomness: early.randomness })).toBeNull();
    expect(verifyBeacon({ ...recent, randomness: 'deadbeef' })).toBeNull();
  });

  test('under another key, a real beacon does not verify; a signature made with that key does', () => {
    const bls = bls12_381.shortSignatures;
    const { secretKey, publicKey } = bls.keygen();
    const otherKey = publicKey.toHex(true);
    expect(otherKey).not.toBe(QUICKNET_KEY.publicKey);
    expect(verifyBeacon(recent, otherKey)).toBeNull();
    const sig = bls.sign(bls.hash(roundMessage(recent.round), QUICKNET_KEY.dst), secretKey).toHex(true);
    expect(verifyBeacon({ round: recent.round, signature: sig, randomness: sha256(sig) }, otherKey)).not.toBeNull();
    // ... and quicknet's key refuses that forged one.
    expect(verifyBeacon({ round: recent.round, signature: sig, randomness: sha256(sig) })).toBeNull();
  });

  test('signatures are read in capitals and with spaces around; anything not 48 bytes of a G1 point is refused, never thrown', () => {
    expect(beaconFromSignature(recent.round, `  ${recent.signature.toUpperCase()}\n`)?.randomness).toBe(recent.randomness);
    for (const bad of [
      '',
      'zz',
      recent.signature.slice(2),
      recent.signature + '00',
      '00'.repeat(48),
      'ff'.repeat(48),
      'c0' + '00'.repeat(47),
    ])
      expect(beaconFromSignature(recent.round, bad)).toBeNull();
    expect(beaconFromSignature(recent.round, 42)).toBeNull();
    expect(beaconFromSignature(0, recent.signature)).toBeNull();
    expect(beaconFromSignature(1.5, recent.signature)).toBeNull();
  });
});

describe('fetching from relays', () => {
  const relays: FakeRelay[] = [];
  const relay = async (...args: Parameters<typeof startFakeRelay>) => {
    const r = await startFakeRelay(...args);
    relays.push(r);
    return r;
  };
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.close()));
  });
  const misses: [string, string, string][] = [];
  const opts = { timeoutMs: 1_000, onMiss: (relay: string, reason: string, kind: string) => void misses.push([relay, reason, kind]) };
  beforeEach(() => void misses.splice(0));

  test('the first relay that serves a verified beacon answers; the ones after it are not asked', async () => {
    const a = await relay(serveBeacons(REAL_BEACONS));
    const b = await relay(serveBeacons(REAL_BEACONS));
    expect(await fetchBeacon([a.url, b.url], recent.round, opts)).toEqual(recent);
    expect(a.requests).toEqual([recent.round]);
    expect(b.requests).toEqual([]);
    expect(misses).toEqual([]);
  });

  test('a relay without the round (404, "too early") is passed over for the next', async () => {
    const a = await relay(serveBeacons([]));
    const b = await relay(serveBeacons(REAL_BEACONS));
    expect(await fetchBeacon([`${a.url}/`, b.url], recent.round, opts)).toEqual(recent);
    expect(misses).toEqual([[a.url, 'HTTP 404', 'unavailable']]);
  });

  test("a relay's bad signature is never taken: the next relay's verified one is", async () => {
    const liar = await relay(
      serveBeacons([{ ...recent, signature: tamper(recent.signature), randomness: sha256(tamper(recent.signature)) }]),
    );
    const b = await relay(serveBeacons(REAL_BEACONS));
    expect(await fetchBeacon([liar.url, b.url], recent.round, opts)).toEqual(recent);
    expect(misses).toEqual([[liar.url, 'signature or randomness does not verify', 'invalid']]);
  });

  test('a randomness that is not SHA-256 of the signature, another round, or not a beacon at all: null', async () => {
    const wrongValue = await relay(serveBeacons([{ ...recent, randomness: early.randomness }]));
    const otherRound = await relay((_round, _req, res) => void res.writeHead(200).end(JSON.stringify(early)));
    const notJson = await relay((_round, _req, res) => void res.writeHead(200).end('<html>'));
    const tooLong = await relay((_round, _req, res) => void res.writeHead(200).end(JSON.stringify({ ...recent, pad: 'x'.repeat(10_000) })));
    expect(await fetchBeacon([wrongValue.url, otherRound.url, notJson.url, tooLong.url], recent.round, opts)).toBeNull();
    expect(misses.map((m) => m[1])).toEqual([
      'signature or randomness does not verify',
      `round ${early.round} instead of ${recent.round}`,
      'not a drand beacon',
      'answer too long',
    ]);
    expect(misses.every((m) => m[2] === 'invalid')).toBe(true);
  });

  test('a relay that does not answer in time is given up for the next', async () => {
    const silent = await relay(() => undefined); // never answers
    const b = await relay(serveBeacons(REAL_BEACONS));
    const started = Date.now();
    expect(await fetchBeacon([silent.url, b.url], recent.round, { ...opts, timeoutMs: 300 })).toEqual(recent);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(misses).toEqual([[silent.url, 'no answer within 300 ms', 'unavailable']]);
  });

  test('no relay reachable, or none given: null', async () => {
    expect(await fetchBeacon(['http://127.0.0.1:9'], recent.round, opts)).toBeNull();
    expect(misses[0]?.[2]).toBe('unavailable');
    expect(await fetchBeacon([], recent.round, opts)).toBeNull();
  });
});

describe('rounds and configuration', () => {
  test('roundAt is the newest round whose time has come', () => {
    const t = roundTime(recent.round).getTime();
    expect(roundAt(t)).toBe(recent.round);
    expect(roundAt(t - 1)).toBe(recent.round - 1);
    expect(roundAt(t + 2_999)).toBe(recent.round);
    expect(roundAt(0)).toBe(0);
  });

  const base = { SECRET_KEY: 'x'.repeat(40), DATA_DIR: '/tmp/bhagya-drand-config-test' };
  const production = {
    ...base,
    APP_ENV: 'production',
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
    BKASH_MODE: 'sandbox',
    BKASH_RECEIVER_NUMBER: '01800000000',
    BKASH_APP_KEY: 'k',
    BKASH_APP_SECRET: 's',
    BKASH_USERNAME: 'u',
    BKASH_PASSWORD: 'p',
  };

  test('DRAND_URLS: drand relays by default in production only; a list; none', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).drandRelays).toEqual([]);
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).drandRelays).toEqual([]);
    expect(loadConfig(production).drandRelays).toEqual(['https://api.drand.sh', 'https://drand.cloudflare.com']);
    expect(loadConfig({ ...production, DRAND_URLS: 'none' }).drandRelays).toEqual([]);
    expect(loadConfig({ ...base, DRAND_URLS: ' https://a.example/ , http://127.0.0.1:8080' }).drandRelays).toEqual([
      'https://a.example',
      'http://127.0.0.1:8080',
    ]);
  });

  test('a DRAND_URLS that is not a list of http(s) URLs stops the start, naming it', () => {
    expect(() => loadConfig({ ...base, DRAND_URLS: 'api.drand.sh' })).toThrow(/DRAND_URLS: must be comma-separated http\(s\) URLs/);
    expect(() => loadConfig({ ...base, DRAND_URLS: 'https://a.example,ftp://b.example' })).toThrow(/DRAND_URLS/);
  });
});
