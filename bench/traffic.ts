/**
 * `npm run bench:traffic` (after `npm run build`): logged-in pages as real traffic asks for them, against the physical
 * limit, side by side in one run on this machine (docs/rules/limits.md#6-page-budgets, issues 14 and 32).
 *
 * bench/throughput.ts has one session ask for one URL again and again while nothing is written. Here, as on a
 * Saturday evening:
 *
 * - The app is the built server (dist/server/index.js) in production mode, in a process of its own, on the embedded
 *   database in a temporary DATA_DIR with the demo data, or on PostgreSQL (BENCH_DATABASE_URL), there optionally as
 *   two instances on the one database; the load generator then alternates its connections between their ports (no
 *   proxy process).
 * - The Saturday draw among the open lotteries: a numbers lottery BENCH_BIG_SALES tickets into its sales (stored
 *   while the app is stopped, by an account of its own), whose sold count and jackpot every purchase of it and every
 *   card of it reads. The purchases below go to it.
 * - BENCH_PLAYERS players (accounts stored while the app is stopped, with 5 to 50 transactions each over the open
 *   lotteries), each logged in through the no-JavaScript login form and, for his purchases, through `/api/token/`,
 *   each from an address of his own (X-Forwarded-For from loopback, which the app trusts).
 * - Each page view is another player (autocannon rotates the session cookie and the address on every request), for
 *   `/my-lotteries` and `/profile`, with a browser's headers (`Accept-Encoding: gzip, deflate, br`).
 * - While the app is measured, a steady stream of writes runs beside it (BENCH_WRITES_PER_SEC in all, open loop):
 *   purchases by the players (POST /api/v1/transactions-create/), the TrxID each then gives
 *   (PATCH /api/v1/transactions/:id/trx-id/) and the staff's approvals by hand, two people's act (one proposes, another approves), in turn.
 *   A player buys or gives a TrxID at most 9 times in 62 s (the app allows 10 a minute, docs/rules/limits.md#1).
 * - bKash and the SMS gateway answer as on a Saturday: bKash's simulator (scripts/bkash-simulator) searches each TrxID
 *   given, and a stand-in of the generic SMS gateway accepts every SMS, both in this process.
 * - The reference: a bare `node:http` server in another process answering every request with the exact bytes and
 *   headers of one captured response of the same page (the player with the median number of transactions), run
 *   with the same connections, the same rotating requests and the same duration, alternating with the app; no
 *   writes run while the reference is measured. One reference process, also against two app instances.
 * - Purchases: BENCH_PLAYERS buyers of their own, 20 connections, each buyer 9 purchases (the per-player limit),
 *   each request another buyer and another ticket, on one instance: purchases per second and p99. Before them, as
 *   every page case has, a warm-up that is not measured: 20 other accounts buy 5 tickets each.
 * - Beside them, not judged: `/my-lotteries` as bench/throughput.ts asks for it (one session, one URL, no writes), and
 *   the floor under every logged-in page: `/bff/api/v1/me/`, the player's session checked and 78 bytes of JSON sent,
 *   nothing rendered, with the same rotation and writes (what a page costs at the least, docs/decisions/044); each
 *   page's own reads as its loaders make them, answered as JSON without compression, with the same rotation and
 *   writes (`/bff/api/v1/my-lotteries/?limit=10`; `/bff/api/v1/my-profile/` for the profile); and the render floor
 *   under each page (bench/render-floor.ts): the same page rendered by React from its data in hand, for every
 *   request, by a bare node:http server per serving app process with no session, database, middleware or writes,
 *   against that page's reference (what any implementation on this stack reaches at most when it renders every view);
 *   and beside it, not the floor the budget is judged by, the same render floor rendering each player's own page in
 *   turn.
 *
 * - Before the cases: the app's CPU at rest (no request, no write), then every judged page in turn with the writes on,
 *   BENCH_WARM_ROUNDS times (3), not measured: the code compiled as in an app that has served for a while. With one
 *   such turn, the first case measured cost 15–25 % more than the same page measured again at the end of the run
 *   (bench/RESULTS.md, issue 32). The render floors' processes are warmed the same way, each of their pages
 *   BENCH_WARM_ROUNDS times.
 * - The judged pages, the session floor, the pages' reads and their render floors take turns, round after round: each
 *   round measures each of them once (a second's unmeasured warm-up of both sides, then the app and the reference),
 *   so that a page and the floors it is judged by are measured within the same minute (docs/decisions/086). The cases
 *   not judged follow, their rounds one after another.
 *   Each case's line shows the app's CPU per request of each round.
 *
 * Budgets (issue 32, docs/rules/limits.md#6-page-budgets): each rendered logged-in page (`/my-lotteries`, `/profile`,
 * and `/my-lotteries/activate`, the cheapest: no read of its own, its floors put together by the app)
 * reaches at least 0.8 of what its two floors allow together, 1 ÷ (1 ÷ session floor + 1 ÷ render floor), both against
 * the page's reference; its app CPU per request is at most 1.3 × (session floor's + render floor's); its p99 at most
 * 150 ms. Purchases at least 300 a second on the embedded database, 500 on PostgreSQL, p99 ≤ 100 ms on both. Ratio =
 * the median over the rounds of app req/s ÷ reference req/s. Beside it, the app's CPU time per request during its runs
 * (Linux /proc; all instances together, the writes that run meanwhile included), and on PostgreSQL the CPU time of
 * its server processes per request beside it (the database shares this machine's cores; not judged: the floors are
 * the app's, as the issue set them). Each case's line also splits the app's CPU per request by thread (its processes'
 * main threads, the embedded database's thread, the others: V8's collectors, libuv's pool) and shows how busy the
 * whole machine was during each run: a page whose main thread is far from busy while the machine has time to spare
 * waits on something other than the CPU. Beside the pages' verdicts, not
 * judged: each page against its own reads and its render floor, and the share of its CPU that the writes cost
 * (measured alone after the page cases, no page asked for); and how long the writes' answers took while the pages were
 * served beside them (median and p99 of each kind). Loopback only, bounded in time, stops by itself,
 * removes its temporary directory and ends its processes; exits 1 when a budget is missed, 2 without a build.
 *
 *   BENCH_SECONDS (5)  length of one measured run   BENCH_ROUNDS (3)  app/reference pairs per case
 *   BENCH_CONNECTIONS (20)   BENCH_PLAYERS (100)     BENCH_WRITES_PER_SEC (20)   BENCH_BIG_SALES (100000; 0: none)
 *   BENCH_ONLY         run only the cases whose name contains this, or one of its parts separated by `|` (a page and its
 *                      floors: '/my-lotteries, each view another player|floor: /bff/api/v1/me/|render floor: /my-lotteries from')
 *   BENCH_WARM_ROUNDS (3)  unmeasured turns of the judged pages and floors
 *   BENCH_SERVICES     `closed`: bKash and the SMS gateway on closed ports instead of the stand-ins that answer
 *   BENCH_NODE_ARGS    extra node options for the app and the render floor, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (see bench/RESULTS.md)
 *   BENCH_DATABASE_URL run the app on this PostgreSQL instead of the embedded database, one worker per core
 *                      (BENCH_WORKERS to choose, the app's WEB_CONCURRENCY); BENCH_INSTANCES=2 starts two app
 *                      instances on it, e.g.
 *     `bash scripts/with-postgres.sh sh -c 'BENCH_DATABASE_URL=$TEST_DATABASE_URL npm run bench:traffic'`
 */
