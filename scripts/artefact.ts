/**
 * `npm run test:artefact`: builds the production artefact the Dockerfile describes, with the Dockerfile's own
 * commands, in clean folders (docs/rules/operations.md#7-the-container), and serves a page from it — where no
 * container engine runs. Each stage is a folder; its WORKDIR is that folder; COPY takes the files from a clean
 * checkout of the sources (`git ls-files`: nothing built or installed here leaks in) or, with --from, from the other
 * stage's folder; RUN runs in the folder with the stage's ENV. Then the final stage's CMD is started with the
 * Dockerfile's ENV and the secrets production requires, its HEALTHCHECK command is asked until it passes (within the
 * HEALTHCHECK's own `--start-period`, as the container engine gives a new container),
 * and `/` must answer 200 with the page.
 *
 * Run with Node 24 (`npm run test:artefact`, `npx node scripts/artefact.ts`): the stages use this Node for their
 * commands, as the image's base gives its own. Exit 0 when served, 1 otherwise.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'bhagya-artefact-'));
const keep = process.argv.includes('--keep');

type Stage = {
  name: string;
  dir: string;
  workdir: string;
  env: Record<string, string>;
  cmd: string[] | null;
  health: string[] | null;
  /** The HEALTHCHECK's `--start-period`: how long a new container has to become healthy. */
  startPeriodMs: number | null;
};
/** The final stage, with what serving it needs. */
type Final = Stage & { cmd: string[]; health: string[]; startPeriodMs: number };

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function instructions(file: string): { op: string; args: string }[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: { op: string; args: string }[] = [];
  let current = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (current && line.startsWith('#')) continue;
    current += (current ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(current);
    if (m) out.push({ op: (m[1] as string).toUpperCase(), args: m[2] as string });
    current = '';
  }
  return out;
}

/** ENV a=b c=d (the form this Dockerfile uses). */
function envPairs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) out[m[1] as string] = (m[2] as string).replace(/^"|"$/g, '');
  return out;
}

/** The sources as a clean checkout has them: tracked files only. */
const tracked = new Set(execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean));

function copyFromSources(src: string, dest: string): void {
  const rel = src.replace(/^\.\//, '').replace(/\/$/, '');
  const files = [...tracked].filter((f) => f === rel || f.startsWith(`${rel}/`));
  if (files.length === 0) throw new Error(`COPY ${src}: not in the sources`);
  for (const f of files) {
    const target =
      files.length === 1 && f === rel && !dest.endsWith('/') ? dest : path.join(dest, path.relative(rel, f) || path.basename(f));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(path.join(root, f), target);
  }
}

function run(stage: Stage, command: string): void {
  console.log(`[artefact] ${stage.name}: RUN ${command}`);
  // A home of its own (npm's cache and logs stay in the stage), with this machine's npm settings (its registry).
  const home = path.join(stage.dir, '.home');
  mkdirSync(home, { recursive: true });
  const npmrc = path.join(process.env.HOME ?? '/root', '.npmrc');
  if (existsSync(npmrc)) cpSync(npmrc, path.join(home, '.npmrc'));
  const r = spawnSync('sh', ['-c', command], {
    cwd: stage.workdir,
    stdio: 'inherit',
    env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: home, ...trust, ...stage.env },
  });
  if (r.status !== 0) throw new Error(`${stage.name}: RUN ${command} exited ${r.status}`);
}

const jsonArray = (args: string): string[] => JSON.parse(args) as string[];

/** What the final stage may add to its base (docs/rules/operations.md#7-the-container). */
const APP_BYTES_BUDGET = 50e6;

/** The bytes of the files under dir, the folders named in skip left out. */
function bytesIn(dir: string, skip: ReadonlySet<string>): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesIn(p, new Set());
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}

/** The system's certificate authorities for this Node (a registry behind a proxy with its own CA), as the image's base is given them. */
const SYSTEM_CA = '/etc/ssl/certs/ca-certificates.crt';
const trust: Record<string, string> = existsSync(SYSTEM_CA) ? { NODE_EXTRA_CA_CERTS: SYSTEM_CA } : {};

