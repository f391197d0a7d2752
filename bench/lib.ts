/**
 * What the benches share (bench/throughput.ts, bench/traffic.ts): the built app in a process of its own, the bare
 * `node:http` reference that sends the bytes it is given, a logged-in session made through the login form,
 * autocannon with the app's CPU time per request (Linux /proc), and the line that describes the machine.
 * Everything a bench starts (processes, temporary directories) ends with it, whatever happens
 * (docs/rules/limits.md#6-page-budgets).
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, freemem, totalmem, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Db } from '../server/db/index.ts';

export const root = path.resolve(import.meta.dirname, '..');
const serverJs = path.join(root, 'dist/server/index.js');

/** Stops the bench with exit code 2 when there is no build to measure. */
export function requireBuild(): void {
  if (!existsSync(serverJs) || !existsSync(path.join(root, 'dist/client/manifest.json'))) {
    console.error('No build found: run `npm run build` first.');
    process.exit(2);
  }
}

/**
 * The settings every bench reads from its environment: BENCH_SECONDS (length of one measured run), BENCH_ROUNDS
 * (app/reference pairs per case), BENCH_CONNECTIONS (20), BENCH_ONLY (only the cases whose name contains it, or one of its
 * parts separated by `|`: `chosen` tells whether a case's name is selected; every case when it is unset).
 */
export function settings(defaults: { seconds: number; rounds: number }) {
  const env = process.env;
  const only = (env.BENCH_ONLY ?? '').split('|');
  return {
    seconds: Number(env.BENCH_SECONDS ?? defaults.seconds),
    rounds: Number(env.BENCH_ROUNDS ?? defaults.rounds),
    connections: Number(env.BENCH_CONNECTIONS ?? 20),
    chosen: (name: string) => only.some((part) => name.includes(part)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// What a bench leaves behind: nothing

const children = new Set<ChildProcess>();
const dirs: string[] = [];

/** A temporary directory, removed when the bench ends. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-bench-'));
  dirs.push(dir);
  return dir;
}

/** Kills every process the bench started and removes its temporary directories (again on exit). */
export function cleanup(): void {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Cleans up on exit, and stops the whole bench after `ms`, whatever hangs. */
export function hardLimit(ms: number): void {
  process.on('exit', cleanup);
  setTimeout(() => {
    console.error(`bench: still running after ${ms / 1000} s, stopped`);
    cleanup();
    process.exit(1);
  }, ms).unref();
}

// ---------------------------------------------------------------------------------------------------------------
// Processes: the built app and the bare reference

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Raw = { status: number; rawHeaders: string[]; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * One request with node:http: the bytes as sent (no decompression), the headers as they came. On a kept-alive socket
 * the server closed as the request went out (its keep-alive timeout), the request is sent once more on a new one, as
 * Node's documentation advises (`request.reusedSocket`).
 */
export function raw(url: string, headers: Record<string, string>, method = 'GET', body?: string, agent?: http.Agent): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: agent ?? false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(parts) }),
      );
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && err.code === 'ECONNRESET') raw(url, headers, method, body, agent).then(resolve, reject);
      else reject(err);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.end(body);
  });
}

/** The merchant the bench's app is at bKash: its credentials and wallet, which a simulator answering it must know. */
export const BKASH_MERCHANT = {
  appKey: 'bench-app-key',
  appSecret: 'bench-app-secret',
  username: 'bench-merchant',
  password: 'bench-merchant-password',
  receiver: '01700000000',
} as const;

/**
 * The built server, production mode, nothing from the caller's environment but PATH and HOME; on PostgreSQL with a
 * `databaseUrl`, else on the embedded database in `dataDir`; `workers`: WEB_CONCURRENCY (unset: the app's own default,
 * one per core on PostgreSQL). Extra node options from BENCH_NODE_ARGS.
 */
