/**
 * The database goes away and comes back (docs/rules/operations.md#5-when-the-database-goes-away): the app reaches
 * PostgreSQL through a TCP proxy this test cuts — every open connection dropped, new ones refused — and then opens
 * again. Meanwhile purchases and pages answer a clear 503 `unavailable` with Retry-After in the caller's language,
 * /readyz fails, nothing crashes; afterwards the same app serves again without a restart, and every purchase that was
 * answered 201 is in the database once. PostgreSQL only (TEST_DATABASE_URL); `npm run proof` has the long version.
 */
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDb } from '../../server/db/index.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';
import { createUser, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { insertLottery, purchase } from './purchase-fixtures.ts';
import { until } from '../helpers/wait.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;

/** A TCP proxy to PostgreSQL that can be cut (open connections dropped, new ones refused) and opened again. */
class Proxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  private readonly target: { host: string; port: number };
  constructor(target: { host: string; port: number }) {
    this.target = target;
  }
  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => (this.server as Server).listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

onPostgres('the database goes away under load and comes back', () => {
  let db: TestDatabase;
  let proxy: Proxy;
  let app: App;
  let url: string;
  let listening: import('node:http').Server;

  beforeAll(async () => {
    db = await testDatabase();
    const direct = await db.open();
    const schema = (await direct.one<{ s: string }>('SELECT current_schema() AS s'))?.s as string;
    const target = new URL(pgUrl as string);
    proxy = new Proxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const viaProxy = new URL(pgUrl as string);
    viaProxy.port = String(proxy.port);
    const appDb = await openDb({ databaseUrl: viaProxy.toString(), schema, pool: { connectTimeoutMs: 1000 } });
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: `/tmp/bhagya-outage-${process.pid}`,
      SECRET_KEY: 'o'.repeat(48),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      PORT: '0',
      PASSWORD_HASH_COST: '10',
    });
    app = await createApp(config, { db: appDb, sendMessages: false });
    listening = app.app.listen(0, '127.0.0.1');
    await new Promise((r) => listening.once('listening', r));
    url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => listening.close(r));
    await app.close();
    await app.db.close();
    await proxy.cut();
    await db.drop();
  });

  test('503 in the caller’s language while it is gone, served again after, every answered purchase kept once', async () => {
    const t = { url, db: app.db } as TestApp;
    const u = await createUser(t, { phone: '01755500001' });
    const token = (await request(url).post('/api/token/').send({ phone: u.phone, password: u.password })).body.access as string;
    const page = await loginAs(url, u.phone, u.password);
    const lottery = await insertLottery(t, { name: 'Outage Draw' });
    const answered: string[] = [];
    let n = 0;
    const buy = async (lng = 'en') => {
      const key = `outage-${++n}`;
      const ticket = `0${1 + (n % 9)}-1${n % 10}-2${n % 10}-3${n % 10}-4${n % 10}-0${1 + (n % 9)}`;
      const r = await request(url)
        .post('/api/v1/transactions-create/')
        .set('Authorization', `Bearer ${token}`)
        .set('Accept-Language', lng)
        .set('Idempotency-Key', key)
        .send(purchase(lottery, ticket));
      if (r.status === 201) answered.push(key);
      return r;
    };
    expect((await buy()).status).toBe(201);
    expect((await page.get('/my-lotteries')).status).toBe(200);

    await proxy.cut();
    const refused = await buy();
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      detail: 'The service is busy or being restarted. Please try again in a few seconds.',
      code: 'unavailable',
    });
    expect(refused.headers['retry-after']).toBe('5');
    const inBengali = await buy('bn');
    expect(inBengali.status).toBe(503);
    expect(inBengali.body.detail).toBe('সেবাটি এই মুহূর্তে ব্যস্ত বা আবার চালু হচ্ছে। কয়েক সেকেন্ড পরে আবার চেষ্টা করুন।');
    expect((await request(url).get('/readyz')).status).toBe(503);
    const view = await page.get('/my-lotteries');
    expect(view.status).toBe(503);
    expect(view.headers['retry-after']).toBe('5');
    expect(view.text).toContain('The service is busy or being restarted. Please try again in a few seconds.');
    // A page, not a line of text: its heading, and the way back home.
    expect(view.headers['content-type']).toMatch(/^text\/html/);
    expect(view.text).toContain('<h1>Busy right now</h1>');
    expect(view.text).toContain('Back to home');
    const bnView = await page.get('/my-lotteries').set('Cookie', 'lang=bn');
    expect(bnView.status).toBe(503);
    expect(bnView.text).toContain('সেবাটি এই মুহূর্তে ব্যস্ত বা আবার চালু হচ্ছে।');
    expect(bnView.text).toContain('<html lang="bn"');
    expect(bnView.text).toContain('<h1>এই মুহূর্তে ব্যস্ত</h1>');
    expect(bnView.text).toContain('হোম পাতায় ফিরুন');
    expect((await request(url).get('/healthz')).status).toBe(200); // the process is alive

    await proxy.open();
    await until(async () => (await request(url).get('/readyz')).status === 200, 10_000, 200);
    expect((await buy()).status).toBe(201);
    expect((await page.get('/my-lotteries')).status).toBe(200);

    const kept = await app.db.query<{ idempotency_key: string }>(
      'SELECT idempotency_key FROM transactions WHERE user_id = $1 ORDER BY id',
      [u.id],
    );
    expect(kept.map((r) => r.idempotency_key)).toEqual(answered);
  }, 60_000);
});
