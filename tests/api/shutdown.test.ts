/**
 * A graceful stop (docs/rules/operations.md#4-stopping), of the real entry point in a process of its own: on SIGTERM
 * /readyz fails at once while new connections are still taken for the drain period, a request in flight finishes and
 * its write is committed and answered, then new connections are refused, the embedded database is closed cleanly
 * (its lock released) and the process exits 0.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb } from '../../server/db/index.ts';
import { startServerProcess } from '../helpers/process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ADMIN = { phone: '01700000099', password: 'stop-admin-pass-1' };
const DRAIN_MS = 1500;

const start = () =>
  startServerProcess(
    {
      DATA_DIR: dir,
      ADMIN_PHONE: ADMIN.phone,
      ADMIN_PASSWORD: ADMIN.password,
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    },
    90_000,
  );

/** A raw HTTP/1.1 exchange on a socket of its own: the request is written in two parts, `first` now, the rest on `finish()`. */
function halfSent(port: number, request: string, split: number) {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(request.slice(0, split));
  return { finish: () => socket.write(request.slice(split)), ended };
}

const get = (port: number, p: string) => fetch(`http://127.0.0.1:${port}${p}`);

test('SIGTERM: not ready at once, the request in flight committed and answered, then refused, closed cleanly, exit 0', async () => {
  const { child, port, exited } = await start();
  expect((await get(port, '/readyz')).status).toBe(200);

  const body = JSON.stringify({ phone: ADMIN.phone, password: ADMIN.password });
  const login = halfSent(
    port,
    `POST /api/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    60,
  );
  await new Promise((r) => setTimeout(r, 200)); // the headers are read: the request is in flight
  const stoppedAt = Date.now();
  child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 100));

  // Draining: not ready, but still serving, and each answer closes its connection.
  const ready = await get(port, '/readyz');
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ status: 'shutting down' });
  const alive = await get(port, '/healthz');
  expect(alive.status).toBe(200);
  expect(alive.headers.get('connection')).toBe('close');

  // The request in flight finishes, with its answer.
  login.finish();
  const answer = await login.ended;
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(answer).toContain('"access":"');

  // After the drain period, no new connection is taken; the process ends by itself, cleanly.
  await new Promise((r) => setTimeout(r, Math.max(0, stoppedAt + DRAIN_MS + 300 - Date.now())));
  await expect(get(port, '/healthz')).rejects.toThrow();
  expect(await exited).toBe(0);
  expect(existsSync(path.join(dir, 'pglite.lock'))).toBe(false);

  // The login's session was committed.
  const db = await openDb({ dataDir: dir });
  try {
    const rows = await db.query(
      `SELECT r.jti FROM refresh_tokens r JOIN users u ON u.id = r.user_id WHERE u.phone = $1 AND r.revoked_at IS NULL`,
      [ADMIN.phone],
    );
    expect(rows).toHaveLength(1);
  } finally {
    await db.close();
  }
}, 120_000);