import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import http from 'node:http';
import type autocannon from 'autocannon';
import { openDb, type Db } from '../server/db/index.ts';
import { DEMO_STAFF } from '../server/db/seed.ts';
import { PURCHASABLE } from '../server/lotteries/queries.ts';
import { formatTicket, randomTicket } from '../shared/ticket.ts';
import { startSimulator } from '../scripts/bkash-simulator/simulator.ts';
import * as bench from './lib.ts';

const { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, chosen } = bench.settings({ seconds: 5, rounds: 3 });
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 3);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100);
const WRITES_PER_SEC = Number(process.env.BENCH_WRITES_PER_SEC ?? 20);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
/** Worker processes per instance (the app's WEB_CONCURRENCY): one per core on PostgreSQL, as the app itself starts. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? (process.env.BENCH_DATABASE_URL ? availableParallelism() : 1));
const BIG_SALES = Number(process.env.BENCH_BIG_SALES ?? 100_000);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const onPostgres = databaseUrl !== undefined;
/**
 * The budgets (docs/rules/limits.md#6-page-budgets, issue 32). A rendered logged-in page against its floor measured in
 * the same run: at least PAGE_OF_FLOOR of what the session check and the render together allow, at most CPU_OF_FLOOR
 * times their CPU per request, p99 at most PAGE_P99_MS. Purchases: per second, and p99.
 */
const BUDGET = {
  pageOfFloor: 0.8,
  cpuOfFloor: 1.3,
  pageP99Ms: 150,
  purchasesPerSec: onPostgres ? 500 : 300,
  purchaseP99Ms: 100,
} as const;
/** Purchases and TrxID entries a player sends in PURCHASE_WINDOW_MS: under the app's 10 a minute (PURCHASE_LIMIT). */
const PURCHASES_PER_WINDOW = 9;
/** The purchases' warm-up: accounts of its own, each buying this many (below the per-player limit). */
const WARMERS = 20;
const WARM_EACH = 5;
/** The second staff member, who approves what the demo staff proposes. */
const SECOND_STAFF = { phone: '01900000001', password: 'bench-second-staff' } as const;
const PURCHASE_WINDOW_MS = 62_000;

// The set-up alone took up to 180 s on this machine in its slow phases, and the three warming turns take 45 s (15 before).
bench.hardLimit(900_000);
bench.requireBuild();
if (![1, 2].includes(INSTANCES) || ((INSTANCES > 1 || WORKERS > 1) && !onPostgres) || !(WORKERS >= 1)) {
  console.error(
    'BENCH_INSTANCES is 1, or 2 with BENCH_DATABASE_URL (instances share a PostgreSQL database); BENCH_WORKERS above 1 needs it too.',
  );
  process.exit(2);
}
if (!(PLAYERS >= 2 && WRITES_PER_SEC >= 0 && SECONDS > 0 && ROUNDS >= 1 && CONNECTIONS >= 1 && BIG_SALES >= 0 && BIG_SALES < 1e12)) {
  console.error(
    'BENCH_PLAYERS ≥ 2, BENCH_WRITES_PER_SEC ≥ 0, BENCH_SECONDS > 0, BENCH_ROUNDS ≥ 1, BENCH_CONNECTIONS ≥ 1, BENCH_BIG_SALES ≥ 0.',
  );
  process.exit(2);
}
const started = Date.now();
const dataDir = bench.tempDir();

// ---------------------------------------------------------------------------------------------------------------
// The data: demo seed (first start of the app), then the bench's accounts and their transactions, written while
// the app is stopped (the embedded database belongs to one process)

type Account = { id: number; phone: string; ip: string; transactions: number; cookie: string; token: string };

const PASSWORD = 'bench-player-password';

/** Tickets no one holds yet, per lottery: every purchase of the bench asks for another. */
const taken = new Map<number, Set<string>>();
function heldIn(lotteryId: number): Set<string> {
  const held = taken.get(lotteryId) ?? new Set<string>();
  taken.set(lotteryId, held);
  return held;
}
function freshTicket(lotteryId: number): string {
  const held = heldIn(lotteryId);
  for (;;) {
    const ticket = formatTicket(randomTicket());
    if (!held.has(ticket)) {
      held.add(ticket);
      return ticket;
    }
  }
}

/**
 * A run tag in the phones and TrxIDs, so that a second run on the same database is unlikely to meet the rows of the
 * first (scripts/with-postgres.sh makes a fresh database each time anyway).
 */
const tag = String(randomInt(100, 1000));
let trxCount = 0;
const freshTrxId = () => `BX${tag}${String(++trxCount).padStart(7, '0')}`;

const ports = await Promise.all(Array.from({ length: INSTANCES }, () => bench.freePort()));
const bases = ports.map((p) => `http://127.0.0.1:${p}`);
console.log(`bench: starting the built app once to migrate and seed the demo data (${onPostgres ? 'PostgreSQL' : 'embedded database'}) …`);
await bench.stop(await bench.startApp({ port: ports[0] as number, dataDir, databaseUrl }));

