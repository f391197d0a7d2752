/**
 * The bKash simulator (scripts/bkash-simulator/simulator.ts) as the app mounts it at /_bkash: its API's errors, the
 * player's checkout pages step by step (docs/rules/bkash.md#6-the-simulator), the control endpoint, and a success
 * callback that arrives twice.
 */
import http from 'node:http';
import express from 'express';
import request from 'supertest';
import { BkashSimulator, SANDBOX, startSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { PATHS, PAYOUT_PATHS } from '../../server/payments/bkash/wire.ts';
import { until } from '../helpers/wait.ts';

const CREDS = { appKey: 'sim-app-key', appSecret: 'sim-app-secret-XYZ', username: 'sim-user', password: 'sim-pass-Q7' };
const CALLBACK = 'https://bhagya.example/payment/bkash/callback';

let now = Date.now();
const sim = new BkashSimulator({ ...CREDS, now: () => now });
const app = express();
app.use('/_bkash', sim.router({ control: true }));
const plain = express();
plain.use('/_bkash', new BkashSimulator(CREDS).router());

afterEach(() => {
  sim.reset();
  now = Date.now();
});

const token = (): Promise<string> => tokenOf(app);

async function tokenOf(a: express.Express): Promise<string> {
  const r = await request(a)
    .post(`/_bkash${PATHS.grant}`)
    .set({ username: CREDS.username, password: CREDS.password })
    .send({ app_key: CREDS.appKey, app_secret: CREDS.appSecret });
  expect(r.body).toMatchObject({ statusCode: '0000', token_type: 'Bearer', expires_in: 3600 });
  return r.body.id_token as string;
}

async function create(over: Record<string, string> = {}): Promise<{ paymentID: string; bkashURL: string; body: Record<string, unknown> }> {
  const r = await request(app)
    .post(`/_bkash${PATHS.create}`)
    .set({ authorization: await token(), 'x-app-key': CREDS.appKey })
    .send({
      mode: '0011',
      payerReference: '01712345678',
      callbackURL: CALLBACK,
      amount: '100',
      currency: 'BDT',
      intent: 'sale',
      merchantInvoiceNumber: '42',
      ...over,
    });
  expect(r.status).toBe(200);
  return { paymentID: r.body.paymentID, bkashURL: r.body.bkashURL, body: r.body };
}

const page = (id: string) => `/_bkash/checkout/${id}`;
const post = (id: string, step: string, form: Record<string, string> = {}) =>
  request(app)
    .post(`${page(id)}/${step}`)
    .type('form')
    .send(form);

describe('the API', () => {
  test('create answers as bKash does; bkashURL is the public origin of the callback + the mount path', async () => {
    const { paymentID, bkashURL, body } = await create();
    expect(bkashURL).toBe(`https://bhagya.example/_bkash/checkout/${paymentID}`);
    expect(body).toMatchObject({
      statusCode: '0000',
      statusMessage: 'Successful',
      callbackURL: CALLBACK,
      amount: '100',
      intent: 'sale',
      currency: 'BDT',
      transactionStatus: 'Initiated',
      merchantInvoiceNumber: '42',
      paymentCreateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d:\d{3} GMT\+0600$/),
    });
    const success = new URL(body.successCallbackURL as string);
    expect(Object.fromEntries(success.searchParams)).toEqual({
      paymentID,
      status: 'success',
      signature: expect.any(String),
      apiVersion: '1.2.0-beta',
    });
  });

  test.each([
    [{ mode: '0101' }, '2063'],
    // A payment with an agreement names one in force.
    [{ mode: '0001' }, '2051'],
    [{ mode: '0001', agreementID: 'TokenizedMerchant01UNKNOWN' }, '2051'],
    [{ currency: 'USD' }, '2007'],
    [{ intent: 'authorization' }, '2008'],
    [{ amount: '0' }, '2006'],
    [{ amount: '10.555' }, '2006'],
    [{ amount: 'ten' }, '2006'],
    [{ callbackURL: 'javascript:alert(1)' }, '2049'],
    [{ callbackURL: 'not a url' }, '2049'],
    [{ payerReference: '' }, '2048'],
  ])('create %j is refused with %s', async (over, code) => {
    const r = await request(app)
      .post(`/_bkash${PATHS.create}`)
      .set({ authorization: await token(), 'x-app-key': CREDS.appKey })
      .send({
        mode: '0011',
        payerReference: 'p',
        callbackURL: CALLBACK,
        amount: '100',
        currency: 'BDT',
        intent: 'sale',
        merchantInvoiceNumber: '1',
        ...over,
      });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ statusCode: code, statusMessage: expect.any(String) });
  });

  test('without a valid token: HTTP 401; a wrong app key: 2001; a missing field: 2065; a body that is no JSON: 400 2025', async () => {
    const status = (headers: Record<string, string>) => request(app).post(`/_bkash${PATHS.status}`).set(headers).send({ paymentID: 'x' });
    expect((await status({})).status).toBe(401);
    expect((await status({ authorization: 'made-up', 'x-app-key': CREDS.appKey })).body).toEqual({ message: 'Unauthorized' });
    const t = await token();
    expect((await status({ authorization: `Bearer ${t}`, 'x-app-key': CREDS.appKey })).status).toBe(401);
    expect((await status({ authorization: t, 'x-app-key': 'other' })).body).toMatchObject({ statusCode: '2001' });
    now += 3600_000;
    const expired = await status({ authorization: t, 'x-app-key': CREDS.appKey });
    expect([expired.status, expired.body]).toEqual([401, { message: 'The incoming token has expired' }]);
    const fresh = await token();
    const missing = await request(app).post(`/_bkash${PATHS.execute}`).set({ authorization: fresh, 'x-app-key': CREDS.appKey }).send({});
    expect(missing.body).toMatchObject({ statusCode: '2065' });
    const broken = await request(app)
      .post(`/_bkash${PATHS.execute}`)
      .set({ authorization: fresh, 'x-app-key': CREDS.appKey, 'content-type': 'application/json' })
      .send('{"paymentID":');
    expect([broken.status, broken.body.statusCode]).toEqual([400, '2025']);
  });

  test('grant: wrong app key 2001, wrong secret, username or password 2043', async () => {
    const grant = (h: Record<string, string>, b: Record<string, string>) =>
      request(app)
        .post(`/_bkash${PATHS.grant}`)
        .set({ username: CREDS.username, password: CREDS.password, ...h })
        .send({ app_key: CREDS.appKey, app_secret: CREDS.appSecret, ...b });
    expect((await grant({}, { app_key: 'x' })).body).toEqual({ statusCode: '2001', statusMessage: 'Invalid App Key' });
    for (const [h, b] of [
      [{}, { app_secret: 'x' }],
      [{ username: 'x' }, {}],
      [{ password: 'x' }, {}],
    ] as const)
      expect((await grant(h, b)).body).toMatchObject({ statusCode: '2043' });
  });
});

