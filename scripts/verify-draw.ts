/**
 * Checks a Bhagya draw for yourself (docs/rules/draws.md#10-checking-a-draw):
 *
 *   npx tsx scripts/verify-draw.ts <base-url> <lottery-id>     e.g. https://bhagya.example 12
 *   npx tsx scripts/verify-draw.ts --file proof.json           a proof saved from /api/v1/lotteries/<id>/draw-proof/
 *   add --check-beacon to fetch the beacon value from drand too (--relay <url> for another drand relay)
 *
 * It re-checks everything with its own code: SHA-256(seed) = commitment, the tickets canonical, sorted and distinct,
 * the tickets digest recomputed from them, the winners (or numbers, and a game's Lucky Chance) drawn again by
 * bhagya-draw-v1, and the beacon:
 * drand's signature of the round, checked offline against quicknet's public key, with the value its SHA-256. It prints
 * "verified" and exits 0, or lists what differs and exits 1; a lottery not drawn yet, bad arguments or a server that
 * cannot be reached exit 2. A proof whose draw is right but whose beacon carries no signature (typed by hand, or a
 * sample) is flagged "unverified beacon" and exits 3; one whose signature does not verify is a difference (exit 1).
 *
 * On purpose the draw itself is checked by this file's own code, with Node's standard library: it is a second
 * implementation of the rule, written from docs/rules/draws.md, so that it and server/draws/verifiable.ts check each
 * other (the vectors in tests/fixtures/draw-vectors.json). The one thing it shares is the signature check
 * (server/draws/quicknet-signature.ts): a single call of @noble/curves' BLS verification with drand's published
 * constants, which has no second implementation worth writing. It runs with plain Node ≥ 22.18 too
 * (`node scripts/verify-draw.ts`), from the repository (for @noble/curves).
 */
import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { beaconFromSignature } from '../server/draws/quicknet-signature.ts';

const ALGORITHM = 'bhagya-draw-v1';
const SOURCE = 'drand-quicknet';
const QUICKNET_CHAIN = '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971';
const QUICKNET_GENESIS = 1692803367;
const QUICKNET_PERIOD = 3;
const DRAND_RELAYS = ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh', 'https://drand.cloudflare.com'];
const TIMEOUT_MS = 20_000;

const USAGE = 'usage: verify-draw <base-url> <lottery-id> | verify-draw --file <proof.json>  [--check-beacon [--relay <drand-url>]]';

/** A reason to stop with exit code 2: bad arguments, nothing to read, a lottery not drawn yet. */
class Stop extends Error {}

type Obj = Record<string, unknown>;

