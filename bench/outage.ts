/**
 * The database goes away under load (docs/rules/operations.md#5-when-the-database-goes-away), at full size: the built
 * app in production mode, two workers, on a throwaway PostgreSQL (run it through scripts/with-postgres.sh, as `npm run proof` does),
 * 20 players buying and opening My Lotteries without a pause; after OUTAGE_BEFORE_S seconds PostgreSQL is stopped for
 * OUTAGE_S seconds (default 20) and started again. It checks, and prints:
 * - while it is gone, every answer is a 503 (`unavailable`, Retry-After, the sentence in the player's language) — no
 *   other 5xx — `/readyz` fails and `/healthz` does not: the process never stops;
 * - it serves again without a restart, and how long after PostgreSQL was back the first purchase succeeded;
 * - every purchase answered 201 is in the database, once.
 * Exit 1 when any of it fails. Needs `npm run build` first.
 */
import { randomInt } from 'node:crypto';
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../server/db/index.ts';
import { PURCHASABLE } from '../server/lotteries/queries.ts';
import { formatTicket, randomTicket } from '../shared/ticket.ts';
import * as bench from './lib.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const stopCmd = process.env.TEST_PG_STOP;
const startCmd = process.env.TEST_PG_START;
if (!databaseUrl || !stopCmd || !startCmd) {
  console.error('outage: run through scripts/with-postgres.sh (TEST_DATABASE_URL, TEST_PG_STOP, TEST_PG_START)');
  process.exit(2);
}
bench.requireBuild();
bench.hardLimit(300_000);

const BEFORE_S = Number(process.env.OUTAGE_BEFORE_S ?? 8);
const OUTAGE_S = Number(process.env.OUTAGE_S ?? 20);
const AFTER_S = Number(process.env.OUTAGE_AFTER_S ?? 8);
const PLAYERS = 20;
const PASSWORD = 'outage-player-password';
const BN_SENTENCE = 'সেবাটি এই মুহূর্তে ব্যস্ত বা আবার চালু হচ্ছে।';
const EN_SENTENCE = 'The service is busy or being restarted.';

const port = await bench.freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = bench.tempDir();
// As the container runs on two cores: two workers (docs/decisions/072-one-worker-per-core.md), whatever this machine has.
const app = await bench.startApp({ port, dataDir, databaseUrl, workers: 2 });

// Players, and the lottery they buy from.
const db = await openDb({ databaseUrl });
const tag = String(randomInt(100, 1000));
const hash = bench.cheapHash(PASSWORD);
const phones = Array.from({ length: PLAYERS }, (_, i) => `015${tag}${String(i).padStart(5, '0')}`);
await db.query(
  `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed)
   SELECT 'Outage ' || p, p, $2, true, true FROM unnest($1::text[]) AS p`,
  [phones, hash],
);
const lottery = await db.one<{ id: number; ticket_price: number }>(
  `SELECT l.id, l.ticket_price FROM lotteries l WHERE ${PURCHASABLE} ORDER BY l.total_tickets DESC, l.id LIMIT 1`,
);
if (!lottery) throw new Error('the demo seed has no lottery on sale');
// Logged in one per core at a time, as bench/traffic.ts does: twenty production-strength hashes at once kept some
// logins past the app's 10 s upstream timeout, and they were answered 400.
const players: { ip: string; cookie: string; token: string; lng: string }[] = [];
await bench.inTurn(
  phones.map((phone, i) => ({ phone, i })),
  availableParallelism(),
  async ({ phone, i }) => {
    const ip = `10.77.0.${i + 1}`;
    const cookie = await bench.formLogin(base, phone, PASSWORD, { 'x-forwarded-for': ip });
    const t = await bench.raw(
      `${base}/api/token/`,
      { 'content-type': 'application/json', 'x-forwarded-for': ip },
      'POST',
      JSON.stringify({ phone, password: PASSWORD }),
    );
    const token = (JSON.parse(t.body.toString('utf8')) as { access: string }).access;
    players[i] = { ip, cookie, token, lng: i % 2 ? 'bn' : 'en' };
  },
);

type Phase = 'before' | 'outage' | 'after';
let phase: Phase = 'before';
const answers: Record<Phase, Map<string, number>> = { before: new Map(), outage: new Map(), after: new Map() };
const wrong: string[] = [];
const answered201: string[] = [];
let firstSaleAfter: number | null = null;
let backAt = 0;
let running = true;
let seq = 0;

const count = (what: string) => answers[phase].set(what, (answers[phase].get(what) ?? 0) + 1);
const ticket = () => formatTicket(randomTicket());

/** One 503 as it must be: Retry-After, and the sentence in the player's language. */
function check503(kind: string, status: number, headers: Record<string, unknown>, body: string, lng: string) {
  if (status !== 503) return;
  if (headers['retry-after'] !== '5') wrong.push(`${kind} 503 without Retry-After: 5`);
  if (!body.includes(lng === 'bn' ? BN_SENTENCE : EN_SENTENCE)) {
    const file = path.join(tmpdir(), `outage-wrong-${wrong.length}.html`);
    writeFileSync(file, body);
    wrong.push(`${kind} 503 without the ${lng} sentence (the whole answer in ${file}): ${body.slice(0, 120)}`);
  }
}

/** A purchase a player may make at most every 6.5 s: the per-player limit is 10 a minute (docs/rules/limits.md). */
const PURCHASE_EVERY_MS = 6500;