describe('the checkout pages', () => {
  test('the first screen: bKash header, the merchant, the invoice and amount, a form per step, no script, a linked stylesheet', async () => {
    const { paymentID } = await create({ amount: '1500' });
    const r = await request(app).get(page(paymentID));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.text).toContain('<p class="bk-logo">bKash</p>');
    expect(r.text).toContain('Bhagya');
    expect(r.text).toContain('ভাগ্য');
    expect(r.text).toContain('TK. 1,500');
    expect(r.text).toContain('৳১,৫০০');
    expect(r.text).toContain('<dd class="bk-invoice">42</dd>');
    expect(r.text).toContain('Your bKash account number');
    expect(r.text).toContain('আপনার বিকাশ অ্যাকাউন্ট নম্বর');
    expect(r.text).toContain(`<form class="bk-form" method="post" action="/_bkash/checkout/${paymentID}/wallet">`);
    expect(r.text).toContain(`formaction="/_bkash/checkout/${paymentID}/cancel" formnovalidate`);
    expect(r.text).toContain('<link rel="stylesheet" href="/_bkash/assets/checkout.css">');
    expect(r.text).toContain(SANDBOX.wallet); // the sandbox values are shown to a newcomer
    expect(r.text).not.toMatch(/<script|style=|\son\w+=/i);
    // Confirm comes first in the form, so that Enter confirms and never cancels.
    expect(r.text.indexOf('bk-confirm')).toBeLessThan(r.text.indexOf('bk-cancel'));

    const css = await request(app).get('/_bkash/assets/checkout.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.text).toContain('#e2136e');
    expect(css.text).toContain("url('bengali.woff2')"); // relative to the stylesheet: found under any mount path
    const font = await request(app).get('/_bkash/assets/bengali.woff2');
    expect([font.status, font.headers['content-type']]).toEqual([200, 'font/woff2']);
    for (const other of ['other.css', 'constructor', '__proto__', '..%2F..%2Fpackage.json'])
      expect((await request(app).get(`/_bkash/assets/${other}`)).status).toBe(404);
  });

  test('wallet → code → PIN → Confirm: 303 to the success callback; the payment is authorised, still Initiated', async () => {
    const { paymentID } = await create();
    const w = await post(paymentID, 'wallet', { wallet: '+880 1770-618575' });
    expect([w.status, w.headers.location]).toEqual([303, page(paymentID)]);
    const codePage = await request(app).get(page(paymentID));
    expect(codePage.text).toContain('A verification code was sent to 0177*****75.');
    expect(codePage.text).toContain('০১৭৭*****৭৫ নম্বরে একটি যাচাই কোড পাঠানো হয়েছে।');
    expect(codePage.text).toContain(`action="/_bkash/checkout/${paymentID}/code"`);
    expect((await post(paymentID, 'code', { code: '১২৩৪৫৬' })).status).toBe(303); // Bengali digits are read too
    const pinPage = await request(app).get(page(paymentID));
    expect(pinPage.text).toContain('Your bKash PIN');
    expect(pinPage.text).toContain('type="password"');
    const done = await post(paymentID, 'pin', { pin: SANDBOX.pin });
    expect(done.status).toBe(303);
    const back = new URL(done.headers.location as string);
    expect(back.origin + back.pathname).toBe(CALLBACK);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      paymentID,
      status: 'success',
      signature: expect.any(String),
      apiVersion: '1.2.0-beta',
    });
    expect(sim.payment(paymentID)).toMatchObject({ authorised: true, status: 'Initiated', wallet: SANDBOX.wallet, executed: 0 });
    // A later visit says it is paid and links back; posting again changes nothing.
    expect((await request(app).get(page(paymentID))).text).toContain('Payment confirmed.');
    expect((await post(paymentID, 'cancel')).headers.location).toBe(done.headers.location);
    expect(sim.payment(paymentID)?.status).toBe('Initiated');
  });

  test('another wallet: Insufficient balance, then back to the failure callback', async () => {
    const { paymentID } = await create();
    const w = await post(paymentID, 'wallet', { wallet: '01812345678' });
    expect([w.status, w.headers.location]).toEqual([303, page(paymentID)]);
    const r = await request(app).get(page(paymentID));
    expect(r.text).toContain('Insufficient balance.');
    expect(r.text).toContain('আপনার অ্যাকাউন্টে পর্যাপ্ত ব্যালেন্স নেই।');
    const failure = sim.payment(paymentID);
    expect(failure).toMatchObject({ status: 'Failed', failure: { statusCode: '2023' } });
    const back = /<meta http-equiv="refresh" content="5;url=([^"]+)">/.exec(r.text)?.[1]?.replaceAll('&#38;', '&');
    expect(back).toBeDefined();
    expect(new URL(back as string).searchParams.get('status')).toBe('failure');
    expect(r.text).toContain(`href="${(back as string).replaceAll('&', '&#38;')}"`);
  });

  test('a wallet that is no phone number is asked again', async () => {
    const { paymentID } = await create();
    await post(paymentID, 'wallet', { wallet: '12345' });
    const r = await request(app).get(page(paymentID));
    expect(r.text).toContain('Enter an 11-digit bKash account number that starts with 01.');
    expect(r.text).toContain('aria-invalid="true"');
    expect(sim.payment(paymentID)?.status).toBe('Initiated');
  });

  test('a wrong code is asked again; a wrong PIN three times fails the payment', async () => {
    const { paymentID } = await create();
    await post(paymentID, 'wallet', { wallet: SANDBOX.wallet });
    await post(paymentID, 'code', { code: '000000' });
    expect((await request(app).get(page(paymentID))).text).toContain('Wrong verification code. 2 tries left.');
    await post(paymentID, 'code', { code: SANDBOX.code });
    await post(paymentID, 'pin', { pin: '11111' });
    const once = await request(app).get(page(paymentID));
    expect(once.text).toContain('Wrong PIN. 2 tries left.');
    expect(once.text).toContain('পিন সঠিক নয়। আর ২ বার চেষ্টা করতে পারবেন।');
    await post(paymentID, 'pin', { pin: '11111' });
    expect((await request(app).get(page(paymentID))).text).toContain('Wrong PIN. 1 try left.');
    const third = await post(paymentID, 'pin', { pin: '11111' });
    expect(third.headers.location).toBe(page(paymentID));
    const r = await request(app).get(page(paymentID));
    expect(r.text).toContain('Wrong PIN three times.');
    expect(r.text).toContain('status=failure');
    expect(sim.payment(paymentID)).toMatchObject({ status: 'Failed', failure: { statusCode: '2015' } });
    // The right PIN now changes nothing.
    expect((await post(paymentID, 'pin', { pin: SANDBOX.pin })).headers.location).toBe(page(paymentID));
    expect(sim.payment(paymentID)?.status).toBe('Failed');
  });

  test('a wrong code three times fails the payment', async () => {
    const { paymentID } = await create();
    await post(paymentID, 'wallet', { wallet: SANDBOX.wallet });
    for (let i = 0; i < 3; i++) await post(paymentID, 'code', { code: '999999' });
    expect(sim.payment(paymentID)).toMatchObject({ status: 'Failed', failure: { statusCode: '2017' } });
    expect((await request(app).get(page(paymentID))).text).toContain('Wrong verification code three times.');
  });

  test.each(['wallet', 'code', 'pin'] as const)('Cancel on the %s step: 303 to the cancel callback, Cancelled', async (at) => {
    const { paymentID } = await create();
    if (at !== 'wallet') await post(paymentID, 'wallet', { wallet: SANDBOX.wallet });
    if (at === 'pin') await post(paymentID, 'code', { code: SANDBOX.code });
    expect((await request(app).get(page(paymentID))).text).toContain(`formaction="/_bkash/checkout/${paymentID}/cancel"`);
    const r = await post(paymentID, 'cancel');
    expect(r.status).toBe(303);
    expect(new URL(r.headers.location as string).searchParams.get('status')).toBe('cancel');
    expect(sim.payment(paymentID)?.status).toBe('Cancelled');
  });

  test('an expired payment is Expired, its page sends the browser to the failure callback, and pay() does the same', async () => {
    const { paymentID } = await create();
    now += 5 * 60_000;
    const r = await request(app).get(page(paymentID));
    expect(r.text).toContain('This payment has expired.');
    expect(r.text).toContain('status=failure');
    expect(sim.payment(paymentID)?.status).toBe('Expired');
    expect(new URL(await sim.pay(paymentID)).searchParams.get('status')).toBe('failure');
  });

  test('hostile values are escaped; an unknown payment is a 404 page that does not repeat the address', async () => {
    const hostile = `<script>alert("x")</script>'&`;
    const { paymentID } = await create({ merchantInvoiceNumber: hostile, callbackURL: `${CALLBACK}?next="><script>alert(1)</script>` });
    const r = await request(app).get(page(paymentID));
    expect(r.text).not.toContain('<script');
    expect(r.text).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#39;&#38;');
    const unknown = await request(app).get('/_bkash/checkout/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('This payment does not exist.');
    expect(unknown.text).not.toMatch(/<script|alert/);
    expect((await post('TR0011nope', 'wallet', { wallet: SANDBOX.wallet })).status).toBe(404);
    // The callback address keeps its own query and gets bKash's fields.
    await post(paymentID, 'wallet', { wallet: SANDBOX.wallet });
    await post(paymentID, 'code', { code: SANDBOX.code });
    const back = new URL((await post(paymentID, 'pin', { pin: SANDBOX.pin })).headers.location as string);
    expect(back.searchParams.get('next')).toBe('"><script>alert(1)</script>');
    expect(back.searchParams.get('status')).toBe('success');
  });
});

