/**
 * Keeping play safe (docs/rules/play-safe.md): my-limits (read, set: lowering at once, raising after 24 hours),
 * self-exclusion (only ever longer), the staff's read-only view and the dashboard's counts; and the one check on every
 * purchase path — a ticket bought (with a TrxID, Send Money), a bKash checkout started, a generated ticket activated —
 * exactly at a limit allowed, one taka over refused, self-excluded refused, two purchases at once only one fitting.
 * Prize claims still work when excluded. On PGlite and PostgreSQL.
 */
import type { TestApp } from '../helpers/app.ts';
import { caller, clearPlay, nextTicket, sendMoney as sendMoneyIn, startPlayApp, winThenClaim } from './play-fixtures.ts';
import { account, buy, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let a: Player, b: Player, third: Player, staff: Player;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, close } = await startPlayApp());
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  third = await account(t, { name: 'Karim Mia' });
  staff = await account(t, { name: 'Support Officer', is_staff: true });
});
afterAll(() => close());
beforeEach(() => clearPlay(t));

const HOUR = 3600_000;
const limits = (p: Player | null, lng = 'en') => to(t, api.myLimits, { as: p, lang: lng });
const setLimits = (p: Player | null, body: unknown, lng = 'en') => to(t, api.setMyLimits, { as: p, lang: lng }).send(body as object);
const exclude = (p: Player | null, body: unknown, lng = 'en') => to(t, api.selfExclusion, { as: p, lang: lng }).send(body as object);
const staffView = (p: Player | null, id: number | string) => to(t, api.userPlayLimits, { params: { id }, as: p });

/** A Send Money purchase (TrxID given at once) of p in this lottery. */
const sendMoney = (p: Player, lottery: number, lng = 'en', price = 100) => sendMoneyIn(t, p, lottery, lng, price);
const startCheckout = (p: Player, id: number, lng = 'en') => to(t, api.startCheckout, { params: { id }, as: p, lang: lng });

async function generated(lottery: number): Promise<{ ticket_number: string; secret_number: string }> {
  const res = await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity: 1 });
  expect(res.status).toBe(201);
  return res.body[0];
}
const activate = (p: Player, g: { ticket_number: string; secret_number: string }, lng = 'en') =>
  to(t, api.activateTicket, { as: p, lang: lng }).send({ ticket_number: g.ticket_number, secret_number: g.secret_number });

const transactions = () =>
  t.db.query<{ user_id: number; status: string; amount: number }>('SELECT user_id, status, amount FROM transactions');

