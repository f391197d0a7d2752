/**
 * Scale-out (docs/rules/operations.md#6-several-instances): three app instances, separate processes of the real entry
 * point of two workers each, started at the same moment on one empty PostgreSQL database, behave as one system. They migrate it once;
 * a session made on one is good on the others and ends on all of them at once; failed logins count together; and
 * each race run across the three — the last ticket, one combination, one activation, one claim, one payout, one draw — has
 * exactly one winner. PostgreSQL only (TEST_DATABASE_URL).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { openDb, type Db } from '../../server/db/index.ts';
import { createUser, type TestApp } from '../helpers/app.ts';
import { adminSql, databaseUrlFor } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { until } from '../helpers/wait.ts';
import { closeSales, insertLottery, purchase } from './purchase-fixtures.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { to, type Caller } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;
const root = path.resolve(import.meta.dirname, '../..');

const admin = (sql: string) => adminSql(pgUrl as string, sql);

/** How long an instance keeps an anonymous page (docs/rules/limits.md#5-timeouts-caches-and-housekeeping), short here. */
const CACHE_MS = 1500;

const startInstance = (databaseUrl: string, dataDir: string): Promise<ServerProcess> =>
  // Alive as long as the proof's rounds may take (the helper's guard kills a process left behind by a failed run).
  startServerProcess(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SECRET_KEY: 's'.repeat(48),
      NOTIFY_TRANSPORT: 'log',
      PAGE_CACHE_TTL_MS: String(CACHE_MS),
      // Each instance as the container runs it on two cores: two workers (docs/decisions/072-one-worker-per-core.md).
      WEB_CONCURRENCY: '2',
    },
    30 * 60_000,
  );

/**
 * Contenders in each race, spread over the three instances in turn: 3 in `npm test`, more in `npm run proof`
 * (RACE_CONTENDERS, docs/rules/operations.md#3-proof).
 */
const N = Math.max(3, Number(process.env.RACE_CONTENDERS ?? 3));
/** How many times each race is run, each time with new contenders (RACE_ROUNDS, 1 in `npm test`). */
const ROUNDS = Math.max(1, Number(process.env.RACE_ROUNDS ?? 1));
const rounds = Array.from({ length: ROUNDS }, (_, r) => (ROUNDS > 1 ? ` (round ${r + 1} of ${ROUNDS})` : ''));

/** The sorted statuses of a race that one contender won with `won` and every other lost with `lost`. */
const oneWinner = (won: number, lost: number) => [won, ...Array<number>(N - 1).fill(lost)].sort();