type Lottery = { id: number; ticket_price: number };
async function storeAccounts(db: Db, prefix: string, count: number, withTransactions: Lottery[]): Promise<Account[]> {
  const hash = bench.cheapHash(PASSWORD);
  const accounts: Account[] = Array.from({ length: count }, (_, i) => ({
    id: 0,
    phone: `${prefix}${tag}${String(i).padStart(5, '0')}`,
    ip: `10.${Number(prefix)}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    // 5 to 50 transactions, spread evenly over the players.
    transactions: withTransactions.length ? 5 + Math.round((45 * i) / Math.max(1, count - 1)) : 0,
    cookie: '',
    token: '',
  }));
  const params = accounts.flatMap((a, i) => [`Bench ${prefix} ${i}`, a.phone, hash]);
  const values = accounts.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3}, true, true)`).join(', ');
  const ids = await db.query<{ id: number; phone: string }>(
    `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed) VALUES ${values} RETURNING id, phone`,
    params,
  );
  const idOf = new Map(ids.map((r) => [r.phone, r.id]));
  for (const a of accounts) a.id = idOf.get(a.phone) as number;
  const now = Date.now();
  for (const a of accounts) {
    if (!a.transactions) continue;
    const rows = Array.from({ length: a.transactions }, (_, j) => {
      const l = withTransactions[j % withTransactions.length] as Lottery;
      // Mostly approved, some still waiting for their TrxID, some rejected; the newest last.
      const status = j % 7 === 3 ? 'pending' : j % 11 === 5 ? 'failed' : 'success';
      const at = new Date(now - (a.transactions - j) * 3_600_000).toISOString();
      return [idOf.get(a.phone), l.id, freshTicket(l.id), l.ticket_price, status === 'pending' ? null : freshTrxId(), status, at];
    });
    const w = 7;
    await db.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, payment_number, trx_id, status, created_at, updated_at)
       VALUES ${rows.map((_, r) => `($${w * r + 1}, $${w * r + 2}, $${w * r + 3}, $${w * r + 4}, 'bkash', '01700000000', $${w * r + 5}, $${w * r + 6}, $${w * r + 7}, $${w * r + 7})`).join(', ')}`,
      rows.flat(),
    );
  }
  return accounts;
}

/**
 * The Saturday draw: a numbers lottery already BIG_SALES tickets into its sales (a tenth of them still pending),
 * bought five each by a crowd of accounts of their own, so that its sold count and its jackpot are what a rush reads
 * and the database's statistics see many players with a few tickets each, as on a Saturday (bench/lib.ts
 * storeNumbersLottery).
 */
async function storeBigLottery(db: Db): Promise<void> {
  const crowd = await db.query<{ id: number }>(
    `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed)
     SELECT 'Bench crowd ' || n, '0169' || lpad(n::text, 7, '0'), 'x', true, true FROM generate_series(0, $1::int - 1) AS n
     RETURNING id`,
    [Math.ceil(BIG_SALES / 5)],
  );
  await bench.storeNumbersLottery(db, {
    name: 'Saturday Numbers',
    name_bn: 'শনিবারের সংখ্যা',
    sales: BIG_SALES,
    buyers: crowd.map((c) => c.id),
    perBuyer: 5,
  });
}

let players: Account[];
let buyers: Account[];
let warmers: Account[];
let lottery: Lottery;
{
  const db = await openDb({ dataDir, databaseUrl });
  if (BIG_SALES > 0) await storeBigLottery(db);
  const open = await db.query<Lottery>(
    `SELECT l.id, l.ticket_price FROM lotteries l WHERE ${PURCHASABLE} ORDER BY l.total_tickets DESC, l.id`,
  );
  if (!open.length) throw new Error('the demo seed has no lottery on sale');
  for (const r of await db.query<{ lottery_id: number; ticket: string }>('SELECT lottery_id, ticket FROM transactions'))
    heldIn(r.lottery_id).add(r.ticket);
  lottery = open[0] as Lottery; // the purchases go to the lottery with the most tickets
  players = await storeAccounts(db, '013', PLAYERS, open);
  // The second staff member: approving a payment by hand is two people's act (docs/rules/payments.md#1-who-may-do-what).
  await db.query(
    `INSERT INTO users (name, phone, password_hash, is_active, is_staff, is_superuser, phone_confirmed)
     VALUES ('Bench second staff', $1, $2, true, true, true, true)`,
    [SECOND_STAFF.phone, bench.cheapHash(SECOND_STAFF.password)],
  );
  buyers = await storeAccounts(db, '014', PLAYERS, []);
  warmers = await storeAccounts(db, '015', WARMERS, []);
  await db.close();
}
/**
 * bKash and the SMS gateway answer, as on a Saturday: each TrxID given is searched at bKash's simulator (the bench's
 * TrxIDs are nobody's, so bKash answers that it knows none of them and the check ends, the payment left to the staff,
 * as for a player who typed a wrong one), and each SMS is accepted by a stand-in of the generic gateway. With
 * BENCH_SERVICES=closed both are closed ports instead, as before 2026-11-30: every check then failed and was asked
 * again by the reconciliation job, every SMS failed, work a Saturday does not do (bench/RESULTS.md, issue 32).
 */
let services: { bkash: string; sms: string } | undefined;
if (process.env.BENCH_SERVICES !== 'closed') {
  const bkash = await startSimulator(bench.BKASH_MERCHANT);
  const sms = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
  sms.unref();
  services = { bkash: bkash.baseUrl, sms: `http://127.0.0.1:${(sms.address() as { port: number }).port}/sms` };
}
const apps: ChildProcess[] = await Promise.all(
  ports.map((port) => bench.startApp({ port, dataDir, databaseUrl, workers: WORKERS, ...(services ? { services } : {}) })),
);
const pids = apps.map((a) => a.pid).filter((p): p is number => p !== undefined);
const reference = await bench.startReference();

// ---------------------------------------------------------------------------------------------------------------
// Sessions: every player through the login form and /api/token/, buyers through /api/token/, from their addresses

let rr = 0;
/** The next instance, in turn. */
const nextBase = () => bases[rr++ % bases.length] as string;
/** The writes in flight at most: the open loop sends no more while this many wait for their answers. */
const WRITES_IN_FLIGHT = 200;
/**
 * The API's client: a socket for every write in flight, as every player has his own connection. With 32 sockets, the
 * writes beside a saturated page queued in this client, 12–34 of them at the peaks (bench/RESULTS.md, issue 32,
 * 2026-12-02).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: WRITES_IN_FLIGHT });

async function apiCall(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const r = await bench.raw(
    base + path,
    {
      accept: 'application/json',
      'accept-language': 'en',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    method,
    body === undefined ? undefined : JSON.stringify(body),
    agent,
  );
  return { status: r.status, json: () => JSON.parse(r.body.toString('utf8')) as Record<string, unknown> };
}

async function token(phone: string, password: string, ip: string): Promise<string> {
  const r = await apiCall(nextBase(), 'POST', '/api/token/', { 'x-forwarded-for': ip }, { phone, password });
  const access = r.status === 200 ? r.json().access : undefined;
  if (typeof access !== 'string') throw new Error(`token for ${phone}: ${r.status}`);
  return access;
}

// Logins one per core at a time: each costs one or two production-strength scrypt hashes (the bench's cheap hash is
// replaced at the first login, server/accounts/passwords.ts), 0.6 s of a core each on this machine. Eight at once made
// each wait for the others' hashes, past the app's 10 s upstream timeout in a slow phase, and the set-up failed with a
// login answered 400 (the set-up takes as long either way: it is the hashing).
const LOGINS_AT_ONCE = availableParallelism();
console.log(`bench: logging in ${players.length} players (form and token) and ${buyers.length + warmers.length} buyers (token) …`);
await bench.inTurn(players, LOGINS_AT_ONCE, async (p) => {
  p.cookie = await bench.formLogin(nextBase(), p.phone, PASSWORD, { 'x-forwarded-for': p.ip });
  p.token = await token(p.phone, PASSWORD, p.ip);
});
await bench.inTurn([...buyers, ...warmers], LOGINS_AT_ONCE, async (b) => void (b.token = await token(b.phone, PASSWORD, b.ip)));
const staffToken = await token(DEMO_STAFF.phone, DEMO_STAFF.password, '10.9.0.1');
const secondStaffToken = await token(SECOND_STAFF.phone, SECOND_STAFF.password, '10.9.0.2');
console.log(`bench: set up in ${((Date.now() - started) / 1000).toFixed(0)} s`);

// ---------------------------------------------------------------------------------------------------------------
// The writes: purchases, TrxIDs and approvals at a fixed rate, while the app is measured

type Pending = { id: number; player: Account };
const writes = {
  done: { purchase: 0, trxId: 0, approve: 0 },
  failed: new Map<string, number>(),
  skipped: 0,
  inFlight: 0,
  /** Writes sent while on; on time: writes per second actually sent. */
  sent: 0,
  onMs: 0,
  onSince: 0,
  timer: undefined as NodeJS.Timeout | undefined,
  /** How long each write took (ms, answered as asked), while pages were served beside it; not the writes alone. */
  took: { purchase: [] as number[], trxId: [] as number[], approve: [] as number[] },
  alone: false,
};
const took = (k: keyof typeof writes.took, since: number) => {
  if (!writes.alone) writes.took[k].push(performance.now() - since);
};
const needTrxId: Pending[] = [];
const needApproval: number[] = [];
const recent = new Map<Account, number[]>();
let turn = 0;
let nextPlayer = 0;

