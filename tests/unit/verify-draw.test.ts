/**
 * scripts/verify-draw.ts, the independent checker of docs/rules/draws.md#10-checking-a-draw, run as people run it
 * (`npx tsx`, a child process) on saved proofs made from the fixed vectors, and against a small local server standing in
 * for Bhagya's API and for a drand relay: "verified" and exit 0, each difference named and exit 1, not drawn / bad
 * arguments / nothing to reach exit 2, a right draw on a beacon without drand's signature (typed, or a sample) flagged
 * "unverified beacon" and exit 3. The signed proofs use real quicknet beacons (tests/helpers/fake-drand.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drawNumbers, selectLucky, selectWinners } from '../../server/draws/verifiable.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';
import { runVerifyDraw, verifyDraw as verify, type VerifyRun } from '../helpers/verify-draw.ts';

type Vector = {
  name: string;
  kind: 'winners' | 'numbers';
  sorted: string[];
  tickets_digest: string;
  max_winners?: number;
  winners?: string[];
  numbers?: number[];
};
type Vectors = { seed: string; commitment: string; beacon: { round: number; value: string }; vectors: Vector[] };

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/draw-vectors.json'), 'utf8')) as Vectors;
const vector = (name: string) => fixture.vectors.find((v) => v.name === name) as Vector;

type Proof = Record<string, unknown> & { beacon: Record<string, unknown> };
/** A real quicknet beacon: its signature verifies against quicknet's key for its round. */
const REAL = REAL_BEACONS[1];
/** A signature with one bit of its last byte flipped: no longer drand's. */
const tamper = (sig: string) => sig.slice(0, -2) + (parseInt(sig.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');
const sha256 = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

/**
 * A drawn proof of a vector: `sample` and `typed` on the vectors' beacon value (marked a sample, or without any mark),
 * neither with a signature; `signed` on a real quicknet beacon with its signature, the outcome drawn again on it.
 */
function proofOf(v: Vector, beacon: 'sample' | 'typed' | 'signed' = 'signed'): Proof {
  const signed = beacon === 'signed';
  const value = signed ? REAL.randomness : fixture.beacon.value;
  const base: Proof = {
    algorithm: 'bhagya-draw-v1',
    commitment: fixture.commitment,
    seed: fixture.seed,
    beacon: {
      source: 'drand-quicknet',
      round: signed ? REAL.round : fixture.beacon.round,
      value,
      ...(signed ? { signature: REAL.signature } : {}),
      ...(beacon === 'sample' ? { sample: true } : {}),
    },
    tickets_digest: v.tickets_digest,
    tickets: [...v.sorted],
  };
  const input = { seed: fixture.seed, tickets: v.sorted, beacon: value };
  if (v.kind === 'winners') {
    const winners = signed ? selectWinners({ ...input, winners: v.max_winners as number }).winners : (v.winners as string[]);
    return { ...base, max_winners: v.max_winners, winners: [...winners] };
  }
  return { ...base, numbers: signed ? drawNumbers(input).numbers : [...(v.numbers as number[])] };
}
const skip = vector('a ticket already chosen is skipped');
const numbers = vector('numbers draw');

const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-verify-draw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function save(proof: unknown): string {
  const file = path.join(dir, `proof-${++files}.json`);
  writeFileSync(file, typeof proof === 'string' ? proof : JSON.stringify(proof, null, 2));
  return file;
}

type Run = VerifyRun;
/** The first test runs the checker with `npx tsx`, the others with plain Node (tests/helpers/verify-draw.ts). */
const verifyWithTsx = (...args: string[]): Promise<Run> => runVerifyDraw(args, { tsx: true });
const lastLine = (r: Run) => r.lines[r.lines.length - 1];

describe('a saved proof (--file)', () => {
  test("a winning-tickets draw on drand's signed beacon: the signature checked offline, verified, exit 0 (with npx tsx)", async () => {
    const p = proofOf(skip);
    const r = await verifyWithTsx('--file', save(p));
    expect(r.code).toBe(0);
    expect(lastLine(r)).toBe('verified');
    expect(r.out).toContain(`winners ${(p.winners as string[]).join(' ')}`);
    expect(r.out).toContain(`beacon signature ${REAL.signature}: drand quicknet's signature of the round`);
    expect(r.out).not.toContain('unverified');
  });

  test("a numbers draw on drand's signed beacon: verified, exit 0", async () => {
    const p = proofOf(numbers);
    const r = await verify('--file', save(p));
    expect(r.code).toBe(0);
    expect(lastLine(r)).toBe('verified');
    expect(r.out).toContain(`numbers ${(p.numbers as number[]).join(' ')}`);
  });

  test('a right draw on a beacon without a signature, typed or a sample: "unverified beacon", exit 3', async () => {
    const [typed, sample] = await Promise.all([
      verify('--file', save(proofOf(skip, 'typed'))),
      verify('--file', save(proofOf(numbers, 'sample'))),
    ]);
    expect([typed.code, sample.code]).toEqual([3, 3]);
    expect(typed.lines).toContain(
      "unverified beacon: the proof carries no drand signature of the round: nothing shows the value is drand's",
    );
    expect(sample.lines).toContain('unverified beacon: the beacon value is marked as a sample, not a value drand published');
    for (const r of [typed, sample]) {
      expect(lastLine(r)).toBe("UNVERIFIED BEACON: the draw follows from this beacon value, but the value is not shown to be drand's");
      expect(r.lines).not.toContain('verified');
    }
  });

  test('a signature that is not drand\'s, or another round\'s: "unverified beacon", exit 1', async () => {
    // Tampered: the value is SHA-256 of the tampered signature, so only the BLS check can tell.
    const forged = proofOf(skip);
    forged.beacon.signature = tamper(REAL.signature);
    forged.beacon.value = sha256(tamper(REAL.signature));
    forged.winners = selectWinners({ seed: fixture.seed, tickets: skip.sorted, beacon: forged.beacon.value as string, winners: 3 }).winners;
    // Another real round's signature and value, under this round's number.
    const early = REAL_BEACONS[0];
    const wrongRound = proofOf(skip);
    wrongRound.beacon.signature = early.signature;
    wrongRound.beacon.value = early.randomness;
    wrongRound.winners = selectWinners({ seed: fixture.seed, tickets: skip.sorted, beacon: early.randomness, winners: 3 }).winners;
    // A value that is not SHA-256 of the (real) signature.
    const mismatch = proofOf(skip, 'typed');
    mismatch.beacon.signature = REAL.signature;
    const runs = await Promise.all([forged, wrongRound, mismatch].map((p) => verify('--file', save(p))));
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1]);
    const notDrands = `differs: unverified beacon: beacon.signature is not drand quicknet's signature of round ${REAL.round} (checked against its public key)`;
    expect(runs[0]?.lines).toEqual(expect.arrayContaining([notDrands, 'FAILED: 1 difference']));
    expect(runs[1]?.lines).toEqual(expect.arrayContaining([notDrands, 'FAILED: 1 difference']));
    expect(runs[2]?.lines).toContain('differs: beacon.value is not SHA-256 of beacon.signature');
  });

  test("a game's draw with its Lucky Chance: the winners and their codes drawn again, verified; one changed: exit 1", async () => {
    const p = proofOf(numbers);
    const input = { seed: fixture.seed, tickets: numbers.sorted, beacon: REAL.randomness };
    const lucky = selectLucky({ ...input, count: 3 }).lucky;
    p.lucky_chance = { count: 3, winners: lucky };
    const ok = await verify('--file', save(p));
    expect(ok.code).toBe(0);
    expect(ok.lines).toContain(`lucky chance ${lucky.map((w) => `${w.code} (${w.ticket})`).join(', ')}`);
    expect(lastLine(ok)).toBe('verified');

    const [first, second, third] = lucky as [(typeof lucky)[0], (typeof lucky)[0], (typeof lucky)[0]];
    const swapped = proofOf(numbers);
    swapped.lucky_chance = { count: 3, winners: [second, first, third] };
    const recoded = proofOf(numbers);
    recoded.lucky_chance = { count: 3, winners: [first, second, { ...third, code: 'BHG 0000 0000' }] };
    const short = proofOf(numbers);
    short.lucky_chance = { count: 3, winners: [first, second] };
    const onWinners = proofOf(skip);
    onWinners.lucky_chance = { count: 1, winners: [] };
    const runs = await Promise.all([swapped, recoded, short, onWinners].map((x) => verify('--file', save(x))));
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1]);
    expect(runs[0]?.lines).toContain(
      `differs: lucky_chance.winners[0]: the proof says ${second.ticket} (${second.code}), the draw gives ${first.ticket} (${first.code})`,
    );
    expect(runs[1]?.lines).toEqual(
      expect.arrayContaining([
        `differs: lucky_chance.winners[2]: the proof says ${third.ticket} (BHG 0000 0000), the draw gives ${third.ticket} (${third.code})`,
        'FAILED: 1 difference',
      ]),
    );
    expect(runs[2]?.lines).toContain('differs: lucky_chance: 2 winners listed, the draw gives 3');
    expect(runs[3]?.lines).toContain("differs: lucky_chance: only a numbers draw (a game's draw) has a Lucky Chance");
  });

  test('a tampered seed: exit 1, the seed named', async () => {
    const p = proofOf(skip, 'sample');
    p.seed = `${'0'.repeat(62)}ff`;
    const r = await verify('--file', save(p));
    expect(r.code).toBe(1);
    expect(r.lines).toContain('differs: seed: SHA-256(seed) is not the commitment');
    expect(lastLine(r)).not.toBe('verified');
  });

  test('a tampered ticket list (a ticket that did not win left out): exit 1, the digest named', async () => {
    const p = proofOf(skip, 'sample');
    const loser = skip.sorted.find((t) => !(skip.winners as string[]).includes(t));
    p.tickets = skip.sorted.filter((t) => t !== loser);
    const r = await verify('--file', save(p));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/differs: tickets_digest: the proof says [0-9a-f]{64}, the tickets listed give [0-9a-f]{64}/);
  });

  test('a swapped winner: exit 1, each place named', async () => {
    const p = proofOf(skip, 'sample');
    const w = skip.winners as string[];
    const other = skip.sorted.find((t) => !w.includes(t)) as string;
    p.winners = [w[0], other, w[2]];
    const r = await verify('--file', save(p));
    expect(r.code).toBe(1);
    expect(r.lines).toContain(`differs: winners[1]: the proof says ${other}, the draw gives ${w[1]}`);
    expect(lastLine(r)).toBe('FAILED: 1 difference');
  });

  test('a wrong digest: exit 1', async () => {
    const p = proofOf(skip, 'sample');
    p.tickets_digest = 'a'.repeat(64);
    const r = await verify('--file', save(p));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`differs: tickets_digest: the proof says ${'a'.repeat(64)}, the tickets listed give ${skip.tickets_digest}`);
  });

  test('a winner left out, wrong numbers, unsorted or repeated tickets, another algorithm: exit 1', async () => {
    const short = proofOf(skip, 'sample');
    short.winners = (skip.winners as string[]).slice(0, 2);
    const wrongNumbers = proofOf(numbers, 'sample');
    wrongNumbers.numbers = [1, 2, 3, 4, 5, 6];
    const unsorted = proofOf(skip, 'sample');
    unsorted.tickets = [...skip.sorted].reverse();
    const repeated = proofOf(skip, 'sample');
    repeated.tickets = [...skip.sorted, skip.sorted[skip.sorted.length - 1]];
    const typed = proofOf(skip, 'sample');
    typed.algorithm = 'unverifiable';
    const runs = await Promise.all([short, wrongNumbers, unsorted, repeated, typed].map((p) => verify('--file', save(p))));
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1]);
    expect(runs[0]?.out).toContain('differs: winners: 2 listed, the draw gives 3');
    expect(runs[1]?.out).toContain(
      `differs: numbers: the proof says 1, 2, 3, 4, 5, 6, the draw gives ${(numbers.numbers as number[]).join(', ')}`,
    );
    expect(runs[2]?.out).toContain('differs: tickets: not in ascending order');
    expect(runs[3]?.out).toContain(`differs: tickets: ${skip.sorted[skip.sorted.length - 1]} is listed twice`);
    expect(runs[4]?.out).toContain('differs: algorithm is "unverifiable": only bhagya-draw-v1 draws can be checked');
  });

  test('a proof before the draw: not drawn yet, exit 2', async () => {
    const pending = { algorithm: 'bhagya-draw-v1', commitment: fixture.commitment, beacon: { source: 'drand-quicknet', round: 18661013 } };
    const r = await verify('--file', save(pending));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `verify-draw: not drawn yet: the seed is revealed after the draw (commitment ${fixture.commitment}, beacon drand-quicknet round 18661013 at 2025-06-01T14:00:03Z)\n`,
    );
    expect(r.out).not.toContain('verified');
  });

  test('bad arguments, a missing file, a file that is not JSON: one line, exit 2', async () => {
    const runs = await Promise.all([
      verify(),
      verify('--file', path.join(dir, 'missing.json')),
      verify('--file', save('{ not json')),
      verify('--nonsense'),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]?.stderr).toMatch(/^verify-draw: usage: verify-draw <base-url> <lottery-id>/);
    expect(runs[1]?.stderr).toBe(`verify-draw: cannot read ${path.join(dir, 'missing.json')}: ENOENT\n`);
    expect(runs[2]?.stderr).toMatch(/is not JSON\n$/);
    expect(runs[3]?.stderr).toMatch(/Unknown option '--nonsense'/);
  });
});