describe('GET and PUT /api/v1/my-limits/', () => {
  test('anonymous 401; a player with nothing set has no limits, nothing spent, each period’s reset, no exclusion', async () => {
    expect((await limits(null)).status).toBe(401);
    expect((await setLimits(null, { day: 100 })).status).toBe(401);
    const res = await limits(a);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      limits: { day: null, week: null, month: null },
      pending: null,
      periods: ['day', 'week', 'month'].map((period) => ({ period, limit: null, spent: 0, left: null, resets_at: expect.any(String) })),
      self_exclusion: null,
      time_out: null,
    });
    const resets = (res.body.periods as { resets_at: string }[]).map((p) => Date.parse(p.resets_at));
    for (const r of resets) expect(r).toBeGreaterThan(Date.now());
    // Each resets at a Dhaka midnight (18:00 UTC).
    for (const p of res.body.periods as { resets_at: string }[]) expect(p.resets_at).toMatch(/T18:00:00\.000Z$/);
  });

  test('a first limit applies at once and shows what was spent in each period; failed purchases do not count', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    expect((await sendMoney(a, lottery)).status).toBe(201);
    const failed = await sendMoney(a, lottery);
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [failed.body.id]);
    expect((await sendMoney(b, lottery)).status).toBe(201); // someone else's
    const res = await setLimits(a, { day: 500, week: null, month: 2000 });
    expect(res.status).toBe(200);
    expect(res.body.limits).toEqual({ day: 500, week: null, month: 2000 });
    expect(res.body.pending).toBeNull();
    expect(res.body.periods).toEqual([
      { period: 'day', limit: 500, spent: 100, left: 400, resets_at: expect.any(String) },
      { period: 'week', limit: null, spent: 100, left: null, resets_at: expect.any(String) },
      { period: 'month', limit: 2000, spent: 100, left: 1900, resets_at: expect.any(String) },
    ]);
    expect((await limits(a)).body.limits).toEqual({ day: 500, week: null, month: 2000 });
    expect((await limits(b)).body.limits).toEqual({ day: null, week: null, month: null });
  });

  test('lowering applies at once; raising or removing waits 24 hours, the old limit applying until then', async () => {
    await setLimits(a, { day: 500, week: 1000 }).expect(200);
    const lowered = await setLimits(a, { day: 300, week: 1000 });
    expect(lowered.body.limits).toEqual({ day: 300, week: 1000, month: null });
    expect(lowered.body.pending).toBeNull();
    const before = Date.now();
    const raised = await setLimits(a, { day: 800, week: null });
    expect(raised.status).toBe(200);
    expect(raised.body.limits).toEqual({ day: 300, week: 1000, month: null });
    expect(raised.body.pending.limits).toEqual({ day: 800, week: null, month: null });
    const at = Date.parse(raised.body.pending.effective_at);
    expect(at).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(at).toBeLessThan(Date.now() + 24 * HOUR + 1000);
    // Still the old limit: a purchase over 300 today is refused.
    const lottery = await insertLottery(t, { price: 100 });
    for (let i = 0; i < 3; i++) expect((await sendMoney(a, lottery)).status).toBe(201);
    expect((await sendMoney(a, lottery)).body.code).toBe('spend_limit');
    // Once its time has come, the raise is what applies.
    await t.db.query(`UPDATE play_limits SET pending_at = now() - interval '1 second' WHERE user_id = $1`, [a.id]);
    const now = await limits(a);
    expect(now.body.limits).toEqual({ day: 800, week: null, month: null });
    expect(now.body.pending).toBeNull();
    expect((await sendMoney(a, lottery)).status).toBe(201);
  });

  test('a value that is not a limit: 400 in the caller’s language under its field, nothing changed', async () => {
    await setLimits(a, { day: 500 }).expect(200);
    for (const bad of [0, -1, 12.5, 'abc', 10_000_001]) {
      const res = await setLimits(a, { day: bad });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ day: ['A limit is a whole number of taka from 1 to 10,000,000; leave it empty for no limit.'] });
    }
    const bn = await setLimits(a, { week: 0 }, 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body.week[0]).toBe('সীমা ১ থেকে ১,০০,০০,০০০ টাকার মধ্যে একটি পূর্ণ সংখ্যা হতে হবে; কোনো সীমা না চাইলে ঘরটি ফাঁকা রাখুন।');
    expect((await setLimits(a, { day: 5, year: 10 })).body).toEqual({ year: ['Unknown field.'] });
    expect((await limits(a)).body.limits).toEqual({ day: 500, week: null, month: null });
  });
});