/** Whether the player may buy or give a TrxID now without meeting the app's limit. */
function mayWrite(p: Account, now: number): boolean {
  const times = (recent.get(p) ?? []).filter((t) => t > now - PURCHASE_WINDOW_MS);
  recent.set(p, times);
  return times.length < PURCHASES_PER_WINDOW;
}
const wrote = (p: Account, now: number) => recent.get(p)?.push(now);

function failed(what: string, status: number) {
  const k = `${what} ${status}`;
  writes.failed.set(k, (writes.failed.get(k) ?? 0) + 1);
}

async function purchase(now: number): Promise<void> {
  let p: Account | undefined;
  for (let i = 0; i < players.length && !p; i++) {
    const c = players[nextPlayer++ % players.length] as Account;
    if (mayWrite(c, now)) p = c;
  }
  if (!p) return void writes.skipped++;
  wrote(p, now);
  const body = { lottery_id: lottery.id, ticket: freshTicket(lottery.id), amount: lottery.ticket_price, payment_method: 'bkash' };
  const since = performance.now();
  const r = await apiCall(
    nextBase(),
    'POST',
    '/api/v1/transactions-create/',
    { authorization: `Bearer ${p.token}`, 'x-forwarded-for': p.ip },
    body,
  );
  if (r.status !== 201) return failed('purchase', r.status);
  took('purchase', since);
  writes.done.purchase++;
  needTrxId.push({ id: r.json().id as number, player: p });
}

async function giveTrxId(t: Pending, now: number): Promise<void> {
  wrote(t.player, now);
  const since = performance.now();
  const r = await apiCall(
    nextBase(),
    'PATCH',
    `/api/v1/transactions/${t.id}/trx-id/`,
    { authorization: `Bearer ${t.player.token}`, 'x-forwarded-for': t.player.ip },
    { trx_id: freshTrxId(), payment_number: '01700000000' },
  );
  if (r.status !== 200) return failed('trx-id', r.status);
  took('trxId', since);
  writes.done.trxId++;
  needApproval.push(t.id);
}

/** A payment approved by hand: proposed by one staff member with the receipt's reason, approved by another. */
async function approve(id: number): Promise<void> {
  const reason = { reason: 'Bench: the receipt matches the TrxID' };
  const since = performance.now();
  const proposed = await apiCall(
    nextBase(),
    'POST',
    `/api/v1/transactions/${id}/approval-proposals/`,
    { authorization: `Bearer ${staffToken}`, 'x-forwarded-for': '10.9.0.1' },
    reason,
  );
  const proposal = proposed.status === 201 ? proposed.json().id : undefined;
  if (typeof proposal !== 'number') return failed('propose', proposed.status);
  const r = await apiCall(
    nextBase(),
    'POST',
    `/api/v1/transaction-approval-proposals/${proposal}/approve/`,
    { authorization: `Bearer ${secondStaffToken}`, 'x-forwarded-for': '10.9.0.2' },
    reason,
  );
  if (r.status !== 200) return failed('approve', r.status);
  took('approve', since);
  writes.done.approve++;
}

/** The next write: a purchase, then a TrxID, then an approval, each when there is one to make. */
function write(): Promise<void> {
  const now = Date.now();
  const step = turn++ % 3;
  if (step === 2 && needApproval.length) return approve(needApproval.shift() as number);
  const t = needTrxId[0];
  if (step >= 1 && t && mayWrite(t.player, now)) return giveTrxId(needTrxId.shift() as Pending, now);
  return purchase(now);
}

/** Starts the writes: open loop, as many as the rate asks for whatever the answers take (at most WRITES_IN_FLIGHT in flight). */
function writesOn() {
  if (!WRITES_PER_SEC) return;
  writes.onSince = Date.now();
  const first = writes.sent;
  writes.timer = setInterval(() => {
    const due = Math.floor(((Date.now() - writes.onSince) * WRITES_PER_SEC) / 1000) - (writes.sent - first);
    for (let i = 0; i < due && writes.inFlight < WRITES_IN_FLIGHT; i++) {
      writes.sent++;
      writes.inFlight++;
      write()
        .catch(() => failed('write', 0))
        .finally(() => writes.inFlight--);
    }
  }, 10);
}

