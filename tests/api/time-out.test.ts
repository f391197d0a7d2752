/**
 * The time-out (docs/rules/play-safe.md#3a-time-out): POST /api/v1/time-out/ for 24 hours, 7 days or 30 days, never
 * shortened; while it runs every purchase path is refused (403 `time_out`, with until when, in the caller's language)
 * by the one check self-exclusion uses; he still logs in, sees his tickets and claims his prizes; it ends when it
 * should; staff see it and the audit log records it. On PGlite and PostgreSQL.
 */
import type { TestApp } from '../helpers/app.ts';
import { clearPlay, nextTicket, sendMoney as sendMoneyIn, startPlayApp, winThenClaim } from './play-fixtures.ts';
import { account, buy, insertLottery, purchase, superuserAccount, trxId, type Player } from './purchase-fixtures.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player, superuser: Player;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, close } = await startPlayApp());
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Support Officer', is_staff: true });
  superuser = await superuserAccount(t, { name: 'Head Office' });
});
afterAll(() => close());
beforeEach(() => clearPlay(t));

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const timeOut = (p: Player | null, body: unknown, lng = 'en') => to(t, api.timeOut, { as: p, lang: lng }).send(body as object);
const limits = (p: Player) => to(t, api.myLimits, { as: p });

const sendMoney = (p: Player, lottery: number, lng = 'en') => sendMoneyIn(t, p, lottery, lng);
const transactions = () => t.db.query<{ user_id: number }>('SELECT user_id FROM transactions');

describe('POST /api/v1/time-out/', () => {
  test('anonymous 401; each bad input 400 under its field in en and bn; nothing set', async () => {
    expect((await timeOut(null, { period: '24h', confirm: true })).status).toBe(401);
    const noConfirm = await timeOut(a, { period: '24h' });
    expect(noConfirm.status).toBe(400);
    expect(noConfirm.body).toEqual({ confirm: ['Please confirm that you understand this cannot be undone early.'] });
    const notTicked = await timeOut(a, { period: '24h', confirm: 'yes' });
    expect(notTicked.status).toBe(400);
    const bad = await timeOut(a, { period: '6m', confirm: true });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ period: ['Choose how long: 24 hours, 7 days or 30 days.'] });
    const bn = await timeOut(a, { period: '1h', confirm: true }, 'bn');
    expect(bn.body).toEqual({ period: ['কত সময়ের জন্য, তা বেছে নিন: ২৪ ঘণ্টা, ৭ দিন বা ৩০ দিন।'] });
    expect((await timeOut(a, { period: '24h', confirm: true, until: '2030-01-01' })).status).toBe(400);
    expect((await to(t, api.timeOut, { as: a }).set('Content-Type', 'application/json').send('{"period":')).status).toBe(400);
    expect((await limits(a)).body.time_out).toBeNull();
    expect(await t.db.query('SELECT * FROM play_limit_events')).toEqual([]);
    expect(await t.db.query('SELECT * FROM audit_log')).toEqual([]);
  });

  test('24 hours from now, kept apart from self-exclusion; cannot be shortened (409 in en and bn), only extended', async () => {
    const before = Date.now();
    const res = await timeOut(a, { period: '24h', confirm: true });
    expect(res.status).toBe(200);
    expect(res.body.self_exclusion).toBeNull();
    const until = Date.parse(res.body.time_out.until);
    expect(until).toBeGreaterThanOrEqual(before + DAY);
    expect(until).toBeLessThanOrEqual(Date.now() + DAY);
    const week = await timeOut(a, { period: '7d', confirm: true });
    expect(week.status).toBe(200);
    const weekUntil = week.body.time_out.until as string;
    expect(Date.parse(weekUntil) - until).toBeGreaterThan(6 * DAY - HOUR);
    const shorter = await timeOut(a, { period: '24h', confirm: true });
    expect(shorter.status).toBe(409);
    expect(shorter.body).toMatchObject({ code: 'time_out_not_shorter', until: weekUntil });
    expect(shorter.body.detail).toMatch(/^You are already taking a break until .*cannot be shortened or ended early/);
    const bn = await timeOut(a, { period: '24h', confirm: true }, 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body.detail).toMatch(/^আপনি .* পর্যন্ত বিরতিতে আছেন।/);
    expect(bn.body.detail).not.toMatch(/[0-9]/);
    expect((await limits(a)).body.time_out.until).toBe(weekUntil);
    expect((await timeOut(a, { period: '30d', confirm: true })).status).toBe(200);
    // Three taken, two refused: only what was taken is in the history.
    expect((await t.db.query('SELECT kind FROM play_limit_events WHERE user_id = $1', [a.id])).length).toBe(3);
  });

  test('staff and superusers may take one for their own account (as any account); it is theirs only', async () => {
    expect((await timeOut(staff, { period: '24h', confirm: true })).status).toBe(200);
    expect((await timeOut(superuser, { period: '7d', confirm: true })).status).toBe(200);
    expect((await limits(a)).body.time_out).toBeNull();
  });

  test('ends when it should: once its time has passed he plays again', async () => {
    const lottery = await insertLottery(t);
    await timeOut(a, { period: '24h', confirm: true }).expect(200);
    expect((await sendMoney(a, lottery)).status).toBe(403);
    await t.db.query(`UPDATE play_limits SET timeout_until = now() - interval '1 second' WHERE user_id = $1`, [a.id]);
    expect((await limits(a)).body.time_out).toBeNull();
    expect((await sendMoney(a, lottery)).status).toBe(201);
    // Over: a shorter one may be taken again.
    expect((await timeOut(a, { period: '24h', confirm: true })).status).toBe(200);
  });
});

