/**
 * The reality check (docs/rules/play-safe.md#7-reality-check): GET, POST (acknowledge) and PUT (the interval) of
 * /api/v1/reality-check/ — the session is the login, its time and what was spent in it; due after the interval chosen
 * (every 60 minutes by default), each purchase path — a ticket bought, a bKash checkout started, a generated ticket
 * activated — refused with 409 `reality_check` until acknowledged, in English and Bengali. Then the pages, as a browser
 * without JavaScript: the reminder on every player page (not on staff pages), "Continue playing" posting back to the
 * page it came from, the interval on /profile/limits. Sessions are made old by moving their start in SQL. On PGlite and
 * PostgreSQL.
 */
import { SIMULATOR_CREDENTIALS } from '../../server/config.ts';
import { startSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { account, buy, buyOnPage, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';
import { pageAccount } from '../helpers/factories.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player;
let closeSim: () => Promise<void>;

beforeAll(async () => {
  const s = await startSimulator(SIMULATOR_CREDENTIALS);
  closeSim = s.close;
  t = await startTestApp({ BKASH_BASE_URL: s.baseUrl });
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Support Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
  await closeSim();
});
beforeEach(async () => {
  await t.settled();
  for (const table of [
    'play_limit_events',
    'play_limits',
    'bkash_payments',
    'generated_tickets',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
  // Every session starts now, with nothing acknowledged.
  await t.db.query('UPDATE refresh_tokens SET created_at = now(), reality_acknowledged_at = NULL');
});

const MIN = 60_000;
const reality = (p: Player | null, lng = 'en') => to(t, api.realityCheck, { as: p, lang: lng });
const acknowledge = (p: Player | null, lng = 'en') => to(t, api.acknowledgeRealityCheck, { as: p, lang: lng });
const setInterval = (p: Player | null, body: unknown, lng = 'en') => to(t, api.setRealityCheck, { as: p, lang: lng }).send(body as object);

/** Makes every session of the user `minutes` old (its refresh token's row made that long ago). */
const age = (userId: number, minutes: number) =>
  t.db.query(`UPDATE refresh_tokens SET created_at = now() - $2::int * interval '1 minute' WHERE user_id = $1`, [userId, minutes]);

let ticketSeq = 0;
const nextTicket = () => {
  const n = ++ticketSeq;
  return `${String((n % 40) + 1).padStart(2, '0')}-${String((Math.floor(n / 40) % 40) + 1).padStart(2, '0')}-41-42-43-07`;
};
const sendMoney = (p: Player, lottery: number, lng = 'en') =>
  buy(t, p, purchase(lottery, nextTicket(), { trx_id: trxId() })).set('Accept-Language', lng);
const pendingPurchase = async (p: Player, lottery: number) => {
  const res = await buy(t, p, purchase(lottery, nextTicket(), { payment_number: undefined }));
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const startCheckout = (p: Player, id: number, lng = 'en') => to(t, api.startCheckout, { params: { id }, as: p, lang: lng });
async function generated(lottery: number): Promise<{ ticket_number: string; secret_number: string }> {
  const res = await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity: 1 });
  expect(res.status).toBe(201);
  return res.body[0];
}
const activate = (p: Player, g: { ticket_number: string; secret_number: string }, lng = 'en') =>
  to(t, api.activateTicket, { as: p, lang: lng }).send({ ticket_number: g.ticket_number, secret_number: g.secret_number });
const transactions = async () => (await t.db.query<{ id: number }>('SELECT id FROM transactions')).length;
const acknowledgedAt = async (p: Player) =>
  (await t.db.query<{ at: string | null }>('SELECT reality_acknowledged_at AS at FROM refresh_tokens WHERE user_id = $1', [p.id])).map(
    (r) => r.at,
  );

describe('GET /api/v1/reality-check/', () => {
  test('anonymous 401 on each method; a new session: every 60 minutes, nothing due, nothing played or spent', async () => {
    for (const r of [await reality(null), await acknowledge(null), await setInterval(null, { interval_minutes: 15 })]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('not_authenticated');
    }
    const res = await reality(a);
    expect(res.status).toBe(200);
    const row = await t.db.one<{ created_at: string }>('SELECT created_at FROM refresh_tokens WHERE user_id = $1', [a.id]);
    expect(res.body).toEqual({
      interval_minutes: 60,
      due: false,
      due_at: new Date(Date.parse(row!.created_at) + 60 * MIN).toISOString(),
      session_started_at: new Date(row!.created_at).toISOString(),
      minutes_played: 0,
      spent: 0,
      tickets: 0,
    });
  });

  test('what was spent in the session: his purchases since it started that are not failed, and how many', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    await age(a.id, 30);
    expect((await sendMoney(a, lottery)).status).toBe(201);
    await pendingPurchase(a, lottery);
    const failed = await sendMoney(a, lottery);
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [failed.body.id]);
    // Made before this login: not in this session.
    const before = await sendMoney(a, lottery);
    await t.db.query(`UPDATE transactions SET created_at = now() - interval '40 minutes' WHERE id = $1`, [before.body.id]);
    expect((await sendMoney(b, lottery)).status).toBe(201); // someone else's
    const res = await reality(a);
    expect(res.body).toMatchObject({ due: false, minutes_played: 30, spent: 200, tickets: 2 });
    expect((await reality(b)).body).toMatchObject({ spent: 100, tickets: 1 });
  });

  test('due once the interval has passed since the login: not at 59 minutes, at 60', async () => {
    await age(a.id, 59);
    expect((await reality(a)).body).toMatchObject({ due: false, minutes_played: 59 });
    await age(a.id, 60);
    expect((await reality(a)).body).toMatchObject({ due: true, minutes_played: 60 });
  });

  test('staff tokens work as any account’s', async () => {
    await age(staff.id, 61);
    expect((await reality(staff)).body).toMatchObject({ interval_minutes: 60, due: true });
    expect((await acknowledge(staff)).body).toMatchObject({ due: false });
  });
});

describe('GET /api/v1/top-bar/ (the reality check and the bell, in one read)', () => {
  const topBar = (p: Player | null, lng = 'en') => to(t, api.topBar, { as: p, lang: lng });
  const unread = (p: Player) => to(t, api.unreadNotifications, { as: p });
  const message = (p: Player, key: string, read: boolean) =>
    t.db.query(
      `INSERT INTO player_messages (user_id, kind, event_key, params, read_at, sms_state) VALUES ($1, 'new_lottery', $2, '{}', $3, 'none')`,
      [p.id, key, read ? new Date().toISOString() : null],
    );

  test('anonymous 401; a player gets what the reality check and the unread count answer, each his own', async () => {
    const anonymous = await topBar(null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_authenticated');

    await t.db.query('DELETE FROM player_messages WHERE user_id = ANY($1)', [[a.id, b.id]]);
    const lottery = await insertLottery(t, { price: 100 });
    await age(a.id, 61);
    expect((await sendMoney(b, lottery)).status).toBe(201); // b's, not a's
    await t.db.query('DELETE FROM player_messages WHERE user_id = ANY($1)', [[a.id, b.id]]);
    await message(a, 'top-bar:1', false);
    await message(a, 'top-bar:2', false);
    await message(a, 'top-bar:3', true);
    await message(b, 'top-bar:4', false);

    const res = await topBar(a);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reality: (await reality(a)).body, unread: 2 });
    expect(res.body.reality).toMatchObject({ due: true, minutes_played: 61, spent: 0, tickets: 0 });
    expect((await unread(a)).body).toEqual({ unread: 2 });
    expect((await topBar(b)).body).toMatchObject({ reality: { due: false, spent: 100, tickets: 1 }, unread: 1 });

    // Read, and acknowledged: the next read says so.
    await t.db.query('UPDATE player_messages SET read_at = now() WHERE user_id = $1', [a.id]);
    await acknowledge(a);
    expect((await topBar(a)).body).toMatchObject({ reality: { due: false }, unread: 0 });
  });

  test('staff tokens work as any account’s', async () => {
    await t.db.query('DELETE FROM player_messages WHERE user_id = $1', [staff.id]);
    await message(staff, 'top-bar:staff', false);
    expect((await topBar(staff)).body).toMatchObject({ reality: { interval_minutes: 60 }, unread: 1 });
  });
});