onPostgres('three instances as separate processes on one database', () => {
  const name = `scale_${randomBytes(5).toString('hex')}`;
  const dirs: string[] = [];
  let instances: ServerProcess[] = [];
  let db: Db;
  let t: TestApp;
  const on = (i: number) => (instances[i % instances.length] as ServerProcess).url;
  /** A request to endpoint `e` on instance `i`, as `as`. */
  const at = (i: number, e: Endpoint, o: { params?: Record<string, unknown>; as?: Caller } = {}) => to({ url: on(i) }, e, o);

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = databaseUrlFor(pgUrl as string, name);
    for (let i = 0; i < 3; i++) dirs.push(mkdtempSync(path.join(tmpdir(), 'bhagya-scale-')));
    // All three at the same moment, on a database with nothing in it.
    instances = await Promise.all(dirs.map((d) => startInstance(url, d)));
    db = await openDb({ databaseUrl: url });
    t = { db, url: on(0) } as TestApp;
  }, 120_000);
  afterAll(async () => {
    for (const i of instances) i.child.kill('SIGTERM');
    await Promise.all(instances.map((i) => i.exited));
    await db?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 60_000);

  let phoneSeq = 0;
  /**
   * A player (or staff) and his access token, made through instance `i`; each from an address of his own, as
   * different players are (the limits per address are not what a race is about).
   */
  async function player(i = 0, o: { is_staff?: boolean } = {}) {
    const seq = ++phoneSeq;
    const u = await createUser(t, { phone: uniquePhone(), ...o });
    const from = `10.${(seq >> 16) & 255}.${(seq >> 8) & 255}.${seq & 255}`;
    const r = await at(i, api.login).set('X-Forwarded-For', from).send({ phone: u.phone, password: u.password });
    expect(r.status).toBe(200);
    return { ...u, from, auth: ['Authorization', `Bearer ${r.body.access as string}`] as [string, string] };
  }
  /** N players (or staff), the k-th made through instance k. */
  const contenders = (o: { is_staff?: boolean } = {}) => Promise.all(Array.from({ length: N }, (_, k) => player(k, o)));
  /** A different combination for each contender. */
  const ticketOf = (k: number) => `${String((k % 51) + 1).padStart(2, '0')}-52-53-54-55-${String(Math.floor(k / 51) + 1).padStart(2, '0')}`;
  type Player = Awaited<ReturnType<typeof player>>;
  const buyOn = (i: number, p: Player, lottery: number, ticket: string) =>
    at(i, api.createTransaction, { as: p }).set('X-Forwarded-For', p.from).send(purchase(lottery, ticket));

  test('they migrated the empty database once, and all three are ready', async () => {
    const files = readdirSync(path.join(root, 'server/db/migrations')).map((f) => f.replace(/\.ts$/, ''));
    const applied = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(applied.map((r) => r.id)).toEqual(files.sort());
    for (const i of instances) expect((await request(i.url).get('/readyz')).status).toBe(200);
  });

  test('a session made on one instance is good on the others, and ends on all of them at once', async () => {
    const p = await player(0);
    for (let i = 0; i < 3; i++) expect((await at(i, api.me, { as: p })).status).toBe(200);
    expect((await at(1, api.logoutEverywhere, { as: p })).status).toBe(204);
    for (const i of [0, 2]) {
      const r = await at(i, api.me, { as: p });
      expect([r.status, r.body.code]).toEqual([401, 'token_not_valid']);
    }
  });

  test("a lottery staff create on one instance is on every instance's cached anonymous page within the cache's time", async () => {
    const name = `Cross-instance ${randomBytes(3).toString('hex')}`;
    const page = (i: number) => request(on(i)).get('/all-lotteries').set('Cookie', 'lang=en');
    // Each instance has the page kept, without the lottery.
    for (let i = 0; i < 3; i++) expect((await page(i)).text).not.toContain(name);
    const staff = await player(0, { is_staff: true });
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const made = await at(0, api.createLottery, { as: staff }).send({
      name,
      winners: 1,
      ticket_price: 50,
      total_prize: 1000,
      start_date: day(-1),
      end_date: day(5),
      published: true,
    });
    expect(made.status).toBe(201);
    // On every instance within the cache's time, and time to ask again on a busy machine: a page kept past that is kept
    // too long.
    await Promise.all([0, 1, 2].map((i) => until(async () => (await page(i)).text.includes(name), CACHE_MS + 2500, 100)));
  });

  test('failed logins count together across instances: after five, the right password waits too', async () => {
    const u = await createUser(t, { phone: uniquePhone() });
    const from = { 'X-Forwarded-For': '198.51.100.77' };
    for (let i = 0; i < 5; i++) {
      const r = await at(i, api.login).set(from).send({ phone: u.phone, password: 'wrong-password-1' });
      expect(r.status).toBe(401);
    }
    const blocked = await at(5, api.login).set(from).send({ phone: u.phone, password: u.password });
    expect([blocked.status, blocked.body.code]).toEqual([429, 'throttled']);
  });

  for (const round of rounds) {
    test(`the last ticket, bought by ${N} players on three instances at once: one sale${round}`, async () => {
      const lottery = await insertLottery(t, { total_tickets: 1 });
      const buyers = await contenders();
      const results = await Promise.all(buyers.map((b, k) => buyOn(k, b, lottery, ticketOf(k))));
      expect(results.map((r) => r.status).sort()).toEqual(oneWinner(201, 409));
      expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.code))).toEqual(new Set(['sold_out']));
      expect(await db.query('SELECT id FROM transactions WHERE lottery_id = $1', [lottery])).toHaveLength(1);
    });

    test(`one combination, bought by ${N} players on three instances at once: one holder${round}`, async () => {
      const lottery = await insertLottery(t);
      const buyers = await contenders();
      const results = await Promise.all(buyers.map((b, k) => buyOn(k, b, lottery, '05-12-23-34-45-07')));
      expect(results.map((r) => r.status).sort()).toEqual(oneWinner(201, 409));
      for (const lost of results.filter((r) => r.status === 409))
        expect(lost.body).toEqual({ ticket: [expect.stringContaining('Please pick other numbers')], code: 'ticket_taken' });
      expect(await db.query('SELECT id FROM transactions WHERE lottery_id = $1', [lottery])).toHaveLength(1);
    });

    test(`one generated ticket, activated by ${N} players on three instances at once: one owner${round}`, async () => {
      const lottery = await insertLottery(t);
      const staff = await player(0, { is_staff: true });
      const made = await at(0, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity: 1 });
      expect(made.status).toBe(201);
      const [g] = made.body as { ticket_number: string; secret_number: string }[];
      const players = await contenders();
      const results = await Promise.all(
        players.map((p, k) =>
          at(k, api.activateTicket, { as: p })
            .set('X-Forwarded-For', p.from)
            .send({ ticket_number: g?.ticket_number, secret_number: g?.secret_number }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual(oneWinner(200, 400));
      expect(await db.query('SELECT id FROM transactions WHERE lottery_id = $1', [lottery])).toHaveLength(1);
    });

    test(`one prize's claim, submitted ${N} times on three instances at once: one set of details${round}`, async () => {
      const winner = await player(0);
      const lottery = await insertLottery(t, { results: true });
      const tx = await db.one<{ id: number }>(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, '05-12-23-34-45-07', 100, 'bkash', 'success') RETURNING id`,
        [winner.id, lottery],
      );
      const prize = await db.one<{ id: number }>(
        `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, '05-12-23-34-45-07', 500) RETURNING id`,
        [lottery, tx?.id],
      );
      expect((await at(0, api.sendClaimCode, { as: winner }).send({ prize_id: prize?.id })).status).toBe(200);
      const sent = await db.one<{ body: string }>(
        `SELECT body FROM outbox WHERE recipient = $1 AND purpose = 'claim' ORDER BY id DESC LIMIT 1`,
        [winner.phone],
      );
      const code = /\b(\d{6})\b/.exec(sent?.body ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const results = await Promise.all(
        Array.from({ length: N }, (_, k) => `017${String(11111111 + k).padStart(8, '0')}`).map((account, k) =>
          at(k, api.submitClaim, { as: winner }).send({
            prize: prize?.id,
            payment_method: 'bkash',
            account_number: account,
            account_holder_name: 'Winner',
            otp: code,
          }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      const stored = await db.query<{ account_number: string }>('SELECT account_number FROM prize_claims WHERE prize_id = $1', [prize?.id]);
      expect(stored).toEqual([{ account_number: ok[0]?.body.claim.account_number }]);
    });

    test(`one prize's payout by bKash, Pay now pressed by ${N} staff members on three instances at once: one payout${round}`, async () => {
      const winner = await player(0);
      const lottery = await insertLottery(t, { results: true });
      const tx = await db.one<{ id: number }>(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, '05-12-23-34-45-07', 100, 'bkash', 'success') RETURNING id`,
        [winner.id, lottery],
      );
      const claim = await db.one<{ id: number }>(
        `WITH p AS (INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, '05-12-23-34-45-07', 500) RETURNING id)
         INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name, submitted_at)
         SELECT p.id, $3, 'payment_info_submitted', 'bkash', '01712345678', 'Winner', now() FROM p RETURNING id`,
        [lottery, tx?.id, winner.id],
      );
      const staff = await contenders({ is_staff: true });
      const results = await Promise.all(staff.map((s, k) => at(k, api.payNow, { params: { id: claim?.id }, as: s })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect(['payout_under_way', 'transfer_not_ready']).toContain(r.body.code);
      // These instances listen on a port of the system's choice (PORT 0), so their bKash (the simulator at their own
      // PORT) is not reached: the balance is unread and the one try waits. The race is about that one try.
      expect(await db.query('SELECT try, state FROM prize_payouts WHERE claim_id = $1', [claim?.id])).toEqual([
        { try: 1, state: 'waiting' },
      ]);
      expect(await db.query(`SELECT action FROM audit_log WHERE entity = 'prize_claim' AND entity_id = $1`, [String(claim?.id)])).toEqual([
        { action: 'claim.payout_waiting' },
      ]);
    });

    test(`one draw proposal, approved by ${N} staff members on three instances at once: one set of prizes${round}`, async () => {
      const lottery = await insertLottery(t);
      const a = await player(0);
      expect((await buyOn(0, a, lottery, '05-12-23-34-45-07')).status).toBe(201);
      await db.query(`UPDATE transactions SET status = 'success' WHERE lottery_id = $1`, [lottery]);
      // Winners by hand are chosen only after the end of sales (docs/rules/lotteries-and-sales.md#9-the-draw).
      await closeSales(t, lottery);
      const [proposer, approvers] = await Promise.all([player(0, { is_staff: true }), contenders({ is_staff: true })]);
      const proposed = await at(0, api.drawLottery, { as: proposer }).send({
        lottery_id: lottery,
        tickets: ['05-12-23-34-45-07'],
        reason: 'Drawn by hand across instances',
      });
      expect(proposed.status).toBe(202);
      const results = await Promise.all(
        approvers.map((s, k) => at(k, api.approveDrawProposal, { params: { proposalId: proposed.body.id as number }, as: s })),
      );
      expect(results.map((r) => r.status).sort()).toEqual(oneWinner(201, 409));
      expect(await db.query('SELECT ticket FROM prizes WHERE lottery_id = $1', [lottery])).toEqual([{ ticket: '05-12-23-34-45-07' }]);
    });
  }
});
