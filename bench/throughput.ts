/**
 * `npm run bench:throughput` (after `npm run build`): server-rendered pages against the physical limit, side by side
 * in one run on this machine (docs/rules/limits.md#6-page-budgets).
 *
 * The app is the built server (dist/server/index.js) in production mode, in a process of its own, on the embedded
 * database in a temporary DATA_DIR with the demo data. For each case (page × visitor × encoding) the bench first
 * fetches the app's exact response (status, headers, body bytes), then has a reference — a bare `node:http` server
 * in another process, no framework, no middleware, no compression work per request — answer every request with
 * exactly those bytes and headers, and runs autocannon against the app and the reference in turn (same connections,
 * same duration, alternating). Budgets: anonymous pages at least 0.5 of the reference's requests per second,
 * logged-in pages at least 0.10. Loopback only, bounded in time; exits 1 when a budget is missed, 2 without a build.
 * Beside the ratio, the app's CPU time per request during its runs (Linux /proc): what a page costs, to read with
 * the ratio when other work shares the machine (heavy contention inflates it too).
 *
 *   BENCH_SECONDS (2)  length of one measured run   BENCH_ROUNDS (2)  app/reference pairs per case
 *   BENCH_CONNECTIONS (20)                          BENCH_ONLY        run only the cases whose name contains this
 *   BENCH_NODE_ARGS   extra node options for the app, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (see bench/RESULTS.md)
 *   BENCH_DATABASE_URL  run the app on this PostgreSQL instead of the embedded database, e.g.
 *                     `bash scripts/with-postgres.sh sh -c 'BENCH_DATABASE_URL=$TEST_DATABASE_URL npm run bench:throughput'`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, freemem, totalmem, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../server/db/index.ts';
import { DEMO_STAFF } from '../server/db/seed.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ONLY = process.env.BENCH_ONLY ?? '';
const BUDGET = { anonymous: 0.5, loggedIn: 0.1 } as const;
/** The whole bench stops by itself, whatever hangs (a loaded machine takes longer to start the app twice). */
const HARD_LIMIT_MS = 300_000;

const root = path.resolve(import.meta.dirname, '..');
const serverJs = path.join(root, 'dist/server/index.js');
if (!existsSync(serverJs) || !existsSync(path.join(root, 'dist/client/manifest.json'))) {
  console.error('No build found: run `npm run build` first.');
  process.exit(2);
}

const children = new Set<ChildProcess>();
const dataDir = mkdtempSync(path.join(tmpdir(), 'bhagya-bench-'));
function cleanup() {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
process.on('exit', cleanup);
setTimeout(() => {
  console.error(`bench: still running after ${HARD_LIMIT_MS / 1000} s, stopped`);
  cleanup();
  process.exit(1);
}, HARD_LIMIT_MS).unref();

// ---------------------------------------------------------------------------------------------------------------
// Processes: the built app and the bare reference

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Raw = { status: number; rawHeaders: string[]; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request with node:http: the bytes as sent (no decompression), the headers as they came. */
function raw(url: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(parts) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.end(body);
  });
}

/** The built server, production mode, nothing from the caller's environment but PATH and HOME. */
async function startApp(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-'.padEnd(48, 'x'),
    // Production refuses the log transport; the bench sends no code or mail (closed loopback ports).
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
    BKASH_RECEIVER_NUMBER: '01700000000',
    DATA_DIR: dataDir,
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
  };
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverJs], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => void (stderr = (stderr + c.toString()).slice(-4000)));
  child.once('exit', () => children.delete(child));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) during start-up:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`the app was not ready within 60 s:\n${stderr}`);
    const ok = await raw(`http://127.0.0.1:${port}/readyz`, {}).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return child;
    await sleep(200);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** The reference: a bare node:http server answering every request with the bytes it was last given. */
const REFERENCE = `
const http = require('node:http');
let status = 200, headers = [], body = Buffer.alloc(0);
const server = http.createServer((req, res) => { res.writeHead(status, headers); res.end(body); });
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  status = m.status; headers = m.headers; body = Buffer.from(m.body, 'base64');
  process.send({ set: true });
});
process.on('disconnect', () => process.exit(0));
`;

