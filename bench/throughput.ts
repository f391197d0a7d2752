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
 *   BENCH_CONNECTIONS (20)                          BENCH_ONLY        run only the cases whose name contains this (or a `|`-separated part)
 *   BENCH_NODE_ARGS   extra node options for the app, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (see bench/RESULTS.md)
 *   BENCH_DATABASE_URL  run the app on this PostgreSQL instead of the embedded database, e.g.
 *                     `bash scripts/with-postgres.sh sh -c 'BENCH_DATABASE_URL=$TEST_DATABASE_URL npm run bench:throughput'`
 */
import { openDb } from '../server/db/index.ts';
import { DEMO_STAFF } from '../server/db/seed.ts';
import * as bench from './lib.ts';

const { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, chosen } = bench.settings({ seconds: 2, rounds: 2 });
const BUDGET = { anonymous: 0.5, loggedIn: 0.1 } as const;
/** The whole bench stops by itself, whatever hangs (a loaded machine takes longer to start the app twice). */
bench.hardLimit(300_000);
bench.requireBuild();
const dataDir = bench.tempDir();
const databaseUrl = process.env.BENCH_DATABASE_URL;

// ---------------------------------------------------------------------------------------------------------------
// The data: demo seed (first start of the app), then 50 transactions on the bench user's account

const appPort = await bench.freePort();
const appBase = `http://127.0.0.1:${appPort}`;
console.log('bench: starting the built app once to migrate and seed the demo data …');
await bench.stop(await bench.startApp({ port: appPort, dataDir, databaseUrl }));
{
  const db = await openDb({ dataDir, databaseUrl });
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
const app = await bench.startApp({ port: appPort, dataDir, databaseUrl });
const reference = await bench.startReference();
// The demo staff account, logged in through the form.
const session = await bench.formLogin(appBase, DEMO_STAFF.phone, DEMO_STAFF.password);

// ---------------------------------------------------------------------------------------------------------------
// The cases, each against the app and then the reference, alternating

/**
 * `fresh`: every request asks for a URL of its own (`?view=N`), so that no cache of any kind can answer it:
 * what a logged-in page costs when it is rendered (its first view, or the next after a
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
        headers: { ...bench.BROWSER, ...(cookie ? { cookie } : {}), ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
        budget: BUDGET.anonymous,
      });
for (const fresh of [false, true])
  for (const page of ['/profile', '/my-lotteries'])
    for (const gzip of [false, true])
      cases.push({
        name: `${page} logged in, ${fresh ? 'rendered, ' : ''}${gzip ? 'gzip' : 'identity'}`,
        path: page,
        headers: { ...bench.BROWSER, cookie: session, ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
        budget: fresh ? null : BUDGET.loggedIn,
        fresh,
      });

let views = 0;
/** One run against the app (with its CPU time per request) or the reference; `fresh`: a URL of its own per request. */
function run(url: string, headers: Record<string, string>, seconds: number, measured: boolean, fresh = false): Promise<bench.Run> {
  const path = new URL(url).pathname;
  const requests = fresh
    ? [{ method: 'GET' as const, setupRequest: (r: object) => ({ ...r, path: `${path}?view=${++views}` }) }]
    : undefined;
  const opts = { url, connections: CONNECTIONS, duration: seconds, headers, ...(requests ? { requests } : {}) };
  return bench.cannon(opts, measured && app.pid !== undefined ? [app.pid] : undefined);
}

const verdict = (ratio: number, budget: number | null) => (budget === null ? 'not judged' : ratio >= budget ? 'ok' : `BELOW ${budget}`);

type Row = Case & { app: bench.Run; ref: bench.Run; size: number; encoding: string };
const rows: Row[] = [];
console.log(`bench: ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per side and case, app and reference alternating`);
for (const c of cases.filter((x) => chosen(x.name))) {
  const probe = await bench.raw(appBase + c.path + (c.fresh ? '?view=0' : ''), c.headers);
  if (probe.status !== 200) throw new Error(`${c.name}: ${probe.status} ${probe.body.toString('utf8').slice(0, 200)}`);
  await reference.serve(probe);
  await run(appBase + c.path, c.headers, 1, false, c.fresh); // warm-up: JIT, caches
  await run(reference.url + c.path, c.headers, 1, false, c.fresh);
  const app: bench.Run[] = [];
  const ref: bench.Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    app.push(await run(appBase + c.path, c.headers, SECONDS, true, c.fresh));
    ref.push(await run(reference.url + c.path, c.headers, SECONDS, false, c.fresh));
  }
  const row = {
    ...c,
    app: bench.average(app),
    ref: bench.average(ref),
    size: probe.body.length,
    encoding: String(probe.headers['content-encoding'] ?? '-'),
  };
  rows.push(row);
  const ratio = row.app.rps / row.ref.rps;
  console.log(
    `  ${c.name.padEnd(44)} app ${row.app.rps.toFixed(0).padStart(6)} req/s p99 ${String(row.app.p99).padStart(4)} ms ` +
      `cpu ${row.app.cpuUs === null ? '-' : row.app.cpuUs.toFixed(0).padStart(5)} µs/req | ` +
      `reference ${row.ref.rps.toFixed(0).padStart(6)} req/s | ${ratio.toFixed(2)} ${verdict(ratio, c.budget)}`,
  );
}

await reference.close();
await bench.stop(app);
bench.cleanup();

// ---------------------------------------------------------------------------------------------------------------
// The report: a Markdown table (bench/RESULTS.md keeps them)

console.log(`\n${bench.machine()} · ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s\n`);
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