describe('agreements (docs/rules/bkash.md#7-agreements)', () => {
  const api = async (path: string, body: object) =>
    request(app)
      .post(`/_bkash${path}`)
      .set({ authorization: await token(), 'x-app-key': CREDS.appKey })
      .send(body);

  /** An agreement created (0000), approved on its pages with the sandbox values, executed: its ID and its execute answer. */
  async function agreed(): Promise<{ agreementID: string; paymentID: string; executed: Record<string, unknown> }> {
    const c = await api(PATHS.create, { mode: '0000', payerReference: '01712345678', callbackURL: CALLBACK });
    expect(c.body).toMatchObject({
      statusCode: '0000',
      paymentID: expect.stringMatching(/^TR0000/),
      bkashURL: expect.stringContaining('/_bkash/checkout/'),
      payerReference: '01712345678',
      agreementStatus: 'Initiated',
      agreementCreateTime: expect.stringMatching(/GMT\+0600$/),
    });
    const paymentID = c.body.paymentID as string;
    // Its page asks for the wallet first and says what the agreement is; no amount.
    const first = await request(app).get(page(paymentID)).expect(200);
    expect(first.text).toContain('with your PIN only');
    expect(first.text).not.toContain('bk-amount');
    expect(await sim.pay(paymentID)).toContain('status=success');
    const e = await api(PATHS.execute, { paymentID });
    expect(e.body).toMatchObject({
      statusCode: '0000',
      paymentID,
      agreementID: expect.stringMatching(/^TokenizedMerchant01/),
      agreementStatus: 'Completed',
      customerMsisdn: SANDBOX.wallet,
      payerReference: '01712345678',
    });
    return { agreementID: e.body.agreementID as string, paymentID, executed: e.body };
  }

  test('create (0000), approve with wallet, code and PIN, execute: an agreement in force, its status as execute said', async () => {
    const { agreementID, paymentID } = await agreed();
    expect(sim.agreement(agreementID)).toEqual({
      agreementID,
      status: 'Completed',
      wallet: SANDBOX.wallet,
      payerReference: '01712345678',
      paymentID,
    });
    const st = await api(PATHS.agreementStatus, { agreementID });
    expect(st.body).toMatchObject({ statusCode: '0000', agreementID, agreementStatus: 'Completed', customerMsisdn: SANDBOX.wallet });
    // Executed once: a second execute is refused.
    expect((await api(PATHS.execute, { paymentID })).body.statusCode).toBe('2062');
    expect(sim.payment(paymentID)).toMatchObject({ kind: 'agreement', agreementID, executed: 1, executeCalls: 2 });
  });

  test('a payment with the agreement (0001): its page asks only for the PIN of the agreement’s wallet; executed, it is Completed', async () => {
    const { agreementID } = await agreed();
    const { paymentID } = await create({ mode: '0001', agreementID });
    expect(paymentID).toMatch(/^TR0001/);
    const screen = await request(app).get(page(paymentID)).expect(200);
    expect(screen.text).toContain('name="pin"');
    expect(screen.text).not.toContain('name="wallet"');
    expect(screen.text).toContain('0177*****75');
    const back = await post(paymentID, 'pin', { pin: SANDBOX.pin }).expect(303);
    expect(back.headers.location).toContain('status=success');
    const e = await api(PATHS.execute, { paymentID });
    expect(e.body).toMatchObject({ statusCode: '0000', transactionStatus: 'Completed', customerMsisdn: SANDBOX.wallet, amount: '100' });
    expect((await api(PATHS.status, { paymentID })).body).toMatchObject({ mode: '0001', transactionStatus: 'Completed' });
  });

  test('cancel: Cancelled; a second cancel 2053; a payment with it refused 2053; an unknown agreement 2051', async () => {
    const { agreementID } = await agreed();
    const c = await api(PATHS.agreementCancel, { agreementID });
    expect(c.body).toMatchObject({ statusCode: '0000', agreementID, agreementStatus: 'Cancelled', agreementVoidTime: expect.any(String) });
    expect((await api(PATHS.agreementCancel, { agreementID })).body.statusCode).toBe('2053');
    const pay = await create({ mode: '0001', agreementID });
    expect(pay.body.statusCode).toBe('2053');
    for (const path of [PATHS.agreementStatus, PATHS.agreementCancel])
      expect((await api(path, { agreementID: 'nope' })).body.statusCode).toBe('2051');
    expect(
      (
        await api(PATHS.create, {
          mode: '0001',
          payerReference: 'x',
          callbackURL: CALLBACK,
          amount: '1',
          currency: 'BDT',
          intent: 'sale',
          merchantInvoiceNumber: '1',
        })
      ).body.statusCode,
    ).toBe('2051');
    expect((await api(PATHS.create, { mode: '0101', payerReference: 'x', callbackURL: CALLBACK })).body.statusCode).toBe('2063');
  });

  test('an agreement cancelled in bKash’s app while its payment waits: the execute is refused and takes nothing', async () => {
    const { agreementID } = await agreed();
    const { paymentID } = await create({ mode: '0001', agreementID });
    await sim.pay(paymentID);
    sim.cancelAgreementInApp(agreementID);
    expect((await api(PATHS.execute, { paymentID })).body.statusCode).toBe('2053');
    expect(sim.payment(paymentID)).toMatchObject({ status: 'Failed', trxID: null });
  });

  test('failNext applies to the agreement calls', async () => {
    const { agreementID } = await agreed();
    sim.failNext('agreementStatus', 'http500');
    expect((await api(PATHS.agreementStatus, { agreementID })).status).toBe(500);
    sim.failNext('agreementCancel', 'refuse');
    expect((await api(PATHS.agreementCancel, { agreementID })).body.statusCode).toBe('2003');
    expect(sim.agreement(agreementID)?.status).toBe('Completed');
  });
});

