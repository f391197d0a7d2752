/**
 * A crash in the middle of money work (docs/rules/operations.md#8-a-crash): the real entry point in a process of its
 * own, killed with SIGKILL — no handler runs, nothing is flushed or closed — at the two worst moments, and started
 * again on the same database.
 *
 * 1. bKash has executed the player's payment (the money is taken) and the process dies before it commits what bKash
 *    answered: the process started next settles it by bKash's word (the reconciliation), once — the purchase
 *    confirmed, no second execute, no refund.
 * 2. The confirmation's SMS has been taken from the outbox (leased) and the process dies while the gateway has not
 *    accepted it: once the lease ends, the process started next sends it, once.
 *
 * On the embedded database the files are the ones a killed process left (its recovery is part of what is tested), on
 * PostgreSQL a database of its own.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIMULATOR_CREDENTIALS } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';
import { SANDBOX, startSimulator, type BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { createUser, type TestApp } from '../helpers/app.ts';
import { adminSql, copyMigratedPglite, databaseUrlFor } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { until } from '../helpers/wait.ts';
import { insertLottery, purchase } from './purchase-fixtures.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-crash-'));
const dbName = `crash_${randomBytes(5).toString('hex')}`;
const databaseUrl = pgUrl ? databaseUrlFor(pgUrl, dbName) : undefined;

/** The database as the test sees it. On the embedded one only while no server process holds its files. */
const openHere = (): Promise<Db> => openDb({ databaseUrl, dataDir: dir });

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openHere();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Kills `target` with SIGKILL and waits until it is gone (the test checks how it ended). */
async function kill(target: ServerProcess): Promise<void> {
  target.child.kill('SIGKILL');
  await target.exited;
}

/** Runs `cb` for each request with its whole body read. */
function serve(cb: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => cb(req, Buffer.concat(chunks), res));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

let sim: BkashSimulator;
let closeSim: () => Promise<void>;
let simUrl: string;
/** When set, the server process that bKash's execute answer would go to: killed once bKash has done the work. */
let killOnExecute: ServerProcess | null = null;
/**
 * When set, the server process (being started) whose SMS the gateway is receiving: killed before the gateway accepts
 * it. Armed before the process starts, as its jobs may send before the test hears that it listens.
 */
let killOnSms: Promise<ServerProcess> | null = null;
const smsArrived: string[] = [];
const smsAccepted: string[] = [];
const servers: Server[] = [];
let current: ServerProcess | null = null;

/** A way to bKash that lets its answers through, except an armed execute's. */
let proxyUrl: string;
/** The SMS gateway. */
let gatewayUrl: string;