describe('from a server (<base-url> <lottery-id>) and from drand (--check-beacon)', () => {
  let server: Server;
  let base = '';
  /** What the fake relay answers for the real round: drand's signed beacon, unless a test tampers with it. */
  let drandAnswer: Record<string, unknown> = { ...REAL };
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/api/v1/lotteries/7/draw-proof/') return json(200, proofOf(skip));
      if (req.url === '/api/v1/lotteries/8/draw-proof/') return json(500, { detail: 'A server error occurred.' });
      if (req.url === `/drand/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/${REAL.round}`)
        return json(200, drandAnswer);
      return json(404, { detail: 'Not found.' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the proof at <base-url>/api/v1/lotteries/<id>/draw-proof/: verified', async () => {
    const r = await verify(`${base}/`, '7');
    expect(r.code).toBe(0);
    expect(r.lines[0]).toBe(`proof: ${base}/api/v1/lotteries/7/draw-proof/`);
    expect(lastLine(r)).toBe('verified');
    expect(requests).toContain('/api/v1/lotteries/7/draw-proof/');
  });

  test('an unknown lottery, a server error, a bad id, a bad address, nothing listening: one line, exit 2', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const runs = await Promise.all([
      verify(base, '9'),
      verify(base, '8'),
      verify(base, 'abc'),
      verify('ftp://example.org', '7'),
      verify(`http://127.0.0.1:${port}`, '7'),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
    expect(runs[0]?.stderr).toBe(`verify-draw: no lottery 9 at ${base} (${base}/api/v1/lotteries/9/draw-proof/ answered 404)\n`);
    expect(runs[1]?.stderr).toBe(`verify-draw: ${base}/api/v1/lotteries/8/draw-proof/ answered HTTP 500\n`);
    expect(runs[2]?.stderr).toBe('verify-draw: not a lottery id: abc (a whole number, e.g. 12)\n');
    expect(runs[3]?.stderr).toBe('verify-draw: not an http(s) address: ftp://example.org\n');
    expect(runs[4]?.stderr).toBe(`verify-draw: cannot reach http://127.0.0.1:${port}/api/v1/lotteries/7/draw-proof/: ECONNREFUSED\n`);
  });

  test("--check-beacon: drand's signed answer confirms a value typed without its signature, or the difference is named", async () => {
    // drand's value of the round, typed into the proof without the signature: unverified alone, confirmed by drand.
    const typed = proofOf(skip);
    delete typed.beacon.signature;
    const file = save(typed);
    expect((await verify('--file', file)).code).toBe(3);
    const ok = await verify('--check-beacon', '--relay', `${base}/drand`, '--file', file);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`beacon value confirmed by drand for round ${REAL.round}, with its signature checked`);
    expect(lastLine(ok)).toBe('verified');
    // Another value typed for that round (the draw done on it): drand's differs.
    const other = proofOf(skip);
    delete other.beacon.signature;
    other.beacon.value = fixture.beacon.value;
    other.winners = selectWinners({ seed: fixture.seed, tickets: skip.sorted, beacon: fixture.beacon.value, winners: 3 }).winners;
    const differs = await verify('--check-beacon', '--relay', `${base}/drand`, '--file', save(other));
    expect(differs.code).toBe(1);
    expect(differs.out).toContain(`differs: beacon.value: the proof says ${fixture.beacon.value}, drand published ${REAL.randomness}`);
    // A relay whose signature does not verify is not drand: nothing to compare with.
    drandAnswer = { ...REAL, signature: tamper(REAL.signature), randomness: sha256(tamper(REAL.signature)) };
    const liar = await verify('--check-beacon', '--relay', `${base}/drand`, '--file', file);
    expect(liar.code).toBe(2);
    expect(liar.stderr).toMatch(/answered a beacon whose signature does not verify\n$/);
    const none = await verify('--check-beacon', '--relay', `${base}/nothing`, '--file', file);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^verify-draw: cannot get quicknet round \d+ from drand: .* answered HTTP 404\n$/);
  });
});