async function player(p: (typeof players)[number]) {
  let lastPurchase = 0;
  while (running) {
    const key = `outage-${tag}-${++seq}`;
    const now = phase;
    try {
      if (Date.now() - lastPurchase >= PURCHASE_EVERY_MS) {
        lastPurchase = Date.now();
        await purchase(p, key, now);
      }
      const page = await bench.raw(`${base}/my-lotteries`, {
        cookie: `${p.cookie.replace(/lang=\w+/, `lang=${p.lng}`)}`,
        'x-forwarded-for': p.ip,
      });
      count(`page ${page.status}`);
      if (page.status >= 500 && page.status !== 503) wrong.push(`page ${page.status} (${now})`);
      check503('page', page.status, page.headers, page.body.toString('utf8'), p.lng);
    } catch (err) {
      count('no answer');
      wrong.push(`no answer (${now}): ${(err as Error).message}`);
    }
  }
}

async function purchase(p: (typeof players)[number], key: string, now: Phase) {
  const r = await bench.raw(
    `${base}/api/v1/transactions-create/`,
    {
      'content-type': 'application/json',
      authorization: `Bearer ${p.token}`,
      'accept-language': p.lng,
      'idempotency-key': key,
      'x-forwarded-for': p.ip,
    },
    'POST',
    JSON.stringify({
      lottery_id: lottery?.id,
      ticket: ticket(),
      amount: lottery?.ticket_price,
      transaction_type: 'payment',
      payment_method: 'bkash',
      nid: '',
      payment_number: '01712345678',
    }),
  );
  count(`purchase ${r.status}`);
  if (r.status === 201) {
    answered201.push(key);
    if (now === 'after' && firstSaleAfter === null) firstSaleAfter = Date.now() - backAt;
  }
  if (r.status >= 500 && r.status !== 503) wrong.push(`purchase ${r.status} (${now})`);
  check503('purchase', r.status, r.headers, r.body.toString('utf8'), p.lng);
}

const probes: { at: number; ready: number; alive: number }[] = [];
async function probe() {
  while (running) {
    const [ready, alive] = await Promise.all(
      ['/readyz', '/healthz'].map((p) =>
        bench.raw(`${base}${p}`, {}).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    probes.push({ at: Date.now(), ready: ready as number, alive: alive as number });
    if (phase === 'outage' && alive !== 200) wrong.push(`/healthz ${alive} during the outage`);
    await bench.sleep(500);
  }
}

const load = Promise.all([...players.map(player), probe()]);
await bench.sleep(BEFORE_S * 1000);
const stoppedAt = Date.now();
execSync(stopCmd, { stdio: 'ignore' });
phase = 'outage';
console.log(`outage: PostgreSQL stopped (${Date.now() - stoppedAt} ms); ${OUTAGE_S} s without it`);
await bench.sleep(OUTAGE_S * 1000);
const readyDuring = probes.filter((p) => p.at > stoppedAt + 2000).map((p) => p.ready);
execSync(startCmd, { stdio: 'ignore' });
backAt = Date.now();
phase = 'after';
console.log('outage: PostgreSQL started again');
await bench.sleep(AFTER_S * 1000);
running = false;
await load;
const readyAfter = probes.filter((p) => p.at > Date.now() - 2000).map((p) => p.ready);
const readyAgain = probes.find((p) => p.at >= backAt && p.ready === 200);
if (app.exitCode !== null) wrong.push(`the app exited (${app.exitCode})`);
if (!readyDuring.length || readyDuring.some((s) => s === 200)) wrong.push(`/readyz answered ${readyDuring.join(',')} during the outage`);
if (!readyAfter.length || readyAfter.some((s) => s !== 200)) wrong.push(`/readyz answered ${readyAfter.join(',')} after it`);
if (firstSaleAfter === null) wrong.push('no purchase succeeded after PostgreSQL came back');

// Every purchase answered 201 is there, once.
const kept = await db.query<{ idempotency_key: string; n: number }>(
  `SELECT idempotency_key, count(*)::int AS n FROM transactions WHERE idempotency_key LIKE $1 GROUP BY idempotency_key`,
  [`outage-${tag}-%`],
);
const keptKeys = new Map(kept.map((r) => [r.idempotency_key, r.n]));
const missing = answered201.filter((k) => !keptKeys.has(k));
const twice = kept.filter((r) => r.n > 1);
if (missing.length) wrong.push(`${missing.length} purchases answered 201 are not in the database`);
if (twice.length) wrong.push(`${twice.length} purchases are in the database twice`);
await db.close();
await bench.stop(app);
bench.cleanup();

const line = (p: Phase) =>
  [...answers[p]]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
console.log(`\noutage proof: ${bench.machine()}`);
console.log(`  before (${BEFORE_S} s): ${line('before')}`);
console.log(`  outage (${OUTAGE_S} s): ${line('outage')}; /readyz ${[...new Set(readyDuring)].join(',')}, /healthz 200 throughout`);
console.log(
  `  after (${AFTER_S} s): ${line('after')}; /readyz 200 again ${readyAgain ? readyAgain.at - backAt : '–'} ms after PostgreSQL was back (probed every 0.5 s), the first purchase after ${firstSaleAfter} ms (each player buys every 6.5 s)`,
);
console.log(
  `  purchases answered 201: ${answered201.length}, in the database: ${kept.length}, missing: ${missing.length}, twice: ${twice.length}`,
);
if (wrong.length) {
  console.log(`\nFAILED:\n  ${[...new Set(wrong)].slice(0, 20).join('\n  ')}`);
  process.exit(1);
}
console.log('  verdict: ok');
process.exit(0);