beforeAll(async () => {
  const s = await startSimulator(SIMULATOR_CREDENTIALS);
  sim = s.sim;
  closeSim = s.close;
  simUrl = s.baseUrl;
  const proxy = await serve((req, body, res) => {
    const upstream = httpRequest(`${simUrl}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (c: Buffer) => parts.push(c));
      answer.on('end', () => {
        const victim = killOnExecute;
        if (victim && /\/execute$/.test(req.url ?? '')) {
          // bKash has executed the payment; its answer never reaches the process, which dies now.
          killOnExecute = null;
          void kill(victim).then(() => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(Buffer.concat(parts));
      });
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  });
  const gateway = await serve((_req, body, res) => {
    smsArrived.push(body.toString());
    const victim = killOnSms;
    if (victim) {
      killOnSms = null;
      void victim.then(kill).then(() => res.destroy());
      return;
    }
    smsAccepted.push(body.toString());
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  servers.push(proxy.server, gateway.server);
  proxyUrl = proxy.url;
  gatewayUrl = gateway.url;
  if (pgUrl) await adminSql(pgUrl, `CREATE DATABASE ${dbName}`);
  // The embedded database's files start as a copy of the run's migrated one (initdb and the migrations made once for
  // the run, docs/decisions/067-jest-in-a-fraction.md); what is tested is what the killed processes leave in them.
  else copyMigratedPglite(dir);
}, 60_000);

afterAll(async () => {
  if (current) current.child.kill('SIGKILL');
  await closeSim();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  if (pgUrl) await adminSql(pgUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}.lock`, { force: true });
}, 60_000);

async function start(): Promise<ServerProcess> {
  current = await startServerProcess({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DATA_DIR: dir,
    SECRET_KEY: 'c'.repeat(48),
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMS_GATEWAY_URL: `${gatewayUrl}/sms`,
    BKASH_MODE: 'sandbox',
    BKASH_BASE_URL: proxyUrl,
    BKASH_APP_KEY: SIMULATOR_CREDENTIALS.appKey,
    BKASH_APP_SECRET: SIMULATOR_CREDENTIALS.appSecret,
    BKASH_USERNAME: SIMULATOR_CREDENTIALS.username,
    BKASH_PASSWORD: SIMULATOR_CREDENTIALS.password,
    DRAND_URLS: 'none',
    // The reconciliation's first run and the messages' sender without production's 5-second waits: the test waits
    // for each (docs/decisions/067-jest-in-a-fraction.md).
    RECONCILE_FIRST_MS: '200',
    DISPATCH_EVERY_MS: '200',
  });
  return current;
}

type State = { status: string; payment: string; confirmed: number; sms: string | null; messages: number };

const stateOf = (db: Db, id: number): Promise<State> =>
  db.one<State>(
    `SELECT t.status,
            (SELECT state FROM bkash_payments WHERE transaction_id = t.id) AS payment,
            (SELECT count(*)::int FROM audit_log WHERE action = 'transaction.confirmed_by_bkash') AS confirmed,
            (SELECT sms_state FROM player_messages WHERE user_id = t.user_id AND kind = 'ticket_confirmed') AS sms,
            (SELECT count(*)::int FROM player_messages WHERE user_id = t.user_id AND kind = 'ticket_confirmed') AS messages
       FROM transactions t WHERE t.id = $1`,
    [id],
  ) as Promise<State>;

test('killed after bKash executed, then while sending the SMS: each settled once by the next process', async () => {
  // A player and a lottery on sale, written while no server runs.
  const { player, lottery } = await withDb(async (db) => {
    await migrate(db);
    const t = { db } as TestApp;
    return { player: await createUser(t, { phone: '01712340001', name: 'Karim Sheikh' }), lottery: await insertLottery(t) };
  });

  // First process: the purchase, bKash's checkout, the player's approval at bKash; killed as bKash executes it.
  const first = await start();
  const login = await fetch(`${first.url}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: player.phone, password: player.password }),
  });
  const auth = { authorization: `Bearer ${((await login.json()) as { access: string }).access}`, 'content-type': 'application/json' };
  const bought = await fetch(`${first.url}/api/v1/transactions-create/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(purchase(lottery, '05-12-23-34-45-07', { payment_number: undefined })),
  });
  expect(bought.status).toBe(201);
  const id = ((await bought.json()) as { id: number }).id;
  const checkout = await fetch(`${first.url}/api/v1/transactions/${id}/bkash-checkout/`, { method: 'POST', headers: auth });
  expect(checkout.status).toBe(201);
  const paymentID = ((await checkout.json()) as { payment_id: string }).payment_id;
  expect(await sim.pay(paymentID, SANDBOX)).toContain('status=success');

  killOnExecute = first;
  const callback = fetch(`${first.url}/api/v1/payments/bkash/callback/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentID, status: 'success' }),
  });
  await expect(callback).rejects.toThrow(); // the process died with the request
  expect(killOnExecute).toBeNull();
  expect(await first.exited).toBeNull(); // ended by the signal, not by an exit of its own
  // bKash took the money; our database never heard of it.
  expect(sim.payment(paymentID)).toMatchObject({ executed: 1 });
  await withDb(async (db) => {
    expect(await stateOf(db, id)).toEqual({ status: 'pending', payment: 'created', confirmed: 0, sms: null, messages: 0 });
    // Older than the reconciliation's wait (docs/rules/payments.md#5-reconciliation), as after a restart that took minutes.
    await db.query(`UPDATE bkash_payments SET created_at = now() - interval '10 minutes' WHERE payment_id = $1`, [paymentID]);
  });

  // Second process: its reconciliation settles the payment by bKash's word; the confirmation's SMS is taken from the
  // outbox, and the process is killed while the gateway holds it.
  const starting = start();
  killOnSms = starting;
  const second = await starting;
  await until(() => smsArrived.length > 0, 30_000, 200);
  expect(await second.exited).toBeNull();
  expect(smsAccepted).toEqual([]);
  await withDb(async (db) => {
    expect(await stateOf(db, id)).toEqual({ status: 'success', payment: 'completed', confirmed: 1, sms: 'sending', messages: 1 });
    // The lease the dead process held ends (a minute; made to have ended here).
    await db.query(`UPDATE player_messages SET sms_lease_until = now() - interval '1 second' WHERE kind = 'ticket_confirmed'`);
  });

  // Third process: sends the SMS once; nothing is settled twice.
  const third = await start();
  await until(() => smsAccepted.length > 0, 30_000, 200);
  // The player's token from the first process is good on the third; his purchase reads as paid.
  const mine = await fetch(`${third.url}/api/v1/my-transactions/${id}/`, { headers: auth });
  expect(mine.status).toBe(200);
  expect(((await mine.json()) as { status: string }).status).toBe('success');
  third.child.kill('SIGTERM');
  expect(await third.exited).toBe(0);
  current = null;
  expect(smsAccepted).toHaveLength(1);
  expect(smsAccepted[0]).toContain('01712340001');
  expect(smsArrived).toHaveLength(2); // the one the gateway never accepted, and the one it did
  expect(sim.payment(paymentID)).toMatchObject({ executed: 1 });
  expect(sim.calls('execute')).toBe(1);
  expect(sim.calls('refund')).toBe(0);
  await withDb(async (db) => {
    expect(await stateOf(db, id)).toEqual({ status: 'success', payment: 'completed', confirmed: 1, sms: 'sent', messages: 1 });
  });
}, 150_000);