describe('the control endpoint', () => {
  test('only with { control: true }: failNext, callbackTwice and reset; a bad body is a 400', async () => {
    expect((await request(plain).post('/_bkash/_control').send({ reset: true })).status).toBe(404);
    expect(
      (
        await request(app)
          .post('/_bkash/_control')
          .send({ failNext: { op: 'execute', how: 'explode' } })
      ).status,
    ).toBe(400);
    expect(
      (
        await request(app)
          .post('/_bkash/_control')
          .send({ failNext: { op: 'create', how: 'http500' } })
      ).body,
    ).toEqual({ ok: true });
    const r = await request(app)
      .post(`/_bkash${PATHS.create}`)
      .set({ authorization: await token(), 'x-app-key': CREDS.appKey })
      .send({});
    expect(r.status).toBe(500);
    await request(app)
      .post('/_bkash/_control')
      .send({ failNext: { op: 'create', how: 'refuse' } });
    await request(app).post('/_bkash/_control').send({ reset: true });
    expect(sim.calls('create')).toBe(0);
    await create(); // the planned refusal was forgotten
  });
});

describe('Send Money and Search Transaction', () => {
  const RECEIVER = '01700000000';
  const withReceiver = express();
  const simR = new BkashSimulator({ ...CREDS, receiver: RECEIVER });
  withReceiver.use('/_bkash', simR.router({ control: true }));
  const search = async (a: express.Express, trxID: unknown) =>
    request(a)
      .post(`/_bkash${PATHS.searchTransaction}`)
      .set({ authorization: await tokenOf(a), 'x-app-key': CREDS.appKey })
      .send({ trxID });

  test('the page: the form in both languages, "to" the receiver unless the address names one, no script', async () => {
    const r = await request(withReceiver).get('/_bkash/send-money');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.text).toContain('<p class="bk-logo">bKash</p>');
    expect(r.text).toContain('<form class="bk-form" method="post" action="/_bkash/send-money">');
    for (const t of ['Send Money', 'সেন্ড মানি', 'Reference (optional)', 'রেফারেন্স (ঐচ্ছিক)', 'আপনার বিকাশ পিন']) expect(r.text).toContain(t);
    expect(r.text).toContain(`name="to" type="text" inputmode="numeric" autocomplete="off" maxlength="16" value="${RECEIVER}"`);
    expect(r.text).toContain(SANDBOX.wallet);
    expect(r.text).toContain('<link rel="stylesheet" href="/_bkash/assets/checkout.css">');
    expect(r.text).not.toMatch(/<script|style=|\son\w+=/i);
    const named = await request(withReceiver).get('/_bkash/send-money?to=01811111111&amount=100&reference=%3Cb%3E');
    expect(named.text).toContain('value="01811111111"');
    expect(named.text).toContain('name="amount" type="text" inputmode="decimal" autocomplete="off" maxlength="15" value="100"');
    expect(named.text).toContain('value="&#60;b&#62;"');
  });

  test('sent from the page: 303 to its TrxID, which Search Transaction then answers as sent', async () => {
    const sent = await request(withReceiver)
      .post('/_bkash/send-money')
      .type('form')
      .send({ from: '+88 01770-618575', to: RECEIVER, amount: '১০০', reference: 'ticket 7', pin: SANDBOX.pin });
    expect(sent.status).toBe(303);
    const trxID = /\/_bkash\/send-money\/([A-Z0-9]{10})$/.exec(sent.headers.location as string)?.[1] as string;
    expect(trxID).toBeDefined();
    const shown = await request(withReceiver).get(sent.headers.location as string);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<dd class="bk-trxid">${trxID}</dd>`);
    expect(shown.text).toContain('ট্রানজেকশন আইডি');
    expect(shown.text).toContain('TK. 100');
    expect(simR.transferOf(trxID)).toMatchObject({ from: SANDBOX.wallet, to: RECEIVER, amount: '100', reference: 'ticket 7' });
    const found = await search(withReceiver, trxID);
    expect(found.body).toEqual({
      statusCode: '0000',
      statusMessage: 'Successful',
      trxID,
      transactionStatus: 'Completed',
      transactionType: 'Send Money',
      amount: '100',
      currency: 'BDT',
      customerMsisdn: SANDBOX.wallet,
      organizationShortCode: RECEIVER,
      transactionReference: 'ticket 7',
      initiationTime: expect.stringMatching(/ GMT\+0600$/),
      completedTime: expect.stringMatching(/ GMT\+0600$/),
    });
    expect((await search(withReceiver, 'NOSUCH1234')).body).toEqual({ statusCode: '2033', statusMessage: 'Transaction not found' });
    expect((await search(withReceiver, 42)).body).toMatchObject({ statusCode: '2065' });
    expect((await request(withReceiver).get('/_bkash/send-money/NOSUCH1234')).status).toBe(404);
    simR.reset();
  });

  test('the form asks again, with why and the values typed (never the PIN); nothing is sent', async () => {
    const good = { from: SANDBOX.wallet, to: RECEIVER, amount: '100', reference: '', pin: SANDBOX.pin };
    const cases: [Record<string, string>, string][] = [
      [{ from: '12345' }, 'Enter your 11-digit bKash account number'],
      [{ to: 'abc' }, 'Enter the 11-digit bKash number to send to'],
      [{ to: SANDBOX.wallet }, 'You cannot send money to your own number.'],
      [{ amount: '0' }, 'Enter an amount in taka'],
      [{ amount: '10.505' }, 'Enter an amount in taka'],
      [{ reference: '=cmd|x' }, 'The reference is at most 50'],
      [{ from: '01812345678' }, 'Insufficient balance.'],
      [{ pin: '00000' }, 'Wrong PIN.'],
    ];
    for (const [change, why] of cases) {
      const r = await request(withReceiver)
        .post('/_bkash/send-money')
        .type('form')
        .send({ ...good, ...change });
      expect([r.status, r.text.includes(why)]).toEqual([400, true]);
      expect(r.text).toContain(`value="${good.to === change.to ? RECEIVER : (change.to ?? RECEIVER)}"`);
      expect(r.text).not.toContain(`value="${SANDBOX.pin}"`);
    }
  });

  test('the control call sends money and answers its TrxID; a bad one is a 400; failNext applies to the search', async () => {
    const r = await request(app)
      .post('/_bkash/_control')
      .send({ sendMoney: { from: '01812345678', to: RECEIVER, amount: 250, reference: 'x' } });
    expect(r.status).toBe(200);
    const trxID = r.body.trxID as string;
    expect(trxID).toMatch(/^[A-Z0-9]{10}$/);
    expect(sim.transferOf(trxID)).toMatchObject({ from: '01812345678', amount: '250' });
    for (const bad of [{ from: 'x', to: RECEIVER, amount: 1 }, { from: '01812345678', to: RECEIVER, amount: '-1' }, { to: RECEIVER }])
      expect((await request(app).post('/_bkash/_control').send({ sendMoney: bad })).status).toBe(400);
    expect(
      (
        await request(plain)
          .post('/_bkash/_control')
          .send({ sendMoney: { from: '01812345678', to: RECEIVER, amount: 1 } })
      ).status,
    ).toBe(404);
    sim.failNext('searchTransaction', 'refuse');
    expect((await search(app, trxID)).body).toEqual({ statusCode: '2003', statusMessage: 'Process failed' });
    sim.failNext('searchTransaction', 'http500');
    expect((await search(app, trxID)).status).toBe(500);
    expect((await search(app, trxID)).body).toMatchObject({ trxID, amount: '250' });
    expect(sim.calls('searchTransaction')).toBe(3);
    expect(() => sim.sendMoney({ from: '01812345678', to: '01812345678', amount: 1 })).toThrow('own number');
  });
});

describe('a success callback that arrives twice', () => {
  test('the simulator GETs the callback once more itself, after the browser was sent there (page and pay())', async () => {
    const gets: string[] = [];
    const target = http.createServer((req, res) => {
      gets.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const callback = `http://127.0.0.1:${(target.address() as { port: number }).port}/payment/bkash/callback`;
    try {
      await request(app).post('/_bkash/_control').send({ callbackTwice: true });
      const { paymentID } = await create({ callbackURL: callback });
      await post(paymentID, 'wallet', { wallet: SANDBOX.wallet });
      await post(paymentID, 'code', { code: SANDBOX.code });
      const sent = (await post(paymentID, 'pin', { pin: SANDBOX.pin })).headers.location as string;
      await fetch(sent); // the browser
      await until(() => gets.length === 2);
      const path = sent.slice(callback.length - '/payment/bkash/callback'.length);
      expect(gets).toEqual([`GET ${path}`, `GET ${path}`]);

      const second = await create({ callbackURL: callback });
      const url = await sim.pay(second.paymentID);
      await fetch(url);
      await until(() => gets.length === 4);

      sim.callbackTwice(false);
      const third = await create({ callbackURL: callback });
      await fetch(await sim.pay(third.paymentID));
      await new Promise((r) => setTimeout(r, 100));
      expect(gets).toHaveLength(5);
    } finally {
      target.closeAllConnections();
      target.close();
    }
  });
});