/** Stops the writes and waits (up to 5 s) for those in flight, so that they do not run into the reference's turn. */
async function writesOff() {
  if (!writes.timer) return;
  clearInterval(writes.timer);
  writes.timer = undefined;
  writes.onMs += Date.now() - writes.onSince;
  for (let i = 0; i < 50 && writes.inFlight > 0; i++) await bench.sleep(100);
}

/** `f` with the writes going on beside it (when `on`), stopped again however it ends. */
async function withWrites<T>(on: boolean, f: () => Promise<T>): Promise<T> {
  if (on) writesOn();
  try {
    return await f();
  } finally {
    if (on) await writesOff();
  }
}

/**
 * The app's CPU a second (ms) over the next `seconds`, all its processes together, and PostgreSQL's beside it (null
 * on the embedded database, whose thread is the app's); null where /proc is not read.
 */
async function cpuPerSec(seconds: number): Promise<{ app: number | null; db: number | null }> {
  const app = bench.cpuClock(() => bench.withDescendants(pids));
  const db = onPostgres ? bench.cpuClock(bench.postgresPids) : null;
  await bench.sleep(seconds * 1000);
  const perSec = (ms: number | null) => (ms === null ? null : ms / seconds);
  return { app: perSec(app()), db: db ? perSec(db()) : null };
}

// ---------------------------------------------------------------------------------------------------------------
// The page cases, each against the app (writes on) and then the reference, alternating

/**
 * floorOf: this case is the session floor under the judged pages; the report divides it by each one's reference. server:
 * 'render' measures the render floor's processes (bench/render-floor.ts) instead of the app: the same page, so its own
 * reference is that page's.
 */
type PageCase = {
  name: string;
  path: string;
  rotate: boolean;
  writes: boolean;
  /** Judged against its floors (the session floor and its own render floor). */
  judged: boolean;
  floorOf?: string;
  server?: 'render';
  /** The render floor renders each player's own page in turn, not the one player's page of the reference. */
  own?: boolean;
  /**
   * One of the reads of this judged page (its path), answered as JSON without compression: beside its floors, the page
   * against its own reads and its render (not judged).
   */
  readOf?: string;
};
const cases: PageCase[] = [
  { name: '/my-lotteries, each view another player, writes on', path: '/my-lotteries', rotate: true, writes: true, judged: true },
  { name: '/profile, each view another player, writes on', path: '/profile', rotate: true, writes: true, judged: true },
  // The cheapest logged-in page: no read of its own, only the session's check (with its top bar) and the render, so it
  // is its floors put together by the app (bench/RESULTS.md, issue 32).
  {
    name: '/my-lotteries/activate, each view another player, writes on',
    path: '/my-lotteries/activate',
    rotate: true,
    writes: true,
    judged: true,
  },
  // The floor under every logged-in page: the player's session checked and the smallest JSON answered, no page rendered.
  {
    name: 'floor: /bff/api/v1/me/ (JSON, no render), each view another player, writes on',
    path: '/bff/api/v1/me/',
    rotate: true,
    writes: true,
    judged: false,
    floorOf: '/my-lotteries, each view another player, writes on',
  },
  // Beside it, not floors: each page's own reads, as its loaders make them, answered as JSON (the session checked, the
  // read, its JSON; nothing compressed, nothing rendered), to take the page apart. My Lotteries reads its tickets and
  // the purchases awaiting payment in one statement; the profile reads the player and his message settings in one too.
  {
    name: 'data: /bff/api/v1/my-lotteries/ (JSON, no render), each view another player, writes on',
    path: '/bff/api/v1/my-lotteries/?limit=10',
    rotate: true,
    writes: true,
    judged: false,
    readOf: '/my-lotteries',
  },
  {
    name: 'data: /bff/api/v1/my-profile/ (JSON, no render), each view another player, writes on',
    path: '/bff/api/v1/my-profile/',
    rotate: true,
    writes: true,
    judged: false,
    readOf: '/profile',
  },
  // The render floor under those pages: the page rendered from its data in hand by a bare node:http server, one process
  // per serving app process (instances × workers), no session, no database, no middleware, no writes beside it (bench/render-floor.ts).
  {
    name: 'render floor: /my-lotteries from its data in hand (no session, database, middleware or writes)',
    path: '/my-lotteries',
    rotate: true,
    writes: false,
    judged: false,
    server: 'render',
  },
  {
    name: 'render floor: /profile from its data in hand (no session, database, middleware or writes)',
    path: '/profile',
    rotate: true,
    writes: false,
    judged: false,
    server: 'render',
  },
  {
    name: 'render floor: /my-lotteries/activate from its data in hand (no session, database, middleware or writes)',
    path: '/my-lotteries/activate',
    rotate: true,
    writes: false,
    judged: false,
    server: 'render',
  },
  // Not the floor the issue accepted, beside it: the same render floor rendering each player's own page in turn, as the
  // app does, rather than one player's page over and over (bench/RESULTS.md, issue 32).
  {
    name: "render floor, each player's own page: /my-lotteries from its data in hand",
    path: '/my-lotteries',
    rotate: true,
    writes: false,
    judged: false,
    server: 'render',
    own: true,
  },
  { name: '/my-lotteries, one session, one URL, no writes', path: '/my-lotteries', rotate: false, writes: false, judged: false },
];

/** The player whose page the reference sends: the median number of transactions. */
const model = [...players].sort((a, b) => a.transactions - b.transactions)[players.length >> 1] as Account;
const browserHeaders = (p: Account, c?: PageCase) => ({
  ...bench.BROWSER,
  // A page's read is measured without compression: the page compresses its HTML, not its data.
  'accept-encoding': c?.readOf ? 'identity' : 'gzip, deflate, br',
  cookie: p.cookie,
  'x-forwarded-for': p.ip,
});
let view = 0;