async function startReference() {
  const child = spawn(process.execPath, ['-e', REFERENCE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const next = () => new Promise<{ port?: number }>((resolve) => child.once('message', (m) => resolve(m as { port?: number })));
  const { port } = await next();
  return {
    url: `http://127.0.0.1:${port}`,
    /** Serves this response from now on: the app's headers as they came, but the framing is the reference's own. */
    async serve(r: Raw) {
      const headers: string[] = [];
      for (let i = 0; i < r.rawHeaders.length; i += 2) {
        const k = r.rawHeaders[i] as string;
        if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k.toLowerCase()))
          headers.push(k, r.rawHeaders[i + 1] as string);
      }
      headers.push('Content-Length', String(r.body.length));
      const ack = next();
      child.send({ status: r.status, headers, body: r.body.toString('base64') });
      await ack;
    },
    close: () => stop(child),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The data: demo seed (first start of the app), then 50 transactions on the bench user's account

const appPort = await freePort();
const appBase = `http://127.0.0.1:${appPort}`;
console.log('bench: starting the built app once to migrate and seed the demo data …');
await stop(await startApp(appPort));
{
  const db = await openDb({ dataDir, databaseUrl: process.env.BENCH_DATABASE_URL });
  const user = await db.one<{ id: number }>('SELECT id FROM users WHERE phone = $1', [DEMO_STAFF.phone]);
  const lottery = await db.one<{ id: number; ticket_price: number }>(
    'SELECT id, ticket_price FROM lotteries WHERE published ORDER BY id LIMIT 1',
  );
  if (!user || !lottery) throw new Error('the demo seed has no staff user or no published lottery');
  const inserted = await db.query(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, payment_number, trx_id, status)
     SELECT $1, $2, lpad(g::text, 2, '0') || '-51-52-53-54-15', $3, 'bkash', '01700000000', 'BENCH' || lpad(g::text, 4, '0'), 'success'
     FROM generate_series(1, 50) AS g
     ON CONFLICT DO NOTHING RETURNING id`,
    [user.id, lottery.id, lottery.ticket_price],
  );
  if (inserted.length !== 50) throw new Error(`only ${inserted.length} of the bench user's 50 transactions could be stored`);
  await db.close();
}
const app = await startApp(appPort);
const reference = await startReference();

// ---------------------------------------------------------------------------------------------------------------
// A logged-in session, obtained as a browser without JavaScript does (in production the cookies are __Host-)

const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en-GB,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (bhagya bench)',
};
const jar = new Map<string, string>();
const keep = (r: Raw) => {
  for (const c of ([] as string[]).concat(r.headers['set-cookie'] ?? [])) {
    const pair = c.slice(0, c.includes(';') ? c.indexOf(';') : undefined);
    jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
};
const cookieHeader = (extra = '') => [...[...jar].map(([k, v]) => `${k}=${v}`), ...(extra ? [extra] : [])].join('; ');
const loginPage = await raw(`${appBase}/login`, { ...BROWSER, cookie: 'lang=en' });
keep(loginPage);
const loginHtml = loginPage.body.toString('utf8');
const csrf = /name="_csrf"[^>]*value="([^"]*)"/.exec(loginHtml)?.[1];
const identifier = /\bname="([^"]+)"[^>]*autoComplete="username"|autoComplete="username"[^>]*\bname="([^"]+)"/i.exec(loginHtml);
const form = new URLSearchParams({
  _csrf: csrf ?? '',
  [identifier?.[1] ?? identifier?.[2] ?? 'phone']: DEMO_STAFF.phone,
  password: DEMO_STAFF.password,
});
const login = await raw(
  `${appBase}/login`,
  { ...BROWSER, cookie: cookieHeader('lang=en'), origin: appBase, 'content-type': 'application/x-www-form-urlencoded' },
  'POST',
  form.toString(),
);
keep(login);
if (login.status !== 303 || !jar.has('__Host-bh_session')) throw new Error(`bench login failed (${login.status})`);

// ---------------------------------------------------------------------------------------------------------------
// The cases, each against the app and then the reference, alternating

/**
 * `fresh`: every request asks for a URL of its own (`?view=N`), so that none is answered by a kept page
 * (server/ssr/own-pages.ts): what a logged-in page costs when it is rendered (its first view, or the next after a
 * write). Shown beside the budgeted cases, not judged (budget null).
 */
type Case = { name: string; path: string; headers: Record<string, string>; budget: number | null; fresh?: boolean };
const cases: Case[] = [];
for (const page of ['/', '/all-lotteries'])
  for (const [visitor, cookie] of [
    ['first visit', null],
    ['returning', 'lang=en'],
  ] as const)
    for (const gzip of [false, true])
      cases.push({
        name: `${page} anonymous, ${visitor}, ${gzip ? 'gzip' : 'identity'}`,
        path: page,
        headers: { ...BROWSER, ...(cookie ? { cookie } : {}), ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
        budget: BUDGET.anonymous,
      });
for (const fresh of [false, true])
  for (const page of ['/profile', '/my-lotteries'])
    for (const gzip of [false, true])
      cases.push({
        name: `${page} logged in, ${fresh ? 'rendered, ' : ''}${gzip ? 'gzip' : 'identity'}`,
        path: page,
        headers: { ...BROWSER, cookie: cookieHeader('lang=en'), ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
        budget: fresh ? null : BUDGET.loggedIn,
        fresh,
      });

/**
 * CPU time (user + system) the app process has used so far, in ms, from /proc (Linux; null elsewhere): per request it
 * is what a page costs.
 */
function appCpuMs(): number | null {
  try {
    const fields = readFileSync(`/proc/${app.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on Linux everywhere this runs. */
const CLOCK_TICKS = 100;

type Run = { rps: number; p99: number; cpuUs: number | null };
let views = 0;
async function cannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  cpu?: () => number | null,
  fresh = false,
): Promise<Run> {
  const before = cpu?.() ?? null;
  const path = new URL(url).pathname;
  const requests = fresh
    ? [{ method: 'GET' as const, setupRequest: (r: object) => ({ ...r, path: `${path}?view=${++views}` }) }]
    : undefined;
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, ...(requests ? { requests } : {}) });
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  const after = cpu?.() ?? null;
  const cpuUs = before !== null && after !== null && r.requests.total > 0 ? ((after - before) * 1000) / r.requests.total : null;
  return { rps: r.requests.average, p99: r.latency.p99, cpuUs };
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const verdict = (ratio: number, budget: number | null) => (budget === null ? 'not judged' : ratio >= budget ? 'ok' : `BELOW ${budget}`);

type Row = Case & { app: Run; ref: Run; size: number; encoding: string };
const rows: Row[] = [];
console.log(`bench: ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per side and case, app and reference alternating`);
for (const c of cases.filter((x) => x.name.includes(ONLY))) {
  const probe = await raw(appBase + c.path + (c.fresh ? '?view=0' : ''), c.headers);
  if (probe.status !== 200) throw new Error(`${c.name}: ${probe.status} ${probe.body.toString('utf8').slice(0, 200)}`);
  await reference.serve(probe);
  await cannon(appBase + c.path, c.headers, 1, undefined, c.fresh); // warm-up: JIT, caches
  await cannon(reference.url + c.path, c.headers, 1, undefined, c.fresh);
  const app: Run[] = [];
  const ref: Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    app.push(await cannon(appBase + c.path, c.headers, SECONDS, appCpuMs, c.fresh));
    ref.push(await cannon(reference.url + c.path, c.headers, SECONDS, undefined, c.fresh));
  }
  const cpus = (runs: Run[]) => runs.map((r) => r.cpuUs).filter((x): x is number => x !== null);
  const avg = (runs: Run[]): Run => ({
    rps: mean(runs.map((r) => r.rps)),
    p99: mean(runs.map((r) => r.p99)),
    cpuUs: cpus(runs).length ? mean(cpus(runs)) : null,
  });
  const row = { ...c, app: avg(app), ref: avg(ref), size: probe.body.length, encoding: String(probe.headers['content-encoding'] ?? '-') };
  rows.push(row);
  const ratio = row.app.rps / row.ref.rps;
  console.log(
    `  ${c.name.padEnd(44)} app ${row.app.rps.toFixed(0).padStart(6)} req/s p99 ${String(row.app.p99).padStart(4)} ms ` +
      `cpu ${row.app.cpuUs === null ? '-' : row.app.cpuUs.toFixed(0).padStart(5)} µs/req | ` +
      `reference ${row.ref.rps.toFixed(0).padStart(6)} req/s | ${ratio.toFixed(2)} ${verdict(ratio, c.budget)}`,
  );
}

await reference.close();
await stop(app);
cleanup();

// ---------------------------------------------------------------------------------------------------------------
// The report: a Markdown table (bench/RESULTS.md keeps them)

const cpu = /model name\s*:\s*(.*)/.exec(existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '')?.[1] ?? cpus()[0]?.model;
console.log(
  `\n${new Date().toISOString()} · node ${process.version} · ${cpus().length} CPUs (${cpu}) · ` +
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB memory (${(freemem() / 2 ** 30).toFixed(1)} free) · ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s\n`,
);
console.log('| case | bytes | encoding | app req/s | app p99 ms | app CPU µs/req | reference req/s | reference p99 ms | ratio | budget |');
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---|');
let failed = false;
for (const r of rows) {
  const ratio = r.app.rps / r.ref.rps;
  const ok = r.budget === null || ratio >= r.budget;
  failed ||= !ok;
  console.log(
    `| ${r.name} | ${r.size} | ${r.encoding} | ${r.app.rps.toFixed(0)} | ${r.app.p99.toFixed(0)} | ${r.app.cpuUs?.toFixed(0) ?? '-'} | ${r.ref.rps.toFixed(0)} | ` +
      `${r.ref.p99.toFixed(0)} | ${ratio.toFixed(2)} | ${r.budget === null ? 'not judged' : `≥ ${r.budget} ${ok ? 'ok' : '**missed**'}`} |`,
  );
}
process.exit(failed ? 1 : 0);
