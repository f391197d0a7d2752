/**
 * SMS through the real gateways' APIs (docs/rules/messages.md#7-sms-gateways): the app with the live notifier, SSL
 * Wireless first and Alpha SMS as its fallback, or Alpha SMS alone, each against its stand-in over HTTP
 * (scripts/sms-gateways/stand-in.ts). A code and a Bengali message arrive as sent; a refusal fails the send and goes
 * nowhere else; a send not taken for now goes to the fallback; a send whose outcome is unknown goes nowhere else, so a
 * code never goes out twice; a player's message retried after a lost answer is not sent twice; delivery reports change
 * what staff see.
 */
import request from 'supertest';
import { api } from '../../shared/api/contract.ts';
import { tell } from '../../server/messages/outbox.ts';
import { startSmsStandIn, STAND_IN_CREDENTIALS, type SmsStandIn } from '../../scripts/sms-gateways/stand-in.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { loginAs } from '../helpers/session.ts';
import { account } from './purchase-fixtures.ts';
import { uniquePhone, type Account } from '../helpers/factories.ts';

const SSL = {
  SMS_GATEWAY: 'sslwireless',
  SSLWIRELESS_API_TOKEN: STAND_IN_CREDENTIALS.sslwireless.apiToken,
  SSLWIRELESS_SID: STAND_IN_CREDENTIALS.sslwireless.sid,
};
const ALPHA = { ALPHASMS_API_KEY: STAND_IN_CREDENTIALS.alphasms.apiKey };

/** The app, live, with its gateways at the stand-in (e-mail to a closed port: no test here sends one). */
const liveApp = (sim: SmsStandIn, env: Record<string, string>) =>
  startTestApp({
    NOTIFY_TRANSPORT: 'live',
    SMTP_URL: 'smtp://127.0.0.1:9',
    SSLWIRELESS_URL: `${sim.url}/sslwireless`,
    ALPHASMS_URL: `${sim.url}/alphasms`,
    NOTIFY_TIMEOUT_MS: '800',
    ...env,
  });

type Row = {
  id: number;
  body: string;
  gateway: string | null;
  state: string;
  reference: string | null;
  gateway_ref: string | null;
  error: string | null;
};
const lastSend = async (t: TestApp, phone: string): Promise<Row> => {
  const row = await t.db.one<Row>(
    'SELECT id, body, gateway, state, reference, gateway_ref, error FROM outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
    [phone],
  );
  if (!row) throw new Error(`nothing was sent to ${phone}`);
  return row;
};

const signUp = (t: TestApp, phone: string, lng = 'en') =>
  to(t, api.signup)
    .set('Accept-Language', lng)
    .send({ date_of_birth: '1990-01-01', name: 'Rahim Uddin', email: null, phone, password: 'pass-word-1' });

/** A message to a Bengali-speaking player, written as its event would, waiting for the sender. */
const payoutMessage = (t: TestApp, userId: number, key: string) =>
  tell(t.db, {
    userId,
    kind: 'payout_sent',
    key,
    params: { lottery_id: 1, lottery: 'Bhagya Lotto', lottery_bn: 'ভাগ্য লটো', ticket: '05-12-23-34-45-07', prize_id: 1, amount: 5000 },
  });

/** A Bengali message sent by the sender through `gateway`: what the stand-in got is the text as written, Bengali letters and all. */
async function bengaliMessage(t: TestApp, sim: SmsStandIn, gateway: 'sslwireless' | 'alphasms', key: string) {
  const p = await account(t);
  await payoutMessage(t, p.id, key);
  await t.app.messages.dispatch();
  const got = sim.received.at(-1)!;
  expect(got.gateway).toBe(gateway);
  expect(got.text).toMatch(/[\u0980-\u09ff]/); // Bengali letters
  expect(got.text).toBe((await lastSend(t, p.phone)).body);
  return { p, got };
}

/** A player's message sent once by the sender with `gateway`'s answer lost; what the stand-in had taken before it. */
async function lostAnswer(t: TestApp, sim: SmsStandIn, gateway: 'sslwireless' | 'alphasms', key: string) {
  const p = await account(t);
  await payoutMessage(t, p.id, key);
  const before = sim.received.length;
  sim.fail(gateway, 'lose_answer');
  await t.app.messages.dispatch();
  return { p, before };
}