/** One run of a page case against these servers: every request another player when the case rotates. */
function pageRun(urls: string[], c: PageCase, seconds: number, measured: readonly number[] | undefined): Promise<bench.Run> {
  const requests: autocannon.Request[] | undefined = c.rotate
    ? [
        {
          method: 'GET',
          setupRequest: (r) => {
            const p = players[view++ % players.length] as Account;
            const headers = { ...r.headers, cookie: p.cookie, 'x-forwarded-for': p.ip };
            return { ...r, headers };
          },
        },
      ]
    : undefined;
  // Several URLs: autocannon alternates its connections between them (its types know only one URL).
  const url = (urls.length === 1 ? urls[0] : urls) as string;
  const opts = { url, connections: CONNECTIONS, duration: seconds, headers: browserHeaders(model, c), ...(requests ? { requests } : {}) };
  return bench.cannon(opts, measured, measured && onPostgres ? bench.postgresPids : undefined);
}

type PageRow = PageCase & { app: bench.Run[]; ref: bench.Run[]; size: number; encoding: string; writesPerSec: number | null };
const pageRows: PageRow[] = [];
console.log(
  `bench: ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per side and case, app and reference alternating, ` +
    `${INSTANCES} instance${INSTANCES > 1 ? 's' : ''} of ${WORKERS} worker${WORKERS > 1 ? 's' : ''}, ${players.length} players, ${WRITES_PER_SEC} writes/s while the app runs`,
);
const selected = cases.filter((x) => chosen(x.name));
/** A case's URLs on the app: its path on every instance. */
const appUrlsOf = (c: PageCase): string[] => bases.map((b) => b + c.path);
/** The render floor's processes, one per app process that serves (instances × workers), when a case asks for them. */
const renderFloors = selected.some((c) => c.server === 'render')
  ? await Promise.all(Array.from({ length: INSTANCES * WORKERS }, () => bench.startRenderFloor()))
  : [];
{
  // The app at rest before the first case (no request, no write): what its background work costs a second.
  const atRest = await cpuPerSec(SECONDS);
  if (atRest.app !== null)
    console.log(
      `  the app at rest: ${atRest.app.toFixed(0)} ms of CPU a second${atRest.db === null ? '' : `, PostgreSQL ${atRest.db.toFixed(0)}`}`,
    );
  // Then every page judged, in turn, unmeasured and with its case's writes, until V8 has compiled what they run: after
  // one turn, the first case measured still cost a fifth more than the same page measured again at the end of the run.
  const judged = selected.filter((x) => x.judged);
  for (let i = 0; i < WARM_ROUNDS; i++)
    for (const c of judged) await withWrites(c.writes, () => pageRun(appUrlsOf(c), c, SECONDS, undefined));
}
/** A case made ready to run: its captured page (the reference sends it), and where and whose CPU its app side is. */
type Ready = { c: PageCase; probe: bench.Raw; appUrls: string[]; measuredPids: readonly number[] };

async function ready(c: PageCase): Promise<Ready> {
  const probe = await bench.raw((bases[0] as string) + c.path, browserHeaders(model, c));
  if (probe.status !== 200) throw new Error(`${c.name}: ${probe.status} ${probe.body.toString('utf8').slice(0, 200)}`);
  if (c.server !== 'render') return { c, probe, appUrls: appUrlsOf(c), measuredPids: pids };
  return {
    c,
    probe,
    appUrls: renderFloors.map((f) => f.url + c.path),
    measuredPids: renderFloors.map((f) => f.pid).filter((p): p is number => p !== undefined),
  };
}

/**
 * Sets the reference (and a render floor's processes) to the case's page. A render floor of each player's own page
 * adds every player's page after the model's.
 */
async function serveCase(r: Ready, first: boolean): Promise<void> {
  const { c, probe } = r;
  await reference.serve(probe);
  if (c.server !== 'render') return;
  const bytes = await Promise.all(renderFloors.map((f) => f.serve((bases[0] as string) + c.path, probe)));
  if (first) console.log(`  render floor: ${c.path} from its data, ${bytes[0]} bytes of HTML`);
  if (c.own)
    for (const p of players.filter((x) => x !== model)) {
      const own = await bench.raw((bases[0] as string) + c.path, browserHeaders(p));
      if (own.status !== 200) throw new Error(`${c.name}: ${own.status} for a player`);
      await Promise.all(renderFloors.map((f) => f.serve((bases[0] as string) + c.path, own, true)));
    }
}

/** A case's runs so far, and the writes sent beside its app's runs (count, and the time they were on). */
type Tally = { app: bench.Run[]; ref: bench.Run[]; sent: number; onMs: number };

/** One round of a case: a short unmeasured warm-up of both sides, then the app and the reference, measured. */
async function round(r: Ready, t: Tally, first: boolean): Promise<void> {
  const { c } = r;
  await serveCase(r, first);
  const refUrls = [reference.url + c.path];
  const side = (app: boolean, seconds: number, measured: boolean) =>
    withWrites(app && c.writes, () => pageRun(app ? r.appUrls : refUrls, c, seconds, measured ? r.measuredPids : undefined));
  await side(true, 1, false); // warm-up: JIT, caches
  await side(false, 1, false);
  const before = { sent: writes.sent, ms: writes.onMs };
  t.app.push(await side(true, SECONDS, true));
  t.sent += writes.sent - before.sent;
  t.onMs += writes.onMs - before.ms;
  t.ref.push(await side(false, SECONDS, false));
}

function record(r: Ready, t: Tally): void {
  const { c, probe } = r;
  const writesPerSec = c.writes && WRITES_PER_SEC && t.onMs > 0 ? (t.sent * 1000) / t.onMs : null;
  const row = {
    ...c,
    app: t.app,
    ref: t.ref,
    size: probe.body.length,
    encoding: String(probe.headers['content-encoding'] ?? '-'),
    writesPerSec,
  };
  pageRows.push(row);
  const ratios = t.app.map((a, i) => a.rps / (t.ref[i] as bench.Run).rps);
  console.log(
    `  ${c.name.padEnd(52)} app ${bench.median(t.app.map((x) => x.rps)).toFixed(0)} req/s | reference ${bench.median(t.ref.map((x) => x.rps)).toFixed(0)} req/s | ` +
      `ratios ${ratios.map((x) => x.toFixed(3)).join(' ')} | app CPU µs ${t.app.map((x) => (x.cpuUs === null ? '-' : x.cpuUs.toFixed(0))).join(' ')}` +
      (onPostgres ? ` | PostgreSQL CPU µs ${t.app.map((x) => (x.dbCpuUs === null ? '-' : x.dbCpuUs.toFixed(0))).join(' ')}` : '') +
      ` | main/database/other threads µs ${t.app.map((x) => (x.threadsUs ? threadsOf(x.threadsUs) : '-')).join(' ')}` +
      ` | machine busy ${t.app.map((x) => (x.busy === null ? '-' : `${Math.round(100 * x.busy)}%`)).join(' ')}`,
  );
}