describe('POST /api/v1/reality-check/ (Continue playing)', () => {
  test('acknowledges the reminder due: the next is due an interval later; the answer is the same shape', async () => {
    await age(a.id, 75);
    const before = Date.now();
    const res = await acknowledge(a);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ interval_minutes: 60, due: false, minutes_played: 75, spent: 0, tickets: 0 });
    const next = Date.parse(res.body.due_at);
    expect(next).toBeGreaterThanOrEqual(before + 60 * MIN - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + 60 * MIN);
    expect((await reality(a)).body.due).toBe(false);
    // An hour after the acknowledgement it is due again.
    await t.db.query(`UPDATE refresh_tokens SET reality_acknowledged_at = now() - interval '60 minutes' WHERE user_id = $1`, [a.id]);
    expect((await reality(a)).body.due).toBe(true);
  });

  test('when nothing is due it changes nothing: a reminder cannot be put off before it is shown', async () => {
    await age(a.id, 30);
    const res = await acknowledge(a);
    expect(res.status).toBe(200);
    expect(res.body.due).toBe(false);
    expect(await acknowledgedAt(a)).toEqual([null]);
    await age(a.id, 60);
    expect((await reality(a)).body.due).toBe(true);
  });

  test('it is the session’s: a second login of the same player has its own reminder', async () => {
    const u = await createUser(t, { name: 'Two Phones', phone: '01699999991' });
    const login = async () => {
      const res = await to(t, api.login).send({ phone: u.phone, password: u.password });
      return { id: u.id, phone: u.phone, token: res.body.access, auth: ['Authorization', `Bearer ${res.body.access}`] } as Player;
    };
    const phone1 = await login();
    const phone2 = await login();
    await age(u.id, 90);
    await acknowledge(phone1).expect(200);
    expect((await reality(phone1)).body.due).toBe(false);
    expect((await reality(phone2)).body.due).toBe(true);
    const lottery = await insertLottery(t);
    expect((await sendMoney(phone1, lottery)).status).toBe(201);
    expect((await sendMoney(phone2, lottery)).body.code).toBe('reality_check');
  });
});

