/**
 * `npm run bench:ttfb` (after `npm run build`, on PostgreSQL): how long a logged-in visitor of `/my-lotteries` waits
 * for the first byte of the page, and for its top bar, when the page's query is slow
 * (docs/decisions/028-streaming-render.md).
 *
 * - The app is the built server in production mode on PostgreSQL (BENCH_DATABASE_URL), with the demo data; the demo
 *   staff member logs in through the no-JavaScript login form.
 * - A slow query without a hook in the app: the bench holds `LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE` in a
 *   connection of its own for BENCH_SLOW_MS (300) while the page is asked for, so the page's read of the player's
 *   transactions waits that long; the session and the top bar read other tables.
 * - Each case BENCH_SAMPLES (15) times, one request at a time, with a browser's headers (gzip): time to the response
 *   headers (first byte), to the top bar's end (`</header>`, gunzipped as it comes), and to the end; medians, in ms;
 *   and how many responses came chunked (streamed) rather than whole with a Content-Length.
 * Loopback only, bounded in time, ends its processes; exits 2 without a build or without BENCH_DATABASE_URL.
 *
 *   bash scripts/with-postgres.sh sh -c 'BENCH_DATABASE_URL=$TEST_DATABASE_URL npm run bench:ttfb'
 */
import http from 'node:http';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import * as bench from './lib.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const samples = Number(process.env.BENCH_SAMPLES ?? 15);
const slowMs = Number(process.env.BENCH_SLOW_MS ?? 300);
const PAGE = '/my-lotteries';

bench.requireBuild();
if (!databaseUrl) {
  console.error('bench:ttfb runs on PostgreSQL: set BENCH_DATABASE_URL (see the head of bench/ttfb.ts).');
  process.exit(2);
}
bench.hardLimit(5 * 60_000);

type Timing = { status: number; head: number; topBar: number; end: number; chunked: boolean };

/** One page view: when the headers came, when the top bar was complete, when the response ended (ms from the send). */
function view(url: string, cookie: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.request(
      url,
      { headers: { ...bench.BROWSER, 'accept-encoding': 'gzip, deflate, br', cookie }, agent: false },
      (res) => {
        const head = performance.now() - start;
        let topBar = -1;
        let text = '';
        const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
        body.on('data', (c: Buffer) => {
          if (topBar >= 0) return;
          text += c.toString('latin1');
          if (text.includes('</header>')) topBar = performance.now() - start;
        });
        const chunked = res.headers['transfer-encoding'] === 'chunked';
        body.on('end', () => resolve({ status: res.statusCode ?? 0, head, topBar, end: performance.now() - start, chunked }));
        body.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${url}: no answer in 30 s`)));
    req.end();
  });
}

const port = await bench.freePort();
const base = `http://127.0.0.1:${port}`;
console.log(bench.machine());
const app = await bench.startApp({ port, dataDir: bench.tempDir(), databaseUrl });
const db = new pg.Client({ connectionString: databaseUrl });
try {
  await db.connect();
  const cookie = await bench.formLogin(base, '01900000000', 'bhagya-demo-2026');
  for (let i = 0; i < 5; i++) await view(base + PAGE, cookie); // warm up

  const measure = async (slow: boolean): Promise<Timing[]> => {
    const out: Timing[] = [];
    for (let i = 0; i < samples; i++) {
      if (slow) {
        await db.query('BEGIN');
        await db.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
        setTimeout(() => void db.query('COMMIT'), slowMs);
      }
      const t = await view(base + PAGE, cookie);
      if (t.status !== 200 || t.topBar < 0) throw new Error(`${PAGE}: ${t.status}, top bar ${t.topBar < 0 ? 'missing' : 'seen'}`);
      out.push(t);
      await bench.sleep(slow ? 50 : 10);
    }
    return out;
  };
  const row = (name: string, ts: Timing[]) => {
    const m = (k: 'head' | 'topBar' | 'end') => bench.median(ts.map((t) => t[k])).toFixed(1);
    const chunked = ts.filter((t) => t.chunked).length;
    console.log(`| ${name} | ${m('head')} | ${m('topBar')} | ${m('end')} | ${chunked} of ${ts.length} |`);
  };
  console.log(`\n${PAGE}, logged in, PostgreSQL, ${samples} views each, medians in ms\n`);
  console.log('| case | first byte | top bar complete | whole page | sent chunked |');
  console.log('|---|---|---|---|---|');
  row('query as it is', await measure(false));
  row(`query held ${slowMs} ms`, await measure(true));
} finally {
  await db.end().catch(() => undefined);
  await bench.stop(app);
  bench.cleanup();
}