const smsState = async (t: TestApp, key: string) =>
  (await t.db.one<{ sms_state: string; sms_reference: string }>(
    'SELECT sms_state, sms_reference FROM player_messages WHERE event_key = $1',
    [key],
  ))!;

/** A describe's stand-ins and live app with `env`, started before its tests and stopped after them, and a staff member. */
function liveSuite(env: Record<string, string>): { sim: SmsStandIn; t: TestApp; staff: Account } {
  const s = {} as { sim: SmsStandIn; t: TestApp; staff: Account };
  beforeAll(async () => {
    s.sim = await startSmsStandIn();
    s.t = await liveApp(s.sim, env);
    s.staff = await account(s.t, { is_staff: true });
  });
  afterAll(async () => {
    await s.t.close();
    await s.sim.close();
  });
  return s;
}

describe('SSL Wireless, with Alpha SMS as the fallback', () => {
  const s = liveSuite({ ...SSL, ...ALPHA, SMS_FALLBACK_GATEWAY: 'alphasms' });
  let sim: SmsStandIn;
  let t: TestApp;
  let staff: Account;
  beforeAll(() => ({ sim, t, staff } = s));

  test('a sign-up code goes to SSL Wireless as 8801…, with our reference as its csms_id; the outbox keeps it blanked, sent', async () => {
    const phone = uniquePhone();
    expect((await signUp(t, phone)).status).toBe(201);
    await t.settled();
    const got = sim.received.at(-1)!;
    expect(got).toMatchObject({ gateway: 'sslwireless', to: `88${phone}` });
    const code = /\b(\d{6})\b/.exec(got.text)?.[1];
    expect(code).toBeDefined();
    const row = await lastSend(t, phone);
    expect(row).toMatchObject({ gateway: 'sslwireless', state: 'sent', reference: got.reference, gateway_ref: got.ref, error: null });
    expect(row.body).toBe(got.text.replace(code!, '••••••'));
    expect(got.reference).toMatch(/^[a-z0-9]{1,20}$/);
  });

  test("a Bengali message reaches SSL Wireless intact, in the player's language", async () => {
    const { got } = await bengaliMessage(t, sim, 'sslwireless', 'payout_sent:bn:ssl');
    expect(await smsState(t, 'payout_sent:bn:ssl')).toMatchObject({ sms_state: 'sent', sms_reference: got.reference });
  });

  test('a refusal (4001) fails the code with the clear 503 and sends it nowhere else', async () => {
    const phone = uniquePhone();
    const before = sim.received.length;
    sim.fail('sslwireless', 'refuse');
    const r = await signUp(t, phone, 'bn');
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('send_failed');
    expect(sim.received.length).toBe(before);
    expect(await lastSend(t, phone)).toMatchObject({
      gateway: 'sslwireless',
      state: 'failed',
      error: 'sslwireless: 4001 unauthorized (API token)',
    });
  });

  test.each([
    ['a rate limit (4029)', 'rate_limit', '4029 too many requests'],
    ['HTTP 503', 'http503', 'HTTP 503'],
  ] as const)('%s is not taken for now: the code goes to Alpha SMS instead, once', async (_, mode, reason) => {
    const phone = uniquePhone();
    const before = sim.received.length;
    sim.fail('sslwireless', mode);
    expect((await signUp(t, phone)).status).toBe(201);
    await t.settled();
    expect(sim.received.slice(before)).toEqual([expect.objectContaining({ gateway: 'alphasms', to: `88${phone}` })]);
    expect(await lastSend(t, phone)).toMatchObject({ gateway: 'alphasms', state: 'sent', error: `sslwireless: ${reason}` });
  });

  test.each([
    ['its answer is lost', 'lose_answer', 1],
    ['it never answers', 'timeout', 0],
  ] as const)('a code SSL Wireless may have sent (%s) is never sent by Alpha SMS: the send fails, unknown', async (_, mode, taken) => {
    const phone = uniquePhone();
    const before = sim.received.length;
    sim.fail('sslwireless', mode);
    expect((await signUp(t, phone)).status).toBe(503);
    expect(sim.received.slice(before).map((r) => r.gateway)).toEqual(Array(taken).fill('sslwireless'));
    expect(await lastSend(t, phone)).toMatchObject({ gateway: 'sslwireless', state: 'unknown' });
  });

  test("a player's message whose answer was lost is tried again with its csms_id: SSL Wireless says duplicate, it is sent once", async () => {
    const { before } = await lostAnswer(t, sim, 'sslwireless', 'payout_sent:lost:ssl');
    expect(await smsState(t, 'payout_sent:lost:ssl')).toMatchObject({ sms_state: 'queued' });
    await t.app.messages.dispatch();
    const { sms_state, sms_reference } = await smsState(t, 'payout_sent:lost:ssl');
    expect(sms_state).toBe('sent');
    expect(sim.received.slice(before)).toEqual([expect.objectContaining({ gateway: 'sslwireless', reference: sms_reference })]);
    const rows = await t.db.query<{ state: string; gateway: string }>(
      'SELECT state, gateway FROM outbox WHERE reference = $1 ORDER BY id',
      [sms_reference],
    );
    expect(rows).toEqual([
      { state: 'unknown', gateway: 'sslwireless' },
      { state: 'sent', gateway: 'sslwireless' },
    ]);
  });

  test('staff read the sends, newest first, by state; a player may not', async () => {
    const r = await to(t, api.deliveries, { query: { state: 'unknown' } }).set(...staff.auth);
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThan(0);
    expect(r.body.every((d: { state: string; channel: string }) => d.state === 'unknown' && d.channel === 'sms')).toBe(true);
    expect(Object.keys(r.body[0]).sort()).toEqual([
      'channel',
      'created_at',
      'error',
      'gateway',
      'id',
      'purpose',
      'state',
      'state_at',
      'to',
    ]);
    const player = await account(t);
    expect((await to(t, api.deliveries).set(...player.auth)).status).toBe(403);
  });
});