const HEX = /^[0-9a-f]{64}$/;
const TICKET = /^(\d\d)-(\d\d)-(\d\d)-(\d\d)-(\d\d)-(\d\d)$/;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isHex = (v: unknown): v is string => typeof v === 'string' && HEX.test(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (keyHex: string, message: string): string =>
  createHmac('sha256', Buffer.from(keyHex, 'hex')).update(Buffer.from(message, 'utf8')).digest('hex');

/** Why a ticket is not in canonical form, or null when it is (five ascending main numbers 01–55, last 01–15). */
function ticketFault(t: unknown): string | null {
  if (typeof t !== 'string') return 'is not a text';
  const m = TICKET.exec(t);
  if (!m) return 'is not written NN-NN-NN-NN-NN-NN';
  const n = m.slice(1).map(Number);
  const main = n.slice(0, 5);
  const last = n[5] as number;
  if (main.some((x) => x < 1 || x > 55)) return 'has a main number outside 01–55';
  if (last < 1 || last > 15) return 'has a last number outside 01–15';
  for (let i = 1; i < 5; i++) if ((main[i] as number) <= (main[i - 1] as number)) return 'has main numbers not ascending or repeated';
  return null;
}

/** The draw loop of one label: accepted indexes `h mod n`, h read big-endian, rejected when h ≥ 2^256 − (2^256 mod n). */
function* accepted(key: string, label: string, n: number): Generator<number> {
  const size = BigInt(n);
  const space = 2n ** 256n;
  const limit = space - (space % size);
  for (let i = 0; ; i++) {
    const h = BigInt('0x' + hmac(key, label + ':' + String(i)));
    if (h < limit) yield Number(h % size);
  }
}

/** The tickets a label's loop chooses (`winner`, or a game's `lucky`): distinct, in the order drawn, at most `count`. */
function drawTickets(key: string, label: string, tickets: string[], count: number): string[] {
  const taken = new Set<number>();
  const out: string[] = [];
  const want = Math.min(count, tickets.length);
  if (want === 0) return out;
  for (const index of accepted(key, label, tickets.length)) {
    if (taken.has(index)) continue;
    taken.add(index);
    out.push(tickets[index] as string);
    if (out.length === want) break;
  }
  return out;
}

function drawNumbersAgain(key: string): number[] {
  const main: number[] = [];
  for (const index of accepted(key, 'main', 55)) {
    if (!main.includes(index + 1)) main.push(index + 1);
    if (main.length === 5) break;
  }
  const last = (accepted(key, 'last', 15).next().value as number) + 1;
  return [...main.sort((a, b) => a - b), last];
}

/** `n choose k`, by Pascal's rule (small numbers only). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let row = [1];
  for (let i = 1; i <= n; i++) row = [1, ...row.slice(1).map((x, j) => x + (row[j] as number)), 1];
  return row[k] as number;
}

/**
 * A ticket's Lucky Chance code (docs/rules/draws.md#7a-lucky-chance): its rank Σ C(m_k − 1, k) × 15 + last − 1, then
 * four Feistel rounds over two halves of four digits with HMAC-SHA256(C, "lucky-code:" + round + ":" + right) mod 10000.
 */
function codeOf(commitmentHex: string, ticket: string): string {
  const n = ticket.split('-').map(Number);
  let rank = 0;
  for (let k = 1; k <= 5; k++) rank += choose((n[k - 1] as number) - 1, k);
  rank = rank * 15 + ((n[5] as number) - 1);
  let l = Math.floor(rank / 10000);
  let r = rank % 10000;
  for (let round = 0; round < 4; round++) {
    const f = Number(BigInt('0x' + hmac(commitmentHex, 'lucky-code:' + String(round) + ':' + String(r))) % 10000n);
    const next = (l + f) % 10000;
    l = r;
    r = next;
  }
  return 'BHG ' + String(l).padStart(4, '0') + ' ' + String(r).padStart(4, '0');
}

/** The Lucky Chance winners: the loop of label `lucky` over the tickets, as the winners' loop, each with its code. */
function drawLucky(key: string, commitmentHex: string, tickets: string[], count: number): { ticket: string; code: string }[] {
  return drawTickets(key, 'lucky', tickets, count).map((ticket) => ({ ticket, code: codeOf(commitmentHex, ticket) }));
}

const roundTimeText = (round: number): string =>
  new Date((QUICKNET_GENESIS + (round - 1) * QUICKNET_PERIOD) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * What differs between the proof and the draw done again; empty when it verifies. Why the beacon is unverified (no
 * signature, or a sample) goes to `unverified`: the arithmetic is still checked, and the proof flagged.
 */
function differences(p: Obj, unverified: string[]): string[] {
  const out: string[] = [];
  if (p.algorithm !== ALGORITHM) {
    return [`algorithm is ${JSON.stringify(p.algorithm)}: only ${ALGORITHM} draws can be checked; this one cannot be verified`];
  }
  for (const field of ['commitment', 'seed', 'tickets_digest']) {
    if (!isHex(p[field])) out.push(`${field} is not 64 lower-case hex characters`);
  }
  const beacon = isObj(p.beacon) ? p.beacon : {};
  if (beacon.source !== SOURCE) out.push(`beacon.source is ${JSON.stringify(beacon.source)}, not ${SOURCE}`);
  if (!isCount(beacon.round)) out.push('beacon.round is not a round number');
  if (!isHex(beacon.value)) out.push('beacon.value is not 64 lower-case hex characters (a quicknet randomness)');
  if (beacon.sample === true) unverified.push('the beacon value is marked as a sample, not a value drand published');
  // drand's signature of the round: it must verify against quicknet's public key for this round (offline, the key is
  // public), and the value must be its SHA-256. Without one, nothing shows the value is drand's.
  if (beacon.signature === undefined || beacon.signature === null) {
    unverified.push("the proof carries no drand signature of the round: nothing shows the value is drand's");
  } else if (typeof beacon.signature !== 'string' || !/^[0-9a-f]{96}$/.test(beacon.signature)) {
    out.push('beacon.signature is not 96 lower-case hex characters (a quicknet signature)');
  } else {
    if (isHex(beacon.value) && sha256(Buffer.from(beacon.signature, 'hex')) !== beacon.value)
      out.push('beacon.value is not SHA-256 of beacon.signature');
    if (isCount(beacon.round) && !beaconFromSignature(beacon.round, beacon.signature))
      out.push(
        `unverified beacon: beacon.signature is not drand quicknet's signature of round ${beacon.round} (checked against its public key)`,
      );
  }
  if (!Array.isArray(p.tickets)) out.push('tickets is not a list');
  const hasWinners = 'winners' in p;
  const hasNumbers = 'numbers' in p;
  if (hasWinners === hasNumbers) out.push('the proof must carry either winners or numbers');
  if (hasWinners && (!Array.isArray(p.winners) || !p.winners.every((w) => typeof w === 'string')))
    out.push('winners is not a list of tickets');
  if (hasWinners && !isCount(p.max_winners)) out.push("max_winners (the lottery's number of winners) is missing or not a whole number ≥ 1");
  if (hasNumbers && (!Array.isArray(p.numbers) || !p.numbers.every((x) => Number.isInteger(x))))
    out.push('numbers is not a list of numbers');
  const lucky = p.lucky_chance;
  if (lucky !== undefined && lucky !== null) {
    if (!hasNumbers) out.push("lucky_chance: only a numbers draw (a game's draw) has a Lucky Chance");
    if (!isObj(lucky) || !isCount(lucky.count)) out.push('lucky_chance.count is missing or not a whole number ≥ 1');
    else if (
      !Array.isArray(lucky.winners) ||
      !lucky.winners.every((w) => isObj(w) && typeof w.ticket === 'string' && typeof w.code === 'string')
    )
      out.push('lucky_chance.winners is not a list of tickets with their codes');
  }
  if (out.length > 0) return out;

  const seed = p.seed as string;
  const tickets = p.tickets as unknown[];
  const value = beacon.value as string;

  if (sha256(Buffer.from(seed, 'hex')) !== p.commitment) out.push('seed: SHA-256(seed) is not the commitment');

  let listOk = true;
  tickets.forEach((t, i) => {
    const fault = ticketFault(t);
    if (fault) {
      out.push(`tickets[${i}] ${JSON.stringify(t)} ${fault}`);
      listOk = false;
    } else if (i > 0 && typeof tickets[i - 1] === 'string' && !((tickets[i - 1] as string) < (t as string))) {
      out.push(
        tickets[i - 1] === t
          ? `tickets: ${t as string} is listed twice`
          : `tickets: not in ascending order (${tickets[i - 1] as string} before ${t as string})`,
      );
      listOk = false;
    }
  });
  if (!listOk) return out;
  const list = tickets as string[];

  const digest = sha256(Buffer.from(list.join('\n'), 'utf8'));
  if (digest !== p.tickets_digest)
    out.push(`tickets_digest: the proof says ${p.tickets_digest as string}, the tickets listed give ${digest}`);

  // The key from the digest of the tickets as listed: a list that does not match its digest is already reported.
  const key = hmac(seed, digest + ':' + value);
  if (hasWinners) {
    const claimed = p.winners as string[];
    if (list.length === 0) {
      out.push('winners: a winning-tickets draw needs tickets, and none are listed');
      return out;
    }
    const again = drawTickets(key, 'winner', list, p.max_winners as number);
    if (claimed.length !== again.length) out.push(`winners: ${claimed.length} listed, the draw gives ${again.length}`);
    again.forEach((t, i) => {
      if (claimed[i] !== undefined && claimed[i] !== t) out.push(`winners[${i}]: the proof says ${claimed[i]}, the draw gives ${t}`);
    });
  } else {
    const again = drawNumbersAgain(key);
    const claimed = p.numbers as number[];
    if (claimed.join(',') !== again.join(','))
      out.push(`numbers: the proof says ${claimed.join(', ')}, the draw gives ${again.join(', ')}`);
    if (isObj(lucky)) {
      const listed = lucky.winners as { ticket: string; code: string }[];
      const drawn = drawLucky(key, p.commitment as string, list, lucky.count as number);
      if (listed.length !== drawn.length) out.push(`lucky_chance: ${listed.length} winners listed, the draw gives ${drawn.length}`);
      drawn.forEach((w, i) => {
        const c = listed[i];
        if (c !== undefined && (c.ticket !== w.ticket || c.code !== w.code))
          out.push(`lucky_chance.winners[${i}]: the proof says ${c.ticket} (${c.code}), the draw gives ${w.ticket} (${w.code})`);
      });
    }
  }
  return out;
}

async function fetchJson(url: string): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new Stop(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    if (!res.ok) return { status: res.status, body: null };
    throw new Stop(`${url} did not answer JSON (HTTP ${res.status})`);
  }
}

async function proofFromServer(base: string, id: string): Promise<{ proof: unknown; from: string }> {
  let root: URL;
  try {
    root = new URL(base.endsWith('/') ? base : base + '/');
  } catch {
    throw new Stop(`not a web address: ${base}`);
  }
  if (root.protocol !== 'http:' && root.protocol !== 'https:') throw new Stop(`not an http(s) address: ${base}`);
  if (!/^[1-9]\d{0,15}$/.test(id)) throw new Stop(`not a lottery id: ${id} (a whole number, e.g. 12)`);
  const url = new URL(`api/v1/lotteries/${id}/draw-proof/`, root).href;
  const { status, body } = await fetchJson(url);
  if (status === 404) throw new Stop(`no lottery ${id} at ${root.origin} (${url} answered 404)`);
  if (status < 200 || status > 299) throw new Stop(`${url} answered HTTP ${status}`);
  return { proof: body, from: url };
}

async function proofFromFile(file: string): Promise<{ proof: unknown; from: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new Stop(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return { proof: JSON.parse(text) as unknown, from: file };
  } catch {
    throw new Stop(`${file} is not JSON`);
  }
}

/**
 * The round's randomness as drand publishes it, from the first relay that answers with the round's signature, checked
 * against quicknet's public key (a relay's word alone is not drand's).
 */
async function drandValue(round: number, relays: string[]): Promise<string> {
  const failures: string[] = [];
  for (const relay of relays) {
    const url = `${relay.replace(/\/+$/, '')}/${QUICKNET_CHAIN}/public/${round}`;
    try {
      const { status, body } = await fetchJson(url);
      if (status === 200 && isObj(body) && body.round === round && typeof body.randomness === 'string') {
        const signed = beaconFromSignature(round, body.signature);
        if (signed && signed.randomness === body.randomness.toLowerCase()) return signed.randomness;
        failures.push(`${url} answered a beacon whose signature does not verify`);
        continue;
      }
      failures.push(`${url} answered HTTP ${status}`);
    } catch (e) {
      failures.push((e as Error).message);
    }
  }
  throw new Stop(`cannot get quicknet round ${round} from drand: ${failures.join('; ')}`);
}

const OPTIONS = {
  file: { type: 'string' },
  'check-beacon': { type: 'boolean' },
  relay: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (e) {
    throw new Stop(`${(e as Error).message}\n${USAGE}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const args = readArgs(argv);
  if (args.values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const { file } = args.values;
  const positionals = args.positionals;
  if (file !== undefined ? positionals.length !== 0 : positionals.length !== 2) throw new Stop(USAGE);
  const { proof, from } =
    file !== undefined ? await proofFromFile(file) : await proofFromServer(positionals[0] as string, positionals[1] as string);
  process.stdout.write(`proof: ${from}\n`);

  if (!isObj(proof)) {
    process.stdout.write('differs: the proof is not a JSON object\n');
    return 1;
  }
  if (proof.seed === undefined || proof.seed === null) {
    const beacon = isObj(proof.beacon) ? proof.beacon : {};
    const round = isCount(beacon.round) ? ` at ${roundTimeText(beacon.round)}` : '';
    throw new Stop(
      `not drawn yet: the seed is revealed after the draw (commitment ${String(proof.commitment)}, beacon ${String(beacon.source)} round ${String(beacon.round)}${round})`,
    );
  }

  const notes: string[] = [];
  const unverified: string[] = [];
  const problems = differences(proof, unverified);
  if (problems.length === 0 && args.values['check-beacon']) {
    const beacon = proof.beacon as Obj;
    const published = await drandValue(beacon.round as number, args.values.relay ? [args.values.relay] : DRAND_RELAYS);
    if (published !== beacon.value) problems.push(`beacon.value: the proof says ${beacon.value as string}, drand published ${published}`);
    else {
      notes.push(`beacon value confirmed by drand for round ${beacon.round as number}, with its signature checked`);
      unverified.length = 0; // drand's own signed answer vouches for the value the proof lacked a signature for
    }
  }
  for (const note of notes) process.stdout.write(note + '\n');
  if (problems.length > 0) {
    for (const problem of problems) process.stdout.write(`differs: ${problem}\n`);
    process.stdout.write(`FAILED: ${problems.length} ${problems.length === 1 ? 'difference' : 'differences'}\n`);
    return 1;
  }
  const beacon = proof.beacon as Obj;
  const tickets = proof.tickets as string[];
  process.stdout.write(`commitment ${proof.commitment as string} = SHA-256(seed)\n`);
  process.stdout.write(
    `beacon ${SOURCE} round ${beacon.round as number} (${roundTimeText(beacon.round as number)}): ${beacon.value as string}\n`,
  );
  if (typeof beacon.signature === 'string')
    process.stdout.write(`beacon signature ${beacon.signature}: drand quicknet's signature of the round (the value is its SHA-256)\n`);
  process.stdout.write(`tickets ${tickets.length}, digest ${proof.tickets_digest as string}\n`);
  if ('winners' in proof) process.stdout.write(`winners ${(proof.winners as string[]).join(' ') || '(none)'}\n`);
  else process.stdout.write(`numbers ${(proof.numbers as number[]).join(' ')}\n`);
  if (isObj(proof.lucky_chance)) {
    const lucky = proof.lucky_chance.winners as { ticket: string; code: string }[];
    process.stdout.write(`lucky chance ${lucky.map((w) => `${w.code} (${w.ticket})`).join(', ') || '(none)'}\n`);
  }
  if (unverified.length > 0) {
    for (const why of unverified) process.stdout.write(`unverified beacon: ${why}\n`);
    process.stdout.write("UNVERIFIED BEACON: the draw follows from this beacon value, but the value is not shown to be drand's\n");
    return 3;
  }
  process.stdout.write('verified\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`verify-draw: ${e instanceof Stop ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