describe('POST /api/v1/self-exclusion/', () => {
  test('anonymous 401; without the confirmation or with another period 400 in en and bn; nothing set', async () => {
    expect((await exclude(null, { period: '6m', confirm: true })).status).toBe(401);
    const noConfirm = await exclude(a, { period: '6m' });
    expect(noConfirm.status).toBe(400);
    expect(noConfirm.body).toEqual({ confirm: ['Please confirm that you understand this cannot be undone early.'] });
    const bn = await exclude(a, { period: '2y', confirm: true }, 'bn');
    expect(bn.body).toEqual({ period: ['কত দিনের জন্য, তা বেছে নিন: ৬ মাস, ১ বছর বা ৫ বছর।'] });
    expect((await limits(a)).body.self_exclusion).toBeNull();
  });

  test('set for the period chosen; cannot be shortened (409 in en and bn), only extended', async () => {
    const res = await exclude(a, { period: '1y', confirm: true });
    expect(res.status).toBe(200);
    const until = Date.parse(res.body.self_exclusion.until);
    expect(until - Date.now()).toBeGreaterThan(364 * 24 * HOUR);
    expect(until - Date.now()).toBeLessThan(367 * 24 * HOUR);
    const shorter = await exclude(a, { period: '6m', confirm: true });
    expect(shorter.status).toBe(409);
    expect(shorter.body).toMatchObject({ code: 'exclusion_not_shorter', until: res.body.self_exclusion.until });
    expect(shorter.body.detail).toMatch(/^You are already excluded from play until .*cannot be shortened or lifted early/);
    expect((await limits(a)).body.self_exclusion.until).toBe(res.body.self_exclusion.until);
    const bn = await exclude(a, { period: '6m', confirm: true }, 'bn');
    expect(bn.body.detail).toMatch(/^আপনি .* পর্যন্ত খেলা থেকে বিরত আছেন।/);
    expect(bn.body.detail).not.toMatch(/[0-9]/);
    const longer = await exclude(a, { period: '5y', confirm: true });
    expect(longer.status).toBe(200);
    expect(Date.parse(longer.body.self_exclusion.until) - until).toBeGreaterThan(3 * 365 * 24 * HOUR);
  });
});

describe('staff', () => {
  test('staff read a player’s limits, exclusion and history; a player may not (403); anonymous 401; unknown 404', async () => {
    await setLimits(a, { day: 500 }).expect(200);
    await setLimits(a, { day: 900 }).expect(200);
    await exclude(a, { period: '6m', confirm: true }).expect(200);
    const res = await staffView(staff, a.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: a.id,
      limits: { day: 500, week: null, month: null },
      pending: { limits: { day: 900, week: null, month: null } },
      self_exclusion: { until: expect.any(String), set_at: expect.any(String) },
    });
    expect(res.body.history.map((e: { kind: string }) => e.kind)).toEqual(['self_exclusion', 'limits', 'limits']);
    expect(res.body.history[2]).toMatchObject({ limits: { day: 500, week: null, month: null }, until: null });
    expect((await staffView(b, a.id)).status).toBe(403);
    expect((await staffView(a, a.id)).status).toBe(403);
    expect((await staffView(null, a.id)).status).toBe(401);
    const nobody = await staffView(staff, 999999);
    expect([nobody.status, nobody.body.code]).toEqual([404, 'not_found']);
    // Read only: there is no staff endpoint that changes them.
    expect((await caller(t)(staff, 'put', `/api/v1/admin-users/${a.id}/play-limits/`).send({ day: 1 })).status).toBe(404);
  });

  test('staff see the player’s reality check: the default until he chooses, then his choice, off included', async () => {
    const reality = async () => (await staffView(staff, a.id).expect(200)).body.reality_check;
    expect(await reality()).toEqual({ interval_minutes: 60, chosen: false });
    await to(t, api.setRealityCheck, { as: a }).send({ interval_minutes: 30 }).expect(200);
    expect(await reality()).toEqual({ interval_minutes: 30, chosen: true });
    await to(t, api.setRealityCheck, { as: a }).send({ interval_minutes: 0 }).expect(200);
    expect(await reality()).toEqual({ interval_minutes: 0, chosen: true });
    // Another player's choice is his own.
    expect((await staffView(staff, b.id).expect(200)).body.reality_check).toEqual({ interval_minutes: 60, chosen: false });
  });

  test('the dashboard counts players with a limit and players self-excluded', async () => {
    const dash = () => to(t, api.dashboard, { as: staff });
    expect((await dash()).body).toMatchObject({ players_with_limit: 0, players_self_excluded: 0 });
    await setLimits(a, { month: 1000 }).expect(200);
    await exclude(b, { period: '6m', confirm: true }).expect(200);
    expect((await dash()).body).toMatchObject({ players_with_limit: 1, players_self_excluded: 1 });
    // A removal whose time has come: no limit any more.
    await setLimits(a, { month: null }).expect(200);
    expect((await dash()).body.players_with_limit).toBe(1);
    await t.db.query(`UPDATE play_limits SET pending_at = now() - interval '1 second' WHERE user_id = $1`, [a.id]);
    expect((await dash()).body.players_with_limit).toBe(0);
  });
});