/** Builds every stage of the Dockerfile in `work`; the final one. */
function build(): Final {
  const stages = new Map<string, Stage>();
  let stage: Stage | null = null;
  for (const { op, args } of instructions(path.join(root, 'Dockerfile'))) {
    if (op === 'FROM') {
      const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${stages.size}`;
      const dir = path.join(work, name);
      stage = { name, dir, workdir: dir, env: {}, cmd: null, health: null, startPeriodMs: null };
      stages.set(name, stage);
      mkdirSync(dir, { recursive: true });
      continue;
    }
    if (!stage) throw new Error(`${op} before FROM`);
    if (op === 'WORKDIR') {
      stage.workdir = path.join(stage.dir, args.trim());
      mkdirSync(stage.workdir, { recursive: true });
    } else if (op === 'ENV') Object.assign(stage.env, envPairs(args));
    else if (op === 'COPY') {
      const from = /^--from=(\S+)\s+/.exec(args);
      const parts = args.replace(/^--\S+\s+/g, '').split(/\s+/);
      const rawDest = parts.pop() as string;
      const dest = path.resolve(stage.workdir, rawDest);
      // Into a folder when the destination says so (`./`, `.`) or several sources go there.
      const intoFolder = rawDest.endsWith('/') || rawDest === '.' || parts.length > 1;
      for (const src of parts) {
        if (from) {
          const other = stages.get(from[1] as string);
          if (!other) throw new Error(`COPY --from=${from[1]}: no such stage`);
          cpSync(path.join(other.dir, src), dest, { recursive: true });
        } else copyFromSources(src, intoFolder ? `${dest}/` : dest);
      }
    } else if (op === 'RUN') {
      // Commands that reach outside the stage's folder (the image's /data) are the image's own business.
      if (/^mkdir -p \/data/.test(args)) continue;
      run(stage, args);
    } else if (op === 'CMD') stage.cmd = jsonArray(args);
    else if (op === 'HEALTHCHECK') {
      stage.health = ['sh', '-c', args.replace(/^.*?\bCMD\s+/, '')];
      const period = /--start-period=(\d+)(ms|s|m)\b/.exec(args);
      if (period) stage.startPeriodMs = Number(period[1]) * ({ ms: 1, s: 1000, m: 60_000 } as const)[period[2] as 'ms' | 's' | 'm'];
    }
    // USER, VOLUME, EXPOSE: the container's, not the files'.
  }
  if (!stage?.cmd) throw new Error('the Dockerfile has no CMD');
  if (!stage.health) throw new Error('the Dockerfile has no HEALTHCHECK');
  if (stage.startPeriodMs === null) throw new Error('the HEALTHCHECK names no --start-period');
  return { ...stage, cmd: stage.cmd, health: stage.health, startPeriodMs: stage.startPeriodMs };
}

/** Checks the final stage's files and starts it as the container would; resolves once `/` served the page. */
/** A loopback port free now: the system's choice for a listener on port 0, closed again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

async function serve(final: Final): Promise<void> {
  for (const f of ['dist/server/index.js', 'dist/client/manifest.json'])
    if (!existsSync(path.join(final.workdir, f))) throw new Error(`the artefact has no ${f}`);
  // The server is bundled with its libraries: node_modules holds what the bundle leaves out (sharp), not React or TypeScript.
  for (const p of ['node_modules/typescript', 'node_modules/react', 'node_modules/@electric-sql/pglite'])
    if (existsSync(path.join(final.workdir, p))) throw new Error(`the artefact carries ${p}`);
  // What the image adds to its base: under 50 MB keeps it under 250 MB on Node 24 slim's 200 (decision 042).
  const added = bytesIn(final.workdir, new Set(['.home']));
  console.log(`[artefact] the app's files: ${(added / 1e6).toFixed(1)} MB`);
  if (added > APP_BYTES_BUDGET) throw new Error(`the app's files take ${(added / 1e6).toFixed(1)} MB, over ${APP_BYTES_BUDGET / 1e6} MB`);
  // What it leaves out loads there: sharp (uploads are re-encoded with it) finds its native library.
  const sharp = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const { default: s } = await import('sharp'); console.log(s.versions.vips)"],
    {
      cwd: final.workdir,
      encoding: 'utf8',
    },
  );
  if (sharp.status !== 0) throw new Error(`sharp does not load in the artefact: ${sharp.stderr.trim()}`);
  console.log(`[artefact] sharp loads with libvips ${sharp.stdout.trim()}`);

  // Production, as an operator starts it: the Dockerfile's ENV, the secrets production requires (nothing reachable:
  // closed loopback ports), and a port of its own: one the system has free now (a random number once met a port in
  // use, and the artefact "could not start").
  const port = await freePort();
  const env = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    ...final.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    SECRET_KEY: 'artefact-secret-'.padEnd(48, 'x'),
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
    BKASH_MODE: 'sandbox',
    BKASH_BASE_URL: 'http://127.0.0.1:9/bkash',
    BKASH_APP_KEY: 'k',
    BKASH_APP_SECRET: 's',
    BKASH_USERNAME: 'u',
    BKASH_PASSWORD: 'p',
    BKASH_RECEIVER_NUMBER: '01800000000',
    DRAND_URLS: 'none',
    LOG_LEVEL: 'warn',
  };
  const [program, ...args] = final.cmd;
  console.log(`[artefact] CMD ${final.cmd.join(' ')} on port ${port}`);
  const started = Date.now();
  const server = spawn(program === 'node' ? process.execPath : (program as string), args, { cwd: final.workdir, env, stdio: 'inherit' });
  let exited: number | null | undefined;
  server.on('exit', (code) => (exited = code));
  try {
    let healthy = false;
    while (!healthy && Date.now() - started < final.startPeriodMs && exited === undefined) {
      healthy = spawnSync(final.health[0] as string, final.health.slice(1), { env: { ...env, PATH: env.PATH } }).status === 0;
      if (!healthy) await new Promise((r) => setTimeout(r, 200));
    }
    if (!healthy)
      throw new Error(
        `not healthy within its start period, ${final.startPeriodMs / 1000} s (HEALTHCHECK ${final.health.join(' ')})${exited !== undefined ? `: exited ${exited}` : ''}`,
      );
    console.log(`[artefact] healthy after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'Accept-Language': 'bn' } });
    const html = await res.text();
    if (res.status !== 200 || !/<title>[^<]*Bhagya|<title>[^<]*ভাগ্য/.test(html))
      throw new Error(`GET / answered ${res.status}: ${html.slice(0, 200)}`);
    console.log(`[artefact] GET / 200, ${html.length} characters: served`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (exited !== undefined ? r(null) : server.on('exit', r)));
  }
}

async function main(): Promise<void> {
  await serve(build());
  if (!keep) rmSync(work, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`[artefact] failed: ${err instanceof Error ? err.message : String(err)}`);
    if (!keep) rmSync(work, { recursive: true, force: true });
    process.exit(1);
  },
);