describe('Alpha SMS alone, with its delivery reports', () => {
  const s = liveSuite({ SMS_GATEWAY: 'alphasms', ...ALPHA });
  let sim: SmsStandIn;
  let t: TestApp;
  let staff: Account;
  beforeAll(() => ({ sim, t, staff } = s));

  const stateFor = async (phone: string) => {
    const r = await to(t, api.deliveries, { query: { to: phone } }).set(...staff.auth);
    expect(r.status).toBe(200);
    return (r.body as { state: string; gateway: string }[]).map((d) => `${d.gateway} ${d.state}`);
  };

  test('a code goes as a form to Alpha SMS; its report makes it delivered for staff, asked once a minute at most', async () => {
    const phone = uniquePhone();
    expect((await signUp(t, phone)).status).toBe(201);
    await t.settled();
    const got = sim.received.at(-1)!;
    expect(got).toMatchObject({ gateway: 'alphasms', to: `88${phone}`, reference: null });
    expect(got.text).toMatch(/\b\d{6}\b/);
    expect(await lastSend(t, phone)).toMatchObject({ state: 'sent', gateway_ref: got.ref });
    expect(await t.app.deliveries.checkReports()).toBe(0); // the gateway still says Sent
    expect(await stateFor(phone)).toEqual(['alphasms sent']);
    sim.report(got.ref, 'Delivered');
    const asked = sim.reportsAsked();
    expect(await t.app.deliveries.checkReports()).toBe(0); // asked a moment ago: not again within the minute
    expect(sim.reportsAsked()).toBe(asked);
    await t.db.query("UPDATE outbox SET checked_at = now() - interval '2 minutes' WHERE gateway_ref = $1", [got.ref]);
    expect(await t.app.deliveries.checkReports()).toBe(1);
    expect(await stateFor(phone)).toEqual(['alphasms delivered']);
  });

  test('a Bengali message reaches Alpha SMS intact; a failed report makes it failed', async () => {
    const { p, got } = await bengaliMessage(t, sim, 'alphasms', 'payout_sent:bn:alpha');
    sim.report(got.ref, 'Failed');
    await t.db.query('UPDATE outbox SET checked_at = NULL WHERE gateway_ref = $1', [got.ref]);
    await t.app.deliveries.checkReports();
    expect(await stateFor(p.phone)).toEqual(['alphasms failed']);
  });

  test('the back office page lists the sends by state, in both languages, without their text', async () => {
    const agent = await loginAs(t.url, staff.phone, staff.password);
    const en = await agent.get('/admin/deliveries?state=failed').expect(200);
    expect(en.text).toContain('Messages sent');
    // The failed send: what it was for, in words.
    expect(en.text).toContain('<td>Prize sent</td>');
    expect(en.text).not.toContain('ভাগ্য লটো'); // the message's text is the player's
    const sent = await t.db.one<{ body: string }>("SELECT body FROM outbox WHERE purpose = 'payout_sent' ORDER BY id DESC LIMIT 1");
    expect(en.text).not.toContain(sent!.body.slice(0, 12));
    const bn = await agent.get('/admin/deliveries?state=delivered').set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('পাঠানো বার্তা');
    expect(bn.text).toContain('পৌঁছেছে');
    // Only the delivered sends: not the failed one.
    expect(bn.text).not.toContain('<td>পুরস্কার পাঠানো হয়েছে</td>');
  });

  test('insufficient balance (417) is a refusal: 503 for the code', async () => {
    const phone = uniquePhone();
    sim.fail('alphasms', 'refuse');
    expect((await signUp(t, phone)).status).toBe(503);
    expect(await lastSend(t, phone)).toMatchObject({ state: 'failed', error: 'alphasms: 417 insufficient balance' });
  });

  test("a player's message whose answer was lost is not tried again: Alpha SMS cannot tell a repeat, so it is failed, sent once", async () => {
    const { p, before } = await lostAnswer(t, sim, 'alphasms', 'payout_sent:lost:alpha');
    await t.app.messages.dispatch();
    expect(await smsState(t, 'payout_sent:lost:alpha')).toMatchObject({ sms_state: 'failed' });
    expect(sim.received.length - before).toBe(1);
    expect(await stateFor(p.phone)).toEqual(['alphasms unknown']);
  });
});