describe('every purchase path', () => {
  test('a Send Money purchase: exactly at the limit allowed, one taka over 409 spend_limit with limit, period and reset', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const dear = await insertLottery(t, { price: 101 });
    await setLimits(a, { day: 200 }).expect(200);
    expect((await sendMoney(a, lottery)).status).toBe(201);
    expect((await sendMoney(a, lottery)).status).toBe(201); // 200 of 200: exactly at the limit
    await setLimits(a, { day: 300 }); // a raise: waits, the 200 applies
    const over = await sendMoney(a, lottery);
    expect(over.status).toBe(409);
    expect(over.body).toEqual({
      detail: expect.stringMatching(/^This purchase would take you over your daily spend limit of TK\. 200 \(spent so far: TK\. 200\)/),
      code: 'spend_limit',
      period: 'day',
      limit: 200,
      spent: 200,
      resets_at: expect.stringMatching(/T18:00:00\.000Z$/),
    });
    const bn = await sendMoney(a, lottery, 'bn');
    expect(bn.body.detail).toMatch(/^এই কেনাকাটায় আপনার দৈনিক খরচের সীমা ৳২০০ পার হয়ে যাবে/);
    expect(bn.body.detail).not.toMatch(/[0-9]/);
    // One taka over, from nothing spent: b's limit 100, a ticket of 101.
    await setLimits(b, { week: 100 }).expect(200);
    const b1 = await buy(t, b, purchase(dear, nextTicket(), { trx_id: trxId(), amount: 101 }));
    expect(b1.body).toMatchObject({ code: 'spend_limit', period: 'week', limit: 100, spent: 0 });
    expect((await transactions()).filter((r) => r.status !== 'failed').length).toBe(2);
  });

  test('a self-excluded player buys nothing: 403 self_excluded with until when, in en and bn; nothing made', async () => {
    const lottery = await insertLottery(t);
    const ex = await exclude(a, { period: '6m', confirm: true });
    const res = await sendMoney(a, lottery);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: expect.stringMatching(/^You have excluded yourself from play until .*; your prizes can still be claimed\.$/),
      code: 'self_excluded',
      until: ex.body.self_exclusion.until,
    });
    const bn = await sendMoney(a, lottery, 'bn');
    expect(bn.status).toBe(403);
    expect(bn.body.detail).toMatch(/^আপনি .* পর্যন্ত নিজেকে খেলা থেকে বিরত রেখেছেন।/);
    expect(await transactions()).toEqual([]);
    // Others play on.
    expect((await sendMoney(b, lottery)).status).toBe(201);
  });

  test('the bKash checkout: refused when excluded since the purchase, or when it no longer fits a limit; at the limit it starts', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const pending = async (p: Player) => {
      const res = await buy(t, p, purchase(lottery, nextTicket(), { payment_number: undefined }));
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    // Exactly at the limit: the purchase itself is already counted, and it is not counted twice.
    await setLimits(a, { day: 100 }).expect(200);
    const fits = await pending(a);
    expect((await startCheckout(a, fits)).status).toBe(201);
    // A limit lowered after the purchase: the checkout checks it as if the purchase were made now.
    const b1 = await pending(b);
    const b2 = await pending(b);
    await setLimits(b, { day: 150 }).expect(200);
    const over = await startCheckout(b, b2, 'bn');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'spend_limit', period: 'day', limit: 150, spent: 100 });
    expect(over.body.detail).toMatch(/দৈনিক খরচের সীমা ৳১৫০/);
    // With b2 given up (failed), b1 fits again.
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [b2]);
    expect((await startCheckout(b, b1)).status).toBe(201);
    // Self-excluded since the purchase: no checkout.
    const c = await pending(third);
    await exclude(third, { period: '6m', confirm: true }).expect(200);
    const excluded = await startCheckout(third, c);
    expect(excluded.status).toBe(403);
    expect(excluded.body.code).toBe('self_excluded');
    expect((await t.db.query('SELECT * FROM bkash_payments')).length).toBe(2);
  });

  test('the TrxID of an earlier purchase given while self-excluded: refused with the purchase’s words and what becomes of it', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const made = await buy(t, a, purchase(lottery, nextTicket(), { payment_number: undefined }));
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    const ex = await exclude(a, { period: '6m', confirm: true }).expect(200);
    const setTrx = (p: Player | null, lng = 'en', trx = trxId()) => {
      return to(t, api.setTrxId, { params: { id }, as: p, lang: lng }).send({ trx_id: trx });
    };
    const en = await setTrx(a);
    expect(en.status).toBe(403);
    expect(en.body).toEqual({
      detail: expect.stringMatching(
        /^You have excluded yourself from play until .*; your prizes can still be claimed\. This purchase stays unpaid and is cancelled when its lottery's sales close\. If you have already sent the money, contact support and it will be refunded\.$/,
      ),
      code: 'self_excluded',
      until: ex.body.self_exclusion.until,
    });
    const bn = await setTrx(a, 'bn');
    expect(bn.status).toBe(403);
    expect(bn.body.detail).toMatch(
      /^আপনি .* পর্যন্ত নিজেকে খেলা থেকে বিরত রেখেছেন।.* এই কেনাকাটার পেমেন্ট বাকি থাকবে, আর লটারির বিক্রি বন্ধ হলে কেনাকাটাটি বাতিল হবে।/,
    );
    expect(await t.db.one('SELECT status, trx_id FROM transactions WHERE id = $1', [id])).toEqual({ status: 'pending', trx_id: null });
    // Anonymous 401, another player 404, as before: the exclusion is told only to its owner.
    expect((await setTrx(null)).status).toBe(401);
    expect((await setTrx(b)).status).toBe(404);
    // A player not excluded still gives his TrxID.
    const hers = await buy(t, b, purchase(lottery, nextTicket(), { payment_number: undefined }));
    const given = trxId();
    await to(t, api.setTrxId, { params: { id: hers.body.id as number }, as: b })
      .send({ trx_id: given })
      .expect(200);
    expect(await t.db.one('SELECT trx_id FROM transactions WHERE id = $1', [hers.body.id])).toEqual({ trx_id: given });
  });

  test('activating a generated ticket counts as play: at the limit allowed, over refused, excluded refused; the ticket stays free', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    await setLimits(a, { month: 100 }).expect(200);
    expect((await activate(a, await generated(lottery))).status).toBe(200); // 100 of 100
    const g = await generated(lottery);
    const over = await activate(a, g);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'spend_limit', period: 'month', limit: 100, spent: 100 });
    await exclude(b, { period: '6m', confirm: true }).expect(200);
    const bn = await activate(b, g, 'bn');
    expect(bn.status).toBe(403);
    expect(bn.body.code).toBe('self_excluded');
    expect(bn.body.detail).toMatch(/টিকিট সক্রিয় করতে পারবেন না/);
    // The refused ticket was not activated: another player may still activate it.
    expect((await activate(third, g)).status).toBe(200);
    expect((await transactions()).map((r) => r.user_id).sort()).toEqual([a.id, third.id].sort());
  });

  test('two purchases at once in different lotteries: only the one that fits the limit is made', async () => {
    const lotteries = await Promise.all([1, 2, 3, 4, 5].map(() => insertLottery(t, { price: 100 })));
    await setLimits(a, { day: 100 }).expect(200);
    const results = await Promise.all(lotteries.map((l) => sendMoney(a, l)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await transactions()).length).toBe(1);
  });

  test('prize claims still work when excluded', async () => {
    const claimed = await winThenClaim(t, a, () => exclude(a, { period: '5y', confirm: true }).expect(200));
    expect(claimed.status).toBeLessThan(300);
  });
});
