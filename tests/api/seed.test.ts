/**
 * The demo seed (server/db/seed.ts, docs/rules/accounts-and-codes.md#12-staff-and-superusers): no published staff
 * password beside a real ADMIN_PHONE, no collision with an existing account, and instances starting together on one
 * database all come up with one set of demo data. On PGlite and, in CI's jest-pg step, on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyPassword } from '../../server/accounts/passwords.ts';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/index.ts';
import { DEMO_PLAYERS, DEMO_STAFF } from '../../server/db/seed.ts';
import { normalisePhone } from '../../shared/identifiers.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An app instance on db as a start with these variables builds it (codes captured, nothing sent). */
async function start(db: Db, env: Record<string, string> = {}): Promise<App> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-seed-'));
  dirs.push(dir);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    SECRET_KEY: 'seed-test-'.padEnd(48, 'x'),
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    // Cheap password hashes, as every test app has them (docs/decisions/036-password-hash-cost-in-tests.md): the demo
    // logins were hashed at production's cost, 0.35 s of CPU and 128 MB each.
    PASSWORD_HASH_COST: '10',
    ...env,
  });
  return createApp(config, { db, notifier: { sendCode: async () => undefined, send: async () => undefined } });
}

const users = (db: Db) =>
  db.query<{ phone: string; is_staff: boolean; is_superuser: boolean; password_hash: string }>(
    'SELECT phone, is_staff, is_superuser, password_hash FROM users ORDER BY phone',
  );
const count = async (db: Db, table: string) => Number((await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))?.n);

describe('demo seed', () => {
  let d: TestDatabase;
  beforeEach(async () => {
    d = await testDatabase();
  });
  afterEach(async () => {
    await d.drop();
  });

  test('without ADMIN_PHONE: the demo staff login with the published password, sample lotteries, and sample players with numbers no operator assigns (010…) and no password', async () => {
    const db = await d.open();
    const app = await start(db);
    const all = await users(db);
    const staff = all.find((u) => u.phone === DEMO_STAFF.phone);
    expect(staff).toMatchObject({ is_staff: true });
    expect(await verifyPassword(DEMO_STAFF.password, staff?.password_hash ?? '')).toBe(true);
    expect(await count(db, 'lotteries')).toBeGreaterThan(0);
    const players = all.filter((u) => !u.is_staff);
    expect(players.map((u) => u.phone)).toEqual(DEMO_PLAYERS.map((p) => p.phone));
    for (const p of players) {
      expect(p.phone).toMatch(/^010\d{8}$/);
      expect(normalisePhone(p.phone)).toBe(p.phone); // the phone rule still reads it
      expect(await verifyPassword('', p.password_hash)).toBe(false);
    }
    await app.close();
  });

  test.each([
    ['a number the sample players used to have (the start crashed)', '01711000000'],
    ["a sample player's number", DEMO_PLAYERS[0].phone],
  ])('ADMIN_PHONE equal to %s: the start succeeds, the administrator keeps the number, no demo staff login', async (_, phone) => {
    const db = await d.open();
    const app = await start(db, { ADMIN_PHONE: phone, ADMIN_PASSWORD: 'admin-pass-1' });
    const all = await users(db);
    expect(all.map((u) => u.phone)).not.toContain(DEMO_STAFF.phone);
    expect(all.filter((u) => u.is_staff).map((u) => u.phone)).toEqual([phone]);
    const admin = all.find((u) => u.phone === phone);
    expect(admin).toMatchObject({ is_staff: true, is_superuser: true });
    expect(await verifyPassword('admin-pass-1', admin?.password_hash ?? '')).toBe(true);
    expect(await count(db, 'lotteries')).toBeGreaterThan(0);
    expect(await count(db, 'prizes')).toBeGreaterThan(0);
    await app.close();
  });

  test('two instances starting at the same moment on one database both come up, with one set of demo data', async () => {
    const [a, b] = await Promise.all([d.open(), d.open()]);
    const apps = await Promise.all([start(a), start(b)]);
    const once = { users: await count(a, 'users'), lotteries: await count(a, 'lotteries'), prizes: await count(a, 'prizes') };
    expect(once.users).toBe(1 + DEMO_PLAYERS.length);
    // A third start later finds it all there.
    const c = await start(await d.open());
    expect({ users: await count(a, 'users'), lotteries: await count(a, 'lotteries'), prizes: await count(a, 'prizes') }).toEqual(once);
    for (const app of [...apps, c]) await app.close();
  });
});