describe('payouts (docs/rules/bkash.md#9-payouts-b2c)', () => {
  /** The Checkout API's grant: the same credentials, and an answer without statusCode. */
  async function payoutToken(): Promise<string> {
    const r = await request(app)
      .post(`/_bkash${PAYOUT_PATHS.grant}`)
      .set({ username: CREDS.username, password: CREDS.password })
      .send({ app_key: CREDS.appKey, app_secret: CREDS.appSecret });
    expect(r.body).toEqual({ id_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.any(String) });
    return r.body.id_token as string;
  }
  const balance = async (authorization: string) =>
    request(app).get(`/_bkash${PAYOUT_PATHS.organizationBalance}`).set({ authorization, 'x-app-key': CREDS.appKey });
  const payout = { amount: '500', currency: 'BDT', merchantInvoiceNumber: 'P-1', receiverMSISDN: '01712345678' };

  test('without a valid token: HTTP 401 on every payout path; wrong credentials on the grant: errorCode 2043', async () => {
    const wrong = await request(app)
      .post(`/_bkash${PAYOUT_PATHS.grant}`)
      .set({ username: CREDS.username, password: 'nope' })
      .send({ app_key: CREDS.appKey, app_secret: CREDS.appSecret });
    expect(wrong.body).toEqual({ errorCode: '2043', errorMessage: expect.any(String) });
    const none = { 'x-app-key': CREDS.appKey };
    expect((await request(app).post(`/_bkash${PAYOUT_PATHS.b2cPayment}`).set(none).send(payout)).status).toBe(401);
    expect((await request(app).get(`/_bkash${PAYOUT_PATHS.organizationBalance}`).set(none)).status).toBe(401);
    expect((await request(app).get(`/_bkash${PAYOUT_PATHS.search}/ABCDEFGHIJ`).set(none)).status).toBe(401);
    const transfer = await request(app)
      .post(`/_bkash${PAYOUT_PATHS.intraAccountTransfer}`)
      .set({ ...none, authorization: 'not-a-token' })
      .send({ amount: '1', currency: 'BDT', transferType: 'Collection2Disbursement' });
    expect(transfer.status).toBe(401);
    expect(sim.payouts()).toEqual([]);
  });

  test.each([
    [{ receiverMSISDN: undefined }, '2065'],
    [{ merchantInvoiceNumber: '' }, '2065'],
    [{ amount: '0' }, '2006'],
    [{ amount: '10.555' }, '2006'],
    [{ currency: 'USD' }, '2007'],
    [{ receiverMSISDN: '+8801712345678' }, '2012'],
  ])('a payout %j is refused with %s, as errorCode/errorMessage, nothing paid', async (over, code) => {
    const r = await request(app)
      .post(`/_bkash${PAYOUT_PATHS.b2cPayment}`)
      .set({ authorization: await payoutToken(), 'x-app-key': CREDS.appKey })
      .send({ ...payout, ...over });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ errorCode: code, errorMessage: expect.any(String) });
    expect(sim.payouts()).toEqual([]);
  });

  test('a payout answers without statusCode; a body that is no JSON is 400 2025; a transfer of another type 2032', async () => {
    const headers = { authorization: await payoutToken(), 'x-app-key': CREDS.appKey };
    const r = await request(app).post(`/_bkash${PAYOUT_PATHS.b2cPayment}`).set(headers).send(payout);
    expect(r.body).toEqual({
      completedTime: expect.stringMatching(/ GMT\+0600$/),
      trxID: expect.stringMatching(/^[A-Z0-9]{10}$/),
      transactionStatus: 'Completed',
      amount: '500',
      currency: 'BDT',
      receiverMSISDN: '01712345678',
      merchantInvoiceNumber: 'P-1',
      b2cFee: '0.00',
    });
    const bad = await request(app).post(`/_bkash${PAYOUT_PATHS.b2cPayment}`).set(headers).type('json').send('{"amount":');
    expect([bad.status, bad.body]).toEqual([400, { errorCode: '2025', errorMessage: 'Invalid request body' }]);
    const other = await request(app)
      .post(`/_bkash${PAYOUT_PATHS.intraAccountTransfer}`)
      .set(headers)
      .send({ amount: '1', currency: 'BDT', transferType: 'Collection2Collection' });
    expect(other.body).toEqual({ errorCode: '2032', errorMessage: 'Invalid transfer type' });
    const unknown = await request(app).get(`/_bkash${PAYOUT_PATHS.search}/NOSUCHTRX1`).set(headers);
    expect(unknown.body).toEqual({ errorCode: '2033', errorMessage: 'Transaction not found' });
  });

  test('the Collection Account grows with an executed checkout payment; reset restores both balances', async () => {
    const { paymentID } = await create({ amount: '250.50' });
    await sim.pay(paymentID);
    await request(app)
      .post(`/_bkash${PATHS.execute}`)
      .set({ authorization: await token(), 'x-app-key': CREDS.appKey })
      .send({ paymentID });
    const accounts = (await balance(await payoutToken())).body.organizationBalance as {
      accountTypeName: string;
      availableBalance: string;
    }[];
    expect(accounts.map((a) => [a.accountTypeName, a.availableBalance])).toEqual([
      ['Disbursement Account', '1000000.00'],
      ['Collection Account', '250.50'],
    ]);
    sim.setDisbursementBalance(3);
    sim.reset();
    expect(sim.disbursementBalance()).toBe(100_000_000);
  });

  test('the control endpoint sets the disbursement balance (and says so among what it expects); failNext takes the payout calls', async () => {
    expect((await request(app).post('/_bkash/_control').send({ disbursementBalance: 1234.5 })).body).toEqual({ ok: true });
    expect(sim.disbursementBalance()).toBe(123_450);
    const headers = { authorization: await payoutToken(), 'x-app-key': CREDS.appKey };
    const accounts = (await balance(headers.authorization)).body.organizationBalance as { availableBalance: string }[];
    expect(accounts[0]?.availableBalance).toBe('1234.50');
    expect((await request(app).post(`/_bkash${PAYOUT_PATHS.b2cPayment}`).set(headers).send(payout)).body.transactionStatus).toBe(
      'Completed',
    );
    expect(sim.disbursementBalance()).toBe(73_450);
    for (const bad of [{ disbursementBalance: -1 }, { disbursementBalance: 1.005 }, { disbursementBalance: '5' }]) {
      const r = await request(app).post('/_bkash/_control').send(bad);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('disbursementBalance?: number');
    }
    expect(sim.disbursementBalance()).toBe(73_450);
    await request(app)
      .post('/_bkash/_control')
      .send({ failNext: { op: 'b2cPayment', how: 'refuse' } });
    const refused = await request(app)
      .post(`/_bkash${PAYOUT_PATHS.b2cPayment}`)
      .set(headers)
      .send({ ...payout, merchantInvoiceNumber: 'P-2' });
    expect(refused.body).toEqual({ errorCode: '2023', errorMessage: 'Insufficient Balance' });
    expect(sim.payoutsOf('P-2')).toEqual([]);
  });
});

