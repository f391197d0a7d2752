import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { keyringOf, type Keyring } from '../../server/crypto/sealed.ts';
import { openDb, type Db } from '../../server/db/index.ts';
import type { CodeMessage, Message, Notifier } from '../../server/notify/index.ts';
import { adminSql, freshPglite } from './database.ts';
import { uniquePhone } from './factories.ts';

export type TestApp = {
  /** http://127.0.0.1:PORT of the running server (supertest takes it as its app). */
  url: string;
  app: App;
  db: Db;
  /** Every one-time code message the app sent, newest last. */
  sent: CodeMessage[];
  /** Every message without a code the app sent (winners' notices), newest last. */
  messages: Message[];
  /** The capturing notifier the app was given (a test may replace its methods to make sending fail). */
  notifier: Notifier;
  /** The keys the app seals its secrets at rest with (its SECRET_KEY): a test opens a sealed seed or secret with them. */
  keys: Keyring;
  /** The latest code sent to this phone or e-mail (after the codes sent in the background went out). */
  lastCode(to: string, purpose?: CodeMessage['purpose']): Promise<string>;
  /** Waits for the codes the app sends after its answers (resend, password reset). */
  settled(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A whole app on a random port, as production runs it, on a fresh database: in-memory PGlite, or a fresh
 * schema in the PostgreSQL of TEST_DATABASE_URL (CI runs the API tests against both).
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bhagya-test-'));
  const pgUrl = process.env.TEST_DATABASE_URL;
  let schema: string | undefined;
  if (pgUrl) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    await adminSql(pgUrl, `CREATE SCHEMA ${schema}`);
  }
  const db = pgUrl ? await openDb({ databaseUrl: pgUrl, schema }) : await freshPglite();
  // Production refuses NOTIFY_TRANSPORT=log: a production-mode app is configured live, with mail and SMS on a closed
  // loopback port (nothing is sent anywhere); its codes are captured all the same by the notifier below.
  const production = (env.APP_ENV ?? env.NODE_ENV) === 'production';
  const live =
    production && !env.NOTIFY_TRANSPORT
      ? { NOTIFY_TRANSPORT: 'live', SMTP_URL: 'smtp://127.0.0.1:9', SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms' }
      : {};
  // Production also needs the bKash receiver number, and bKash's sandbox (on the same closed port) instead of the simulator.
  const receiver = production
    ? {
        BKASH_RECEIVER_NUMBER: '01800000000',
        BKASH_MODE: 'sandbox',
        BKASH_BASE_URL: 'http://127.0.0.1:9/bkash',
        BKASH_APP_KEY: 'test-app-key',
        BKASH_APP_SECRET: 'test-app-secret',
        BKASH_USERNAME: 'test-merchant',
        BKASH_PASSWORD: 'test-merchant-password',
        // Production fetches the draws' beacons from drand's relays by default: here from a closed port instead.
        DRAND_URLS: 'http://127.0.0.1:9',
      }
    : {};
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-'.padEnd(48, 'x'),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PAGE_CACHE_TTL_MS: '0',
    // Cheap password hashes outside production (docs/decisions/036-password-hash-cost-in-tests.md); production
    // refuses them, so a production-mode app keeps the real cost.
    ...(production ? {} : { PASSWORD_HASH_COST: '10' }),
    PORT: '0',
    ...live,
    ...receiver,
    ...env,
  });
  const sent: CodeMessage[] = [];
  const messages: Message[] = [];
  const notifier: Notifier = { sendCode: async (m) => void sent.push(m), send: async (m) => void messages.push(m) };
  // The capturing notifier, unless a test asks for the live transport itself.
  const app = await createApp(config, {
    db,
    sendMessages: false,
    freezeJob: false,
    upkeep: false,
    reconcileJob: false,
    calendarJob: false,
    // bKash's client repeats a call without an answer as in production, without its pauses: a test's bKash is most
    // often a closed port (PORT=0), and a TrxID given waited 0.6 s for nothing (docs/decisions/062-a-suite-in-15-minutes.md).
    bkashRetryDelayMs: 1,
    ...(env.NOTIFY_TRANSPORT === 'live' ? {} : { notifier }),
  });
  const server = app.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    app,
    db,
    sent,
    messages,
    notifier,
    keys: keyringOf(config),
    settled: () => app.settled(),
    async lastCode(to, purpose) {
      await app.settled();
      const m = [...sent].reverse().find((x) => x.to === to && (!purpose || x.purpose === purpose));
      if (!m) throw new Error(`no code was sent to ${to}`);
      return m.code;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await app.close();
      await db.close();
      if (pgUrl && schema) await adminSql(pgUrl, `DROP SCHEMA ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One scrypt hash per password for a test file: one stored hash, with its salt, verifies the same for every account
 * that shares the password (a hash at production's cost, N = 2^17, takes about 0.35 s of CPU).
 */
const hashes = new Map<string, Promise<string>>();
async function hashOnce(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    const { hashPassword } = await import('../../server/accounts/passwords.ts');
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
}

/** Creates an active player directly in the database (for tests that are not about registration). */
export async function createUser(
  t: TestApp,
  u: { name?: string; phone?: string; email?: string; password?: string; is_staff?: boolean; is_active?: boolean } = {},
) {
  const phone = u.phone ?? uniquePhone();
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO users (name, phone, email, password_hash, is_active, is_staff, phone_confirmed) VALUES ($1, $2, $3, $4, $5, $6, true) RETURNING id`,
    [
      u.name ?? 'Test Player',
      phone,
      u.email ?? null,
      await hashOnce(u.password ?? 'secret-pass-1'),
      u.is_active ?? true,
      u.is_staff ?? false,
    ],
  );
  return { id: row?.id as number, phone, password: u.password ?? 'secret-pass-1' };
}
