/**
 * `npm run bench:throughput`: server-rendered pages against the same bytes sent as a static file, side by side
 * in one run on this machine (docs/rules/limits.md#6-page-budgets): anonymous pages (/, /all-lotteries) must reach ≥ 50 % of the
 * static file's requests per second, a logged-in page (/profile) ≥ 25 %. Uses the built app (`npm run build`)
 * on the embedded database with the demo data; loopback traffic only, bounded in time. Exits 1 below budget.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { DEMO_STAFF } from '../server/db/seed.ts';
import { sessionCookieName } from '../server/bff/session.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'bhagya-bench-'));
const app = await createApp(
  loadConfig({
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'silent',
    PORT: '0',
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-'.padEnd(40, 'x'),
    // Production refuses the log transport; the bench sends no code or mail (closed loopback ports).
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
  }),
  { inMemoryDb: true },
);
const server = app.app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// The static twin: the bytes of `/` as a file under /assets, through the same middleware.
const home = await (await fetch(`${base}/`, { headers: { cookie: 'lang=en' } })).text();
const staticFile = path.join(root, 'dist/client/assets/bench-static.html');
writeFileSync(staticFile, home);

// A logged-in session, obtained as a browser without JavaScript does.
const loginPage = await fetch(`${base}/login`, { headers: { cookie: 'lang=en' } });
const jar = new Map<string, string>();
const keep = (r: Response) => {
  for (const c of r.headers.getSetCookie()) {
    const [kv] = c.split(';');
    const [k, v] = (kv as string).split('=');
    jar.set(k as string, v as string);
  }
};
keep(loginPage);
const csrf = /name="_csrf" value="([^"]+)"/.exec(await loginPage.text())?.[1] ?? '';
const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
const login = await fetch(`${base}/login`, {
  method: 'POST',
  redirect: 'manual',
  headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded', origin: base },
  body: new URLSearchParams({ identifier: DEMO_STAFF.phone, password: DEMO_STAFF.password, _csrf: csrf }),
});
keep(login);
// NODE_ENV=production above: the session cookie is __Host-bh_session.
if (!jar.has(sessionCookieName({ secure: true }))) throw new Error(`bench login failed (${login.status})`);

async function rps(url: string, headers: Record<string, string>): Promise<number> {
  const probe = await fetch(url, { headers });
  if (!probe.ok) throw new Error(`${url}: ${probe.status} ${(await probe.text()).slice(0, 200)}`);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

const anon = { cookie: 'lang=en', 'accept-encoding': 'gzip' };
const rows: [string, number, number][] = [];
const staticRps = await rps(`${base}/assets/bench-static.html`, anon);
rows.push(['static file (same bytes as /)', staticRps, 0]);
rows.push(['/ (anonymous)', await rps(`${base}/`, anon), 0.5]);
rows.push(['/all-lotteries (anonymous)', await rps(`${base}/all-lotteries`, anon), 0.5]);
rows.push(['/profile (logged in)', await rps(`${base}/profile`, { ...anon, cookie: `${cookie()}; lang=en` }), 0.25]);
if (process.env.BENCH_MORE)
  rows.push(['/my-lotteries (logged in)', await rps(`${base}/my-lotteries`, { ...anon, cookie: `${cookie()}; lang=en` }), 0.25]);
if (process.env.BENCH_MORE) rows.push(['/login (anonymous, uncached)', await rps(`${base}/login`, anon), 0]);

let failed = false;
console.log(`Requests per second, ${CONNECTIONS} connections, ${DURATION} s each:`);
for (const [name, value, min] of rows) {
  const share = value / staticRps;
  const ok = share >= min;
  failed ||= !ok;
  console.log(
    `  ${name.padEnd(32)} ${value.toFixed(0).padStart(7)} req/s  ${(share * 100).toFixed(0).padStart(4)} %${min ? `  budget ≥ ${min * 100} %  ${ok ? 'ok' : 'BELOW BUDGET'}` : ''}`,
  );
}
rmSync(staticFile, { force: true });
server.close();
server.closeAllConnections();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