describe('PUT /api/v1/reality-check/ (how often)', () => {
  test('0, 15, 30, 60 or 120, as a number or digits; takes effect at once, in both directions', async () => {
    await age(a.id, 40);
    const lottery = await insertLottery(t);
    const shorter = await setInterval(a, { interval_minutes: 30 });
    expect(shorter.status).toBe(200);
    expect(shorter.body).toMatchObject({ interval_minutes: 30, due: true, minutes_played: 40 });
    expect((await sendMoney(a, lottery)).body.code).toBe('reality_check');
    const off = await setInterval(a, { interval_minutes: 0 });
    expect(off.body).toMatchObject({ interval_minutes: 0, due: false, due_at: null });
    expect((await sendMoney(a, lottery)).status).toBe(201);
    expect((await setInterval(a, { interval_minutes: '120' })).body).toMatchObject({ interval_minutes: 120, due: false });
    expect((await setInterval(a, { interval_minutes: 15 })).body).toMatchObject({ interval_minutes: 15, due: true });
    // Another player keeps the default.
    expect((await reality(b)).body.interval_minutes).toBe(60);
    // His limits are untouched by it, and it by them.
    await to(t, api.setMyLimits, { as: a }).send({ day: 500 }).expect(200);
    expect((await reality(a)).body.interval_minutes).toBe(15);
    expect((await to(t, api.myLimits, { as: a })).body.limits).toEqual({ day: 500, week: null, month: null });
  });

  test('each bad value: 400 under its field in the caller’s language, nothing changed', async () => {
    await setInterval(a, { interval_minutes: 30 }).expect(200);
    const message = 'Choose how often to be reminded: off, or every 15, 30, 60 or 120 minutes.';
    for (const bad of [45, -15, 15.5, '15 minutes', '', null, true, [15], { n: 15 }, 1e12]) {
      const res = await setInterval(a, { interval_minutes: bad });
      expect({ bad, status: res.status, body: res.body }).toEqual({ bad, status: 400, body: { interval_minutes: [message] } });
    }
    expect((await setInterval(a, {})).body).toEqual({ interval_minutes: [message] });
    const bn = await setInterval(a, { interval_minutes: 7 }, 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ interval_minutes: ['কত পরপর মনে করিয়ে দেওয়া হবে, তা বেছে নিন: বন্ধ, অথবা প্রতি ১৫, ৩০, ৬০ বা ১২০ মিনিটে।'] });
    expect((await setInterval(a, { interval_minutes: 15, day: 100 })).body).toEqual({ day: ['Unknown field.'] });
    const notJson = await to(t, api.setRealityCheck, { as: a }).set('Content-Type', 'application/json').send('[15]');
    expect(notJson.status).toBe(400);
    expect((await reality(a)).body.interval_minutes).toBe(30);
  });
});