export async function startApp(opts: {
  port: number;
  dataDir: string;
  databaseUrl?: string | undefined;
  workers?: number;
  /** Where bKash and the SMS gateway answer (bench/traffic.ts's stand-ins); unset: closed loopback ports. */
  services?: { bkash: string; sms: string };
}): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-'.padEnd(48, 'x'),
    // Production refuses the log transport; the bench sends no mail (a closed loopback port), and its SMS go to a
    // stand-in that accepts them where the caller runs one, else to a closed port.
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_GATEWAY_URL: opts.services?.sms ?? 'http://127.0.0.1:9/sms',
    BKASH_RECEIVER_NUMBER: BKASH_MERCHANT.receiver,
    // Production refuses the simulator mode: bKash's sandbox, at the simulator the caller runs (the bench pays by Send
    // Money only, so it answers Search Transaction) or else on a closed loopback port; and no drand relay (the demo
    // draws need none).
    BKASH_MODE: 'sandbox',
    BKASH_BASE_URL: opts.services?.bkash ?? 'http://127.0.0.1:9/bkash',
    BKASH_APP_KEY: BKASH_MERCHANT.appKey,
    BKASH_APP_SECRET: BKASH_MERCHANT.appSecret,
    BKASH_USERNAME: BKASH_MERCHANT.username,
    BKASH_PASSWORD: BKASH_MERCHANT.password,
    DRAND_URLS: 'none',
    DATA_DIR: opts.dataDir,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    // One process per core on PostgreSQL unless told (docs/rules/operations.md#6-several-instances).
    ...(opts.workers ? { WEB_CONCURRENCY: String(opts.workers) } : {}),
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
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
    const ok = await raw(`http://127.0.0.1:${opts.port}/readyz`, {}).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return child;
    await sleep(200);
  }
}

/** Runs `fn` over the items, `width` at a time (logins: each costs a production-strength hash, bench/traffic.ts). */
export async function inTurn<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (i < items.length) await fn(items[i++] as T);
    }),
  );
}

