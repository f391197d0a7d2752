/**
 * A start that cannot succeed prints one line on stderr naming the cause, and exits non-zero (server/index.ts,
 * server/startup.ts): a bad configuration, a database that cannot be reached, a port in use. The real entry point,
 * in a process of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** server/index.ts with these variables only (and PATH): its exit code and what it wrote to stderr. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-startup-'));
  dirs.push(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, LOG_LEVEL: 'error', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 80_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr });
    }),
  );
}

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

async function listening(): Promise<Server> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return s;
}
const portOf = (s: Server) => (s.address() as AddressInfo).port;

test('a bad configuration: one line naming each bad variable, exit code 2', async () => {
  const r = await start({ NODE_ENV: 'production', PORT: '0' });
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(/^Bhagya cannot start: invalid configuration: SECRET_KEY: is required in production; NOTIFY_TRANSPORT: /);
  expect(r.code).toBe(2);
}, 60_000);

test('a database that refuses the connection: one line naming it (not the password), exit code 1', async () => {
  const closed = await listening();
  const port = portOf(closed);
  await new Promise((r) => closed.close(r));
  const r = await start({ DATABASE_URL: `postgres://bhagya:s3cret@127.0.0.1:${port}/bhagya`, PORT: '0' });
  expect(lines(r.stderr)).toEqual([
    `Bhagya cannot start: the database (PostgreSQL at 127.0.0.1:${port}/bhagya) refused the connection (ECONNREFUSED); check DATABASE_URL and that PostgreSQL is running`,
  ]);
  expect(r.code).toBe(1);
}, 60_000);

test('a port in use: one line naming it, exit code 1', async () => {
  const taken = await listening();
  try {
    const r = await start({ PORT: String(portOf(taken)), SEED_DEMO: 'false' });
    expect(lines(r.stderr)).toEqual([
      `Bhagya cannot start: port ${portOf(taken)} on 127.0.0.1 is already in use (another server is running there); stop it or set PORT`,
    ]);
    expect(r.code).toBe(1);
  } finally {
    taken.close();
  }
}, 90_000); // the embedded database is created and migrated before the server listens

(process.env.TEST_DATABASE_URL ? test : test.skip)(
  'PostgreSQL without the database named: one line saying so, exit code 1',
  async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = '/no_such_database';
    const r = await start({ DATABASE_URL: url.toString(), PORT: '0' });
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^Bhagya cannot start: the database \(PostgreSQL at [^)]+\/no_such_database\) has no such database: /);
    expect(r.code).toBe(1);
  },
  60_000,
);