describe('the stand-ins speak the documented formats', () => {
  let sim: SmsStandIn;
  beforeAll(async () => {
    sim = await startSmsStandIn();
  });
  afterAll(() => sim.close());

  test('SSL Wireless: 4001 for a wrong token, 4025 for a number not 8801…, 4023 for a csms_id taken today', async () => {
    const send = (o: Record<string, string>) =>
      request(sim.url)
        .post('/sslwireless/api/v3/send-sms')
        .send({
          api_token: SSL.SSLWIRELESS_API_TOKEN,
          sid: SSL.SSLWIRELESS_SID,
          msisdn: '8801711111111',
          sms: 'hi',
          csms_id: 'abc1',
          ...o,
        });
    expect((await send({ api_token: 'wrong' })).body).toMatchObject({ status: 'FAILED', status_code: 4001 });
    expect((await send({ msisdn: '01711111111' })).body).toMatchObject({ status: 'FAILED', status_code: 4025 });
    const ok = await send({ sms: 'ভাগ্য' });
    expect(ok.body).toMatchObject({
      status: 'SUCCESS',
      status_code: 200,
      smsinfo: [{ sms_status: 'SUCCESS', sms_type: 'BN', csms_id: 'abc1' }],
    });
    expect((await send({})).body).toMatchObject({ status: 'FAILED', status_code: 4023 });
  });

  test('Alpha SMS: error 405 without the key, 416 for no valid number, and a report by request_id', async () => {
    const send = (o: Record<string, string>) =>
      request(sim.url)
        .post('/alphasms/sendsms')
        .type('form')
        .send({ api_key: ALPHA.ALPHASMS_API_KEY, msg: 'hi', to: '8801711111111', ...o });
    expect((await send({ api_key: 'wrong' })).body).toMatchObject({ error: 405 });
    expect((await send({ to: '123' })).body).toMatchObject({ error: 416 });
    const ok = await send({});
    expect(ok.body).toMatchObject({ error: 0, data: { request_id: expect.any(Number) } });
    const report = await request(sim.url).get(`/alphasms/report/request/${ok.body.data.request_id}/?api_key=${ALPHA.ALPHASMS_API_KEY}`);
    expect(report.body).toMatchObject({ error: 0, data: { recipients: [{ number: '8801711111111', status: 'Sent' }] } });
  });
});