/** A run's app CPU per request by thread: main (HTTP, render), the embedded database's, the others (GC helpers). */
const threadsOf = (u: bench.Threads) => [u.main, u.database, u.other].map((x) => x.toFixed(0)).join('/');

// The judged pages, their floors and their reads take turns, round after round (docs/decisions/086): each round
// measures every one of them once, so that a page and the floors it is judged by are measured within the same minute,
// whatever phase the machine is in, rather than minutes apart. The cases beside them, not judged, follow as before.
const together = selected.filter((c) => c.judged || c.floorOf || c.readOf || (c.server === 'render' && !c.own));

/**
 * Cases measured in turns: each made ready, the render floors among them warmed as the app was (each page of theirs
 * BENCH_WARM_ROUNDS times, unmeasured: a floor measured colder than the page it judges would flatter the page), then
 * ROUNDS rounds, each measuring every case once, and their rows recorded.
 */
async function inTurns(cases: PageCase[]): Promise<void> {
  const turns: { r: Ready; t: Tally }[] = [];
  for (const c of cases) turns.push({ r: await ready(c), t: { app: [], ref: [], sent: 0, onMs: 0 } });
  for (let i = 0; i < WARM_ROUNDS; i++)
    for (const { r } of turns.filter((x) => x.r.c.server === 'render' && !x.r.c.own)) {
      await serveCase(r, false);
      await pageRun(r.appUrls, r.c, SECONDS, undefined);
    }
  for (let i = 0; i < ROUNDS; i++) for (const { r, t } of turns) await round(r, t, i === 0);
  for (const { r, t } of turns) record(r, t);
}
await inTurns(together);
for (const c of selected.filter((x) => !together.includes(x))) await inTurns([c]);

/**
 * The writes alone, no page asked for, after the page cases (their code warm, as during the pages): the app's CPU they
 * cost a second (ms), so that the table can show what share of a page's CPU per request is the writes beside it rather
 * than the page (the render floor has none, the session floor a small share at its rate).
 */