describe('every purchase path while a reminder is due', () => {
  test('a Send Money purchase: 409 reality_check with the session’s time and spending, in en and bn; allowed once acknowledged', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    await age(a.id, 30);
    expect((await sendMoney(a, lottery)).status).toBe(201);
    await age(a.id, 61);
    const refused = await sendMoney(a, lottery);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail:
        'Time for a reality check: you have been playing for 1 hour 1 minute in this session and have bought 1 ticket for TK. 100 ' +
        'since you logged in. Please confirm that you want to continue playing before you buy more.',
      code: 'reality_check',
      interval_minutes: 60,
      due: true,
      due_at: expect.any(String),
      session_started_at: expect.any(String),
      minutes_played: 61,
      spent: 100,
      tickets: 1,
    });
    const bn = await sendMoney(a, lottery, 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body.detail).toBe(
      'আপনার খেলার হিসাব: এই সেশনে আপনি ১ ঘণ্টা ১ মিনিট ধরে খেলছেন এবং লগইন করার পর থেকে ১টি টিকিট কিনেছেন, মোট ৳১০০। ' +
        'আরও কেনার আগে অনুগ্রহ করে নিশ্চিত করুন যে আপনি খেলা চালিয়ে যেতে চান।',
    );
    expect(await transactions()).toBe(1);
    // Others play on.
    expect((await sendMoney(b, lottery)).status).toBe(201);
    await acknowledge(a).expect(200);
    expect((await sendMoney(a, lottery)).status).toBe(201);
    expect((await reality(a)).body).toMatchObject({ spent: 200, tickets: 2 });
  });

  test('a retry of a purchase already made (its idempotency key) is not a new purchase: answered, not refused', async () => {
    const lottery = await insertLottery(t);
    const body = purchase(lottery, nextTicket(), { trx_id: trxId() });
    expect((await buy(t, a, body, 'retry-key-1')).status).toBe(201);
    await age(a.id, 61);
    const again = await buy(t, a, body, 'retry-key-1');
    expect(again.status).toBe(200);
    expect(await transactions()).toBe(1);
  });

  test('a bKash checkout started: 409 reality_check, no payment made; started once acknowledged', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const id = await pendingPurchase(a, lottery);
    await age(a.id, 121);
    const refused = await startCheckout(a, id, 'bn');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'reality_check', minutes_played: 121, spent: 100, tickets: 1 });
    expect(refused.body.detail).toContain('২ ঘণ্টা ১ মিনিট');
    expect(refused.body.detail).not.toMatch(/[0-9]/);
    expect((await t.db.query('SELECT * FROM bkash_payments')).length).toBe(0);
    await acknowledge(a).expect(200);
    expect((await startCheckout(a, id)).status).toBe(201);
  });

  test('a generated ticket activated: 409 reality_check, the ticket stays free; activated once acknowledged', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const g = await generated(lottery);
    await age(a.id, 60);
    const refused = await activate(a, g);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('reality_check');
    expect(await transactions()).toBe(0);
    await acknowledge(a).expect(200);
    expect((await activate(a, g)).status).toBe(200);
  });

  test('self-exclusion is told first; reminders off: nothing is refused for time', async () => {
    const lottery = await insertLottery(t);
    await age(a.id, 61);
    await to(t, api.selfExclusion, { as: a }).send({ period: '6m', confirm: true }).expect(200);
    expect((await sendMoney(a, lottery)).body.code).toBe('self_excluded');
    await age(b.id, 500);
    await setInterval(b, { interval_minutes: 0 }).expect(200);
    expect((await sendMoney(b, lottery)).status).toBe(201);
  });
});