describe('startSimulator', () => {
  test('listens on 127.0.0.1; bkashURL is its own address; close() ends promptly with an answer held open', async () => {
    const s = await startSimulator(CREDS);
    expect(s.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const grant = await fetch(`${s.baseUrl}${PATHS.grant}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', username: CREDS.username, password: CREDS.password },
      body: JSON.stringify({ app_key: CREDS.appKey, app_secret: CREDS.appSecret }),
    });
    const { id_token } = (await grant.json()) as { id_token: string };
    const h = { 'content-type': 'application/json', authorization: id_token, 'x-app-key': CREDS.appKey };
    const created = await fetch(`${s.baseUrl}${PATHS.create}`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        mode: '0011',
        payerReference: 'p',
        callbackURL: CALLBACK,
        amount: '10',
        currency: 'BDT',
        intent: 'sale',
        merchantInvoiceNumber: '7',
      }),
    });
    const { paymentID, bkashURL } = (await created.json()) as { paymentID: string; bkashURL: string };
    expect(bkashURL).toBe(`${s.baseUrl}/checkout/${paymentID}`);
    expect((await fetch(bkashURL)).status).toBe(200);

    s.sim.failNext('status', 'timeout');
    const hanging = fetch(`${s.baseUrl}${PATHS.status}`, { method: 'POST', headers: h, body: JSON.stringify({ paymentID }) }).catch(
      () => 'cut',
    );
    await until(() => s.sim.calls('status') === 1);
    const started = Date.now();
    await s.close();
    expect(await hanging).toBe('cut');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