let writesAlone: { app: number | null; db: number | null } | null = null;
if (WRITES_PER_SEC && selected.some((c) => c.judged)) {
  writes.alone = true;
  writesAlone = await withWrites(true, async () => {
    await bench.sleep(1000);
    return cpuPerSec(SECONDS);
  });
  console.log(
    `  the writes alone (${WRITES_PER_SEC}/s asked): ${writesAlone.app?.toFixed(0) ?? '-'} ms of the app's CPU a second` +
      `${writesAlone.db === null ? '' : `, PostgreSQL's ${writesAlone.db.toFixed(0)}`}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Purchases: many buyers at once, on one instance

const purchaseCase = `purchases, ${buyers.length} buyers, one instance`;
let purchaseRun: bench.Run | null = null;
if (chosen(purchaseCase)) {
  const headers = { accept: 'application/json', 'accept-language': 'en', 'content-type': 'application/json' };
  /** Each of these accounts buys `each` tickets of the Saturday draw, each request another account and another ticket. */
  const purchases = (accounts: Account[], each: number) => {
    const amount = each * accounts.length;
    let k = 0;
    const requests: autocannon.Request[] = [
      {
        method: 'POST',
        path: '/api/v1/transactions-create/',
        setupRequest: (r) => {
          const b = accounts[k++ % accounts.length] as Account;
          const body = { lottery_id: lottery.id, ticket: freshTicket(lottery.id), amount: lottery.ticket_price, payment_method: 'bkash' };
          return {
            ...r,
            headers: {
              ...r.headers,
              authorization: `Bearer ${b.token}`,
              'x-forwarded-for': b.ip,
              'idempotency-key': `bench-${tag}-${b.phone}-${k}`,
            },
            body: JSON.stringify(body),
          };
        },
      },
    ];
    return bench.cannon(
      { url: bases[0] as string, connections: Math.min(CONNECTIONS, amount), amount, headers, requests },
      pids.slice(0, 1),
      onPostgres ? bench.postgresPids : undefined,
    );
  };
  // Warm-up, as every page case has: the instance's code compiled and its database connections open, as on a
  // Saturday evening, by other buyers than the measured ones.
  console.log(`bench: purchases, warm-up (${warmers.length} buyers × ${WARM_EACH}, not measured) …`);
  await purchases(warmers, WARM_EACH);
  console.log(`bench: purchases, ${buyers.length} buyers × ${PURCHASES_PER_WINDOW}, ${CONNECTIONS} connections, one instance …`);
  purchaseRun = await purchases(buyers, PURCHASES_PER_WINDOW);
}

await reference.close();
await Promise.all(renderFloors.map((f) => f.close()));
await Promise.all(apps.map(bench.stop));
bench.cleanup();

// ---------------------------------------------------------------------------------------------------------------
// The report: a Markdown table (bench/RESULTS.md keeps them)

const fmt = (x: number | null, digits = 0) => (x === null ? '-' : x.toFixed(digits));
const mid = (runs: bench.Run[], f: (r: bench.Run) => number | null) => {
  const xs = runs.map(f).filter((x): x is number => x !== null);
  return xs.length ? bench.median(xs) : null;
};
console.log(
  `\n${bench.machine()} · ${onPostgres ? `PostgreSQL, ${INSTANCES} instance${INSTANCES > 1 ? 's' : ''} of ${WORKERS} worker${WORKERS > 1 ? 's' : ''}` : 'embedded database'} · ` +
    `${players.length} players · ${BIG_SALES ? `a numbers lottery ${BIG_SALES} tickets into its sales · ` : ''}${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s · writes ${WRITES_PER_SEC}/s asked · ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s in all\n`,
);
console.log(
  '| case | bytes | encoding | app req/s | reference req/s | ratio (rounds) | app p99 ms | app CPU µs/req | PostgreSQL CPU µs/req | writes/s | budget | verdict |',
);
console.log('|---|---:|---|---:|---:|---|---:|---:|---:|---:|---|---|');
let failedBudget = false;
for (const r of pageRows) {
  const ratios = r.app.map((a, i) => a.rps / (r.ref[i] as bench.Run).rps);
  const ratio = bench.median(ratios);
  console.log(
    `| ${r.name} | ${r.size} | ${r.encoding} | ${fmt(mid(r.app, (x) => x.rps))} | ${fmt(mid(r.ref, (x) => x.rps))} | ` +
      `${ratio.toFixed(3)} (${ratios.map((x) => x.toFixed(3)).join(', ')}) | ${fmt(mid(r.app, (x) => x.p99))} | ${fmt(mid(r.app, (x) => x.cpuUs))} | ` +
      `${fmt(mid(r.app, (x) => x.dbCpuUs))} | ${fmt(r.writesPerSec, 1)} | ${r.judged ? 'below' : 'not judged'} | ${r.judged ? 'below' : '-'} |`,
  );
}
if (purchaseRun) {
  const p = purchaseRun;
  const ok = p.rps >= BUDGET.purchasesPerSec && p.p99 <= BUDGET.purchaseP99Ms;
  failedBudget ||= !ok;
  const budget = `≥ ${BUDGET.purchasesPerSec}/s, p99 ≤ ${BUDGET.purchaseP99Ms} ms`;
  console.log(
    `| ${purchaseCase} (${p.total} purchases) | - | - | ${p.rps.toFixed(0)} | - | - | ${p.p99.toFixed(0)} | ${fmt(p.cpuUs)} | ${fmt(p.dbCpuUs)} | - | ${budget} | ${ok ? 'ok' : '**MISSED**'} |`,
  );
}

// Each judged page against its floors (the session floor's column is what bench runs before issue 32 printed as "the
// floor against the page's reference"), measured above against the page's own reference: the session floor (every
// page checks the session) and the page's render floor (every page renders) saturate the same cores, so together they
// allow at most 1 ÷ (1 ÷ session + 1 ÷ render) of the reference, and cost their two CPU times per request.
//
// Beside them, not judged, to take the page apart: its own reads with its render (what a request costs adds up in
// time, so a page that makes its reads and renders their data serves at most 1 ÷ (Σ 1 ÷ read + 1 ÷ render), each
// read's line counting the session's check once more: one session floor less per read after the first), and the share
// of the page's CPU that the writes beside it cost (measured alone in this run, divided by the page's rate).
const sessionFloor = pageRows.find((r) => r.floorOf);
const judgedRows = pageRows.filter((r) => r.judged);
if (sessionFloor && judgedRows.length) {
  console.log(
    '\n| page | session floor | render floor | both | the page | page ÷ both (≥ ' +
      `${BUDGET.pageOfFloor}) | page CPU µs | floors' CPU µs × ${BUDGET.cpuOfFloor} | p99 ms (≤ ${BUDGET.pageP99Ms}) | verdict | ` +
      "its reads | reads ⊕ render | page ÷ that | reads' + render's CPU µs (page ÷ that) | the writes' share of the page's CPU µs |",
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|');
  const rpsOf = (runs: bench.Run[]) => bench.median(runs.map((x) => x.rps));
  const cpuOf = (r: PageRow) => mid(r.app, (x) => x.cpuUs) ?? 0;
  for (const page of judgedRows) {
    const render = pageRows.find((r) => r.server === 'render' && !r.own && r.path === page.path);
    if (!render) continue;
    const ref = rpsOf(page.ref);
    const session = rpsOf(sessionFloor.app) / ref;
    const rendered = bench.median(render.app.map((a, i) => a.rps / (render.ref[i] as bench.Run).rps));
    const both = 1 / (1 / session + 1 / rendered);
    const ratio = bench.median(page.app.map((a, i) => a.rps / (page.ref[i] as bench.Run).rps));
    const cpu = mid(page.app, (x) => x.cpuUs);
    const floorsCpu = cpuOf(sessionFloor) + cpuOf(render);
    const p99 = mid(page.app, (x) => x.p99) ?? Infinity;
    const missed = [
      ratio / both < BUDGET.pageOfFloor ? 'rate' : '',
      cpu === null || cpu > BUDGET.cpuOfFloor * floorsCpu ? 'CPU' : '',
      p99 > BUDGET.pageP99Ms ? 'p99' : '',
    ].filter(Boolean);
    failedBudget ||= missed.length > 0;
    const reads = pageRows.filter((r) => r.readOf === page.path);
    const extraChecks = Math.max(0, reads.length - 1);
    const withReads = reads.length ? 1 / (reads.reduce((t, r) => t + ref / rpsOf(r.app), 0) - extraChecks / session + 1 / rendered) : null;
    const readsCpu = reads.reduce((t, r) => t + cpuOf(r), 0) - extraChecks * cpuOf(sessionFloor) + cpuOf(render);
    const writesShare = writesAlone?.app == null ? null : (writesAlone.app * 1000) / rpsOf(page.app);
    console.log(
      `| ${page.path} | ${session.toFixed(3)} | ${rendered.toFixed(3)} | ${both.toFixed(3)} | ${ratio.toFixed(3)} | ${(ratio / both).toFixed(2)} | ` +
        `${fmt(cpu)} | ${fmt(BUDGET.cpuOfFloor * floorsCpu)} | ${fmt(p99)} | ${missed.length ? `**MISSED** (${missed.join(', ')})` : 'ok'} | ` +
        `${reads.map((r) => (rpsOf(r.app) / ref).toFixed(3)).join(' + ') || '-'} | ${withReads?.toFixed(3) ?? '-'} | ` +
        `${withReads ? (ratio / withReads).toFixed(2) : '-'} | ${reads.length ? `${fmt(readsCpu)} (${cpu === null ? '-' : (cpu / readsCpu).toFixed(2)} ×)` : '-'} | ` +
        `${fmt(writesShare)} |`,
    );
  }
}
if (writes.sent) {
  const failures = [...writes.failed].map(([k, n]) => `${k}: ${n}`).join(', ');
  console.log(
    `\nWrites while the app ran: ${writes.done.purchase} purchases, ${writes.done.trxId} TrxIDs, ${writes.done.approve} approvals` +
      `${writes.skipped ? `, ${writes.skipped} skipped (every player at his limit)` : ''}${failures ? `; refused or failed: ${failures}` : ''}.`,
  );
  // What a player and a staff member waited for their write while the pages were served beside it.
  const waited = (k: keyof typeof writes.took, what: string) => {
    const ms = [...writes.took[k]].sort((a, b) => a - b);
    const p99 = ms[Math.min(ms.length - 1, Math.floor(0.99 * ms.length))] ?? 0;
    return ms.length ? `${what} median ${bench.median(ms).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms` : `${what} none`;
  };
  console.log(
    `Their answers while pages were served: ${waited('purchase', 'purchase')}; ${waited('trxId', 'TrxID')}; ` +
      `${waited('approve', 'proposal and approval together')}.`,
  );
}
process.exit(failedBudget ? 1 : 0);