describe('the pages, without JavaScript', () => {
  /** The root route's data a page was rendered with: its hydration data (views/document.tsx). */
  const rootDataOf = (html: string): unknown => {
    const json = /<script type="application\/json" id="__bh_data">([\s\S]*?)<\/script>/.exec(html)?.[1];
    return (JSON.parse(json ?? 'null') as { hydration: { loaderData: { root: unknown } } }).hydration.loaderData.root;
  };

  test("a player's page shows the top bar GET /api/v1/top-bar/ answers for his session (read with the page's session check)", async () => {
    const { agent, id } = await pageAccount(t, { name: 'Shirin Akter' });
    const message = (key: string, read: boolean) =>
      t.db.query(
        `INSERT INTO player_messages (user_id, kind, event_key, params, read_at, sms_state) VALUES ($1, 'new_lottery', $2, '{}', $3, 'none')`,
        [id, key, read ? new Date().toISOString() : null],
      );
    await message('page-top-bar:1', false);
    await message('page-top-bar:2', false);
    await message('page-top-bar:3', true);
    await age(id, 70);
    // The same session through /bff, where the endpoint reads the top bar with a statement of its own.
    const api = (await agent.get('/bff/api/v1/top-bar/').expect(200)).body as {
      reality: { due: boolean; minutes_played: number };
      unread: number;
    };
    expect(api).toMatchObject({ unread: 2, reality: { due: true, minutes_played: 70 } });
    const page = await agent.get('/my-lotteries').expect(200);
    expect(rootDataOf(page.text)).toMatchObject(api);
    expect(page.text).toContain('Notifications, 2 unread');
    expect(page.text).toContain('You have been playing for 1 hour 10 minutes in this session.');
    // Another player's page shows his own.
    const other = await pageAccount(t, { name: 'Jamal Hossain' });
    expect(rootDataOf((await other.agent.get('/my-lotteries').expect(200)).text)).toMatchObject({ unread: 0, reality: { due: false } });
  });

  test('the reminder shows on every player page while due; "Continue playing" acknowledges and goes back to the page', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Karim Mia' });
    const lottery = await insertLottery(t, { price: 100 });
    expect((await agent.get('/profile').expect(200)).text).not.toContain('Continue playing');
    await age(id, 75);
    for (const path of ['/profile', '/my-lotteries', `/quick-play/${lottery}/01-02-03-04-05-06`, '/all-lotteries', '/']) {
      const page = await agent.get(path).expect(200);
      expect({ path, shown: page.text.includes('You have been playing for 1 hour 15 minutes in this session.') }).toEqual({
        path,
        shown: true,
      });
    }
    const page = await agent.get('/profile').expect(200);
    expect(page.text).toContain('Reality check');
    expect(page.text).toContain('Since you logged in you have bought 0 tickets for ');
    expect(page.text).toContain('Continue playing');
    expect(page.text).toContain('See my limits');
    expect(page.text).toContain('href="/profile/limits"');
    expect(page.text).toMatch(/<form[^>]*action="\/logout"/);
    expect(page.text).toMatch(/<form[^>]*action="\/reality-check"/);
    expect(page.text).toContain('name="from" value="/profile"');

    // Without the CSRF token: refused, nothing acknowledged.
    const forged = await agent.post('/reality-check').type('form').send({ from: '/profile' });
    expect(forged.status).toBe(403);
    expect((await agent.get('/profile')).text).toContain('Continue playing');

    const done = await agent
      .post('/reality-check')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), from: '/profile?updated=1' });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/profile?updated=1');
    expect((await agent.get('/profile').expect(200)).text).not.toContain('Continue playing');
    const stats = await agent.get('/reality-check').expect(200);
    expect(stats.text).toContain('No reminder is due now.');
    expect(stats.text).toContain('1 hour 15 minutes');
  });

  test('in Bengali, with Bengali digits; "from" elsewhere than this site goes home', async () => {
    const { agent, id } = await pageAccount(t, { name: 'রহিম', lang: 'bn' });
    const lottery = await insertLottery(t, { price: 100 });
    await age(id, 30);
    expect((await buyOnPage(agent, lottery, '05-12-23-34-45-07')).status).toBe(303);
    await age(id, 125);
    const page = await agent.get('/profile').expect(200);
    expect(page.text).toContain('আপনার খেলার হিসাব');
    expect(page.text).toContain('এই সেশনে আপনি ২ ঘণ্টা ৫ মিনিট ধরে খেলছেন।');
    expect(page.text).toContain('লগইন করার পর থেকে আপনি ১টি টিকিট কিনেছেন, মোট <span class="nowrap">৳১০০</span>।');
    expect(page.text).toContain('খেলা চালিয়ে যান');
    expect(page.text).toContain('আমার সীমা দেখুন');
    // The ticket page refuses a purchase with the API's message.
    const refused = await buyOnPage(agent, lottery, '01-02-03-04-05-06');
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('আরও কেনার আগে অনুগ্রহ করে নিশ্চিত করুন যে আপনি খেলা চালিয়ে যেতে চান।');
    const done = await agent
      .post('/reality-check')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), from: '//evil.example/x' });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/');
    expect((await agent.get('/profile').expect(200)).text).not.toContain('খেলা চালিয়ে যান');
  });

  test('/profile/limits sets how often; a bad value comes back under the field; takes effect at once', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Fatema Begum' });
    await age(id, 20);
    const page = await agent.get('/profile/limits').expect(200);
    expect(page.text).toContain('Remind me');
    expect(page.text).toMatch(/<input[^>]*value="60"[^>]*checked|<input[^>]*checked[^>]*value="60"/);
    expect(page.text).toContain('This session so far: 20 minutes, 0 tickets, <span class="nowrap">TK. 0</span> spent.');
    const bad = await agent
      .post('/profile/limits')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'reality', interval_minutes: '45' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Choose how often to be reminded: off, or every 15, 30, 60 or 120 minutes.');
    const saved = await agent
      .post('/profile/limits')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'reality', interval_minutes: '15' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/profile/limits?saved=reality');
    const after = await agent.get('/profile/limits?saved=reality').expect(200);
    expect(after.text).toContain('Your reminder was saved. It applies at once.');
    // 20 minutes into the session, every 15 minutes: due now, shown on this page too.
    expect(after.text).toContain('You have been playing for 20 minutes in this session.');
  });

  test('staff pages do not show it; a staff member’s own session sees it on the player pages', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Support Officer', is_staff: true });
    await age(id, 90);
    const dashboard = await agent.get('/admin/dashboard').expect(200);
    expect(dashboard.text).not.toContain('Continue playing');
    expect((await agent.get('/profile').expect(200)).text).toContain('Continue playing');
  });
});