export async function stop(child: ChildProcess): Promise<void> {
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

export type Reference = Awaited<ReturnType<typeof startReference>>;

/** Headers that frame a response on its connection: a server that sends captured bytes again frames them itself. */
const FRAMING = ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'];

/** A captured response's raw headers without its framing, nor the headers named in `also` (lower case). */
export function withoutFraming(rawHeaders: readonly string[], also: readonly string[] = []): string[] {
  const headers: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const k = (rawHeaders[i] as string).toLowerCase();
    if (!FRAMING.includes(k) && !also.includes(k)) headers.push(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  }
  return headers;
}

/**
 * A child process of the bench that talks to it over IPC, ended with the bench (cleanup); `next` waits for its next
 * message. Its first message names the port it listens on.
 */
async function serverChild<M extends { port?: number }>(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(process.execPath, args, { ...opts, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const next = () => new Promise<M>((resolve) => child.once('message', (m) => resolve(m as M)));
  const { port } = await next();
  return { child, next, url: `http://127.0.0.1:${port}` };
}

export async function startReference() {
  const { child, next, url } = await serverChild(['-e', REFERENCE]);
  return {
    url,
    /** Serves this response from now on: the app's headers as they came, but the framing is the reference's own. */
    async serve(r: Raw) {
      const headers = withoutFraming(r.rawHeaders);
      headers.push('Content-Length', String(r.body.length));
      const ack = next();
      child.send({ status: r.status, headers, body: r.body.toString('base64') });
      await ack;
    },
    close: () => stop(child),
  };
}

/**
 * The render floor (bench/render-floor.ts): a bare `node:http` server that renders the page it is given from that
 * page's own data for every request, with no session, no database and no middleware. Run from the sources with tsx,
 * React in its production build.
 */
export async function startRenderFloor() {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const { child, next, url } = await serverChild<{ port?: number; set?: boolean; bytes?: number; error?: string }>(
    [...nodeArgs, '--import', 'tsx', path.join(root, 'bench/render-floor.ts')],
    { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' } },
  );
  return {
    url,
    pid: child.pid,
    /** Renders this page from now on (`add`: this one too, each request the next in turn); answers the length of its HTML. */
    async serve(url: string, r: Raw, add = false): Promise<number> {
      const ack = next();
      child.send({ url, status: r.status, rawHeaders: r.rawHeaders, body: r.body.toString('base64'), add });
      const m = await ack;
      if (!m.set) throw new Error(`render floor: ${m.error ?? 'refused the page'}`);
      return m.bytes ?? 0;
    },
    close: () => stop(child),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A logged-in session, obtained as a browser without JavaScript does (in production the cookies are __Host-)

export const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en-GB,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (bhagya bench)',
};

/**
 * Logs in through the no-JavaScript login form (GET /login for the CSRF token, POST /login) and answers the
 * `Cookie` header of the session, with `lang=en`. `headers` go with both requests (e.g. an X-Forwarded-For).
 */
export async function formLogin(base: string, phone: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (r: Raw) => {
    for (const c of ([] as string[]).concat(r.headers['set-cookie'] ?? [])) {
      const pair = c.slice(0, c.includes(';') ? c.indexOf(';') : undefined);
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const cookieHeader = () => [...[...jar].map(([k, v]) => `${k}=${v}`), 'lang=en'].join('; ');
  const loginPage = await raw(`${base}/login`, { ...BROWSER, ...headers, cookie: 'lang=en' });
  keep(loginPage);
  const loginHtml = loginPage.body.toString('utf8');
  const csrf = /name="_csrf"[^>]*value="([^"]*)"/.exec(loginHtml)?.[1];
  const identifier = /\bname="([^"]+)"[^>]*autoComplete="username"|autoComplete="username"[^>]*\bname="([^"]+)"/i.exec(loginHtml);
  const form = new URLSearchParams({ _csrf: csrf ?? '', [identifier?.[1] ?? identifier?.[2] ?? 'phone']: phone, password });
  const login = await raw(
    `${base}/login`,
    { ...BROWSER, ...headers, cookie: cookieHeader(), origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    'POST',
    form.toString(),
  );
  keep(login);
  if (login.status !== 303 || !jar.has('__Host-bh_session')) throw new Error(`bench login of ${phone} failed (${login.status})`);
  return cookieHeader();
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

/** USER_HZ: 100 on Linux everywhere this runs. */
const CLOCK_TICKS = 100;

/**
 * These processes and every process they started (an app's workers), from /proc (Linux; none elsewhere). A process
 * that ends while it is listed is left out, with what it started.
 */
export function withDescendants(pids: readonly number[]): number[] {
  const all: number[] = [];
  const visit = (pid: number) => {
    try {
      const tasks = readdirSync(`/proc/${pid}/task`);
      all.push(pid);
      for (const task of tasks)
        for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) visit(Number(child));
    } catch {
      // gone meanwhile, or no /proc
    }
  };
  for (const pid of pids) visit(pid);
  return all;
}

/**
 * A process's or thread's name and ticks of CPU so far (user + system), from its `/proc/…/stat`: the name is between
 * the first `(` and the last `)`, and may hold either; the ticks are the 14th and 15th fields.
 */
function statOf(stat: string): { name: string; ticks: number } {
  const end = stat.lastIndexOf(')');
  const fields = stat.slice(end + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, end), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** Ticks of CPU (user + system) of each of these processes so far, from /proc; a process gone meanwhile is left out. */
function ticksOf(pids: readonly number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids)
    try {
      const t = statOf(readFileSync(`/proc/${pid}/stat`, 'utf8')).ticks;
      if (Number.isFinite(t)) ticks.set(pid, t);
    } catch {
      // ended between the listing and the reading
    }
  return ticks;
}

/**
 * A stopwatch of the CPU time (user + system) of the processes `list` names (not their children: an app's are
 * `() => withDescendants(pids)`): started now, it answers the ms they have used since, those started meanwhile counted
 * from their start and those ended meanwhile not at all (replaced workers do not happen in a bench; a run where one did
 * is visible in the app's log); null when none is found (off Linux, or a database on another machine). Per request it
 * is what a page costs.
 */
export function cpuClock(list: () => readonly number[]): () => number | null {
  const before = ticksOf(list());
  return () => {
    const after = ticksOf(list());
    if (!after.size) return null;
    let ticks = 0;
    for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    return (ticks * 1000) / CLOCK_TICKS;
  };
}

/** Where an app process's CPU went: its main thread (HTTP, render), the embedded database's thread, the others (V8's garbage collection helpers, libuv's pool). */
export type Threads = { main: number; database: number; other: number };

/** The thread PGlite runs in (server/db/pglite-thread.ts names it `embedded-database`; Linux keeps 15 characters). */
const DATABASE_THREAD = 'embedded-databa';

/** Ticks of CPU of every thread of these processes so far, by thread id, with the part of the app it is. */
function threadTicksOf(pids: readonly number[]): Map<number, { part: keyof Threads; ticks: number }> {
  const ticks = new Map<number, { part: keyof Threads; ticks: number }>();
  for (const pid of pids)
    try {
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const { name, ticks: t } = statOf(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8'));
        const part = Number(task) === pid ? 'main' : name === DATABASE_THREAD ? 'database' : 'other';
        if (Number.isFinite(t)) ticks.set(Number(task), { part, ticks: t });
      }
    } catch {
      // ended between the listing and the reading
    }
  return ticks;
}

/** A stopwatch as cpuClock, by part of the app (ms each); null off Linux. */
export function threadClock(list: () => readonly number[]): () => Threads | null {
  const before = threadTicksOf(list());
  return () => {
    const after = threadTicksOf(list());
    if (!after.size) return null;
    const ms: Threads = { main: 0, database: 0, other: 0 };
    for (const [tid, { part, ticks }] of after) ms[part] += ((ticks - (before.get(tid)?.ticks ?? 0)) * 1000) / CLOCK_TICKS;
    return ms;
  };
}

/** A stopwatch of the whole machine: the share of its CPUs' time that was busy since it started (0–1); null off Linux. */
export function machineClock(): () => number | null {
  const read = () => {
    try {
      const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
      const idle = (f[3] ?? 0) + (f[4] ?? 0);
      return { all: f.reduce((a, b) => a + b, 0), idle };
    } catch {
      return null;
    }
  };
  const before = read();
  return () => {
    const after = read();
    if (!before || !after || after.all <= before.all) return null;
    return 1 - (after.idle - before.idle) / (after.all - before.all);
  };
}

/**
 * Every PostgreSQL server process on this machine (the postmaster, its backends and helpers: their command is
 * `postgres`), from /proc (Linux; none elsewhere). A bench on PostgreSQL measures them beside the app: the database
 * shares the machine's cores with the app when both run on it, as in bench:traffic.
 */
export function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * `cpuUs`: the measured processes' CPU per request; `dbCpuUs`: the database's beside them, where it was measured;
 * `threadsUs`: the measured processes' CPU per request by part (threadClock); `busy`: the machine's share busy (machineClock).
 */
export type Run = {
  rps: number;
  p99: number;
  cpuUs: number | null;
  dbCpuUs: number | null;
  threadsUs: Threads | null;
  busy: number | null;
  total: number;
};

/**
 * One autocannon run; every answer must be a 2xx. With `pids`, the CPU time those processes used during the run,
 * per request answered; with `db`, also that of the processes it lists (before and after the run: a database's
 * backends), a process started meanwhile counted from its start. A run of a fixed `amount` of requests is timed from
 * its start to its last answer: autocannon itself ends it at its next one-second sample, and its duration is that
 * rounded up to whole seconds.
 */
export async function cannon(opts: autocannon.Options, pids?: readonly number[], db?: () => readonly number[]): Promise<Run> {
  const appClock = pids ? cpuClock(() => withDescendants(pids)) : null;
  const threads = pids ? threadClock(() => withDescendants(pids)) : null;
  const machine = machineClock();
  const dbClock = db ? cpuClock(db) : null;
  const start = performance.now();
  let last = start;
  const timed = (opts.requests ?? [{}]).map((q) => ({
    ...q,
    onResponse: (status: number, body: string, context: object, headers?: http.IncomingHttpHeaders) => {
      last = performance.now();
      if (typeof q.onResponse === 'function') q.onResponse(status, body, context, headers);
    },
  }));
  const r = await autocannon(opts.amount ? { ...opts, requests: timed } : opts);
  const where = ([] as string[]).concat(opts.url).join(', ');
  if (r.non2xx || r.errors || r.timeouts)
    throw new Error(`${where}: ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodeStats)}), ${r.errors} errors, ${r.timeouts} timeouts`);
  const total = r.requests.total;
  const perRequest = (clock: (() => number | null) | null) => {
    const ms = clock ? clock() : null;
    return ms !== null && total > 0 ? (ms * 1000) / total : null;
  };
  const cpuUs = perRequest(appClock);
  const dbCpuUs = perRequest(dbClock);
  const byPart = threads?.() ?? null;
  const threadsUs =
    byPart && total > 0
      ? { main: (byPart.main * 1000) / total, database: (byPart.database * 1000) / total, other: (byPart.other * 1000) / total }
      : null;
  const rps = opts.amount ? (total * 1000) / (last - start) : r.requests.average;
  return { rps, p99: r.latency.p99, cpuUs, dbCpuUs, threadsUs, busy: machine(), total };
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** The mean of several runs of one side of a case. */
export function average(runs: Run[]): Run {
  const cpu = runs.map((r) => r.cpuUs).filter((x): x is number => x !== null);
  const db = runs.map((r) => r.dbCpuUs).filter((x): x is number => x !== null);
  const threads = runs.map((r) => r.threadsUs).filter((x): x is Threads => x !== null);
  const busy = runs.map((r) => r.busy).filter((x): x is number => x !== null);
  return {
    rps: mean(runs.map((r) => r.rps)),
    p99: mean(runs.map((r) => r.p99)),
    cpuUs: cpu.length ? mean(cpu) : null,
    dbCpuUs: db.length ? mean(db) : null,
    threadsUs: threads.length
      ? { main: mean(threads.map((t) => t.main)), database: mean(threads.map((t) => t.database)), other: mean(threads.map((t) => t.other)) }
      : null,
    busy: busy.length ? mean(busy) : null,
    total: runs.reduce((a, r) => a + r.total, 0),
  };
}

/** The line a report starts with: when, which node, which machine, how busy. */
export function machine(): string {
  const info = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const cpu = /model name\s*:\s*(.*)/.exec(info)?.[1] ?? cpus()[0]?.model;
  const load = existsSync('/proc/loadavg') ? ` · load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}` : '';
  return (
    `${new Date().toISOString()} · node ${process.version} · ${cpus().length} CPUs (${cpu}) · ` +
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB memory (${(freemem() / 2 ** 30).toFixed(1)} free)${load}`
  );
}

/**
 * The benches' accounts carry a cheap scrypt hash (N = 2^12; the parameters travel in the hash,
 * server/accounts/passwords.ts): logging many accounts in then takes seconds, not minutes. Logging in is not what is
 * measured.
 */
export function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 12, r: 8, p: 1 });
  return `scrypt$${2 ** 12}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A numbers lottery on sale (price 100, 5,000,000 tickets, jackpot 50 % of the sales) with `sales` tickets already
 * sold, a tenth of them still pending, one a second up to now: ticket i bought by `buyers[⌊i / perBuyer⌋]` (the last
 * buyer takes the rest). Its tickets are distinct two-digit groups, i in base 100, so each has a 00 group and none is a
 * combination a bench's player buys. Returns the lottery's id.
 */
export async function storeNumbersLottery(
  db: Db,
  o: { name: string; name_bn: string; sales: number; buyers: readonly number[]; perBuyer: number },
): Promise<number> {
  const lottery = await db.one<{ id: number }>(
    `INSERT INTO lotteries (name, name_bn, description, description_bn, start_date, end_date, ticket_price, total_tickets, winners,
       total_prize, published, featured, kind, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize)
     VALUES ($1, $2, '', '', now() - interval '1 day', now() + interval '6 days', 100, 5000000, 1, 1,
       true, true, 'numbers', 50, 20000, 2000, 200, 20) RETURNING id`,
    [o.name, o.name_bn],
  );
  if (!lottery) throw new Error('the lottery was not stored');
  const group = (div: number) => `lpad((i / ${div} % 100)::text, 2, '0')`;
  await db.query(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, status, created_at)
     SELECT ($1::bigint[])[LEAST(i / $4 + 1, array_length($1::bigint[], 1))], $2,
       ${[1e10, 1e8, 1e6, 1e4, 100, 1].map(group).join(` || '-' || `)}, 100, 'payment', 'bkash',
       CASE WHEN i % 10 = 9 THEN 'pending' ELSE 'success' END, now() - make_interval(secs => ($3::bigint - i)::float8)
     FROM generate_series(0::bigint, $3::bigint - 1) AS i`,
    [o.buyers, lottery.id, o.sales, o.perBuyer],
  );
  await db.query('ANALYZE');
  return lottery.id;
}