describe('while on a time-out', () => {
  test('a purchase is refused: 403 time_out with until when, in en and bn; nothing made; others play on', async () => {
    const lottery = await insertLottery(t);
    const taken = await timeOut(a, { period: '24h', confirm: true });
    const res = await sendMoney(a, lottery);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: expect.stringMatching(/^You are taking a break from play until .*; you can still see your tickets and claim your prizes\.$/),
      code: 'time_out',
      until: taken.body.time_out.until,
    });
    const bn = await sendMoney(a, lottery, 'bn');
    expect(bn.status).toBe(403);
    expect(bn.body.detail).toMatch(/^আপনি .* পর্যন্ত খেলা থেকে বিরতিতে আছেন।/);
    expect(bn.body.detail).not.toMatch(/[0-9]/);
    expect(await transactions()).toEqual([]);
    expect((await sendMoney(b, lottery)).status).toBe(201);
  });

  test('a checkout, a TrxID and an activation are refused the same way; the purchase made before stays unpaid', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const made = await buy(t, a, purchase(lottery, nextTicket(), { payment_number: undefined }));
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    await timeOut(a, { period: '7d', confirm: true }).expect(200);
    const checkout = await to(t, api.startCheckout, { params: { id }, as: a });
    expect(checkout.status).toBe(403);
    expect(checkout.body.code).toBe('time_out');
    const trx = await to(t, api.setTrxId, { params: { id }, as: a }).send({ trx_id: trxId() });
    expect(trx.status).toBe(403);
    expect(trx.body.code).toBe('time_out');
    expect(trx.body.detail).toMatch(/This purchase stays unpaid and is cancelled when its lottery's sales close\./);
    expect(await t.db.one('SELECT status, trx_id FROM transactions WHERE id = $1', [id])).toEqual({ status: 'pending', trx_id: null });
    const g = (await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity: 1 }).expect(201)).body[0];
    const activated = await to(t, api.activateTicket, { as: a, lang: 'bn' }).send({
      ticket_number: g.ticket_number,
      secret_number: g.secret_number,
    });
    expect(activated.status).toBe(403);
    expect(activated.body.code).toBe('time_out');
    expect((await t.db.query('SELECT * FROM bkash_payments')).length).toBe(0);
  });

  test('a self-exclusion too: the exclusion is told first', async () => {
    const lottery = await insertLottery(t);
    await timeOut(a, { period: '30d', confirm: true }).expect(200);
    await to(t, api.selfExclusion, { as: a }).send({ period: '6m', confirm: true }).expect(200);
    expect((await sendMoney(a, lottery)).body.code).toBe('self_excluded');
  });

  test('he still logs in, sees his tickets and claims his prizes', async () => {
    const claimed = await winThenClaim(t, a, async () => {
      await timeOut(a, { period: '30d', confirm: true }).expect(200);
      const login = await to(t, api.login).send({ phone: a.phone, password: 'secret-pass-1' });
      expect(login.status).toBe(200);
      const mine = await to(t, api.myTransactions, { as: a });
      expect(mine.status).toBe(200);
      expect(mine.body.results ?? mine.body).not.toHaveLength(0);
    });
    expect(claimed.status).toBeLessThan(300);
  });
});

describe('what staff see', () => {
  test('the staff view shows the time-out and its history; the audit log records it with the player as actor', async () => {
    const taken = await timeOut(a, { period: '7d', confirm: true });
    const res = await to(t, api.userPlayLimits, { params: { id: a.id }, as: staff }).expect(200);
    expect(res.body.time_out).toEqual({ until: taken.body.time_out.until, set_at: expect.any(String) });
    expect(res.body.self_exclusion).toBeNull();
    expect(res.body.history[0]).toMatchObject({ kind: 'time_out', until: taken.body.time_out.until, limits: null });
    expect((await to(t, api.userPlayLimits, { params: { id: a.id }, as: superuser })).body.time_out).not.toBeNull();
    expect((await to(t, api.userPlayLimits, { params: { id: a.id }, as: b })).status).toBe(403);
    const audit = await t.db.query<{ actor_id: string; action: string; entity: string; entity_id: string; after: unknown }>(
      'SELECT actor_id::text, action, entity, entity_id, after FROM audit_log',
    );
    expect(audit).toEqual([
      {
        actor_id: String(a.id),
        action: 'play.time_out',
        entity: 'user',
        entity_id: String(a.id),
        after: { period: '7d', until: taken.body.time_out.until },
      },
    ]);
  });
});
