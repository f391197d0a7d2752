/**
 * Our bKash client (server/payments/bkash/client.ts) against a real simulator over HTTP (startSimulator):
 * docs/rules/bkash.md. Timeouts are short here so that every test stays fast.
 */
import http from 'node:http';
import { request } from 'undici';
import { BkashClient } from '../../server/payments/bkash/client.ts';
import { amountText, bkashTime, bkashTimeToIso, PATHS, wholeTaka } from '../../server/payments/bkash/wire.ts';
import { bkashFailure as failure, SIM_CREDS, simulatorForClients } from '../helpers/bkash.ts';

const CALLBACK = 'https://bhagya.example/payment/bkash/callback';

const bk = simulatorForClients((o) => new BkashClient(o));
const client = bk.client;

let invoice = 0;
const newPayment = (c: BkashClient, amount = 100) =>
  c.create({ amount, payerReference: '01712345678', callbackURL: CALLBACK, merchantInvoiceNumber: String(++invoice) });

describe('the token', () => {
  test('granted once and shared by concurrent calls', async () => {
    const c = client();
    const made = await Promise.all([1, 2, 3, 4, 5].map(() => newPayment(c)));
    expect(new Set(made.map((m) => m.paymentID)).size).toBe(5);
    expect(bk.sim.calls('grant')).toBe(1);
    expect(bk.sim.calls('create')).toBe(5);
  });

  test('granted anew when less than 5 minutes of its life are left', async () => {
    let now = Date.now();
    const c = client({ now: () => now });
    const { paymentID } = await newPayment(c);
    now += 54 * 60_000; // 6 minutes left
    await c.status(paymentID);
    expect(bk.sim.calls('grant')).toBe(1);
    now += 2 * 60_000; // 4 minutes left
    await c.status(paymentID);
    expect(bk.sim.calls('grant')).toBe(2);
  });

  test('a call answered 401 (token expired at bKash) is granted anew and tried once more', async () => {
    const c = client();
    const { paymentID } = await newPayment(c);
    bk.now += 3601_000; // bKash's clock: the token has expired, ours still thinks it is fresh
    const s = await c.status(paymentID);
    expect(s.transactionStatus).toBe('Expired');
    expect(bk.sim.calls('grant')).toBe(2);
    expect(bk.sim.calls('status')).toBe(2);
  });

  test('wrong credentials are refused with bKash code, and no secret is in the message', async () => {
    const wrongPassword = await failure(newPayment(client({ password: 'not-the-password' })));
    expect(wrongPassword).toMatchObject({ kind: 'refused', op: 'grant', code: '2043' });
    const wrongKey = await failure(newPayment(client({ appKey: 'not-the-key' })));
    expect(wrongKey).toMatchObject({ kind: 'refused', op: 'grant', code: '2001' });
    for (const e of [wrongPassword, wrongKey])
      for (const secret of [SIM_CREDS.appSecret, SIM_CREDS.password, 'not-the-password']) expect(e.message).not.toContain(secret);
    expect(bk.sim.calls('create')).toBe(0);
  });
});

describe('a payment', () => {
  test('create → the player pays → execute: Completed with a trxID and the amount; status says the same', async () => {
    const c = client();
    const { paymentID, bkashURL } = await newPayment(c, 250);
    expect(paymentID).toMatch(/^TR0011[A-Za-z0-9]+$/);
    expect(bkashURL).toBe(`${bk.baseUrl}/checkout/${paymentID}`);
    expect((await c.status(paymentID)).transactionStatus).toBe('Initiated');

    const back = new URL(await bk.sim.pay(paymentID));
    expect(back.origin + back.pathname).toBe(CALLBACK);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ paymentID, status: 'success', apiVersion: '1.2.0-beta' });
    expect((await c.status(paymentID)).transactionStatus).toBe('Initiated'); // authorised, not yet executed

    const done = await c.execute(paymentID);
    expect(done).toEqual({
      paymentID,
      transactionStatus: 'Completed',
      trxID: expect.stringMatching(/^[A-Z0-9]{10}$/),
      amount: 250,
      merchantInvoiceNumber: String(invoice),
      payerReference: '01712345678',
      customerMsisdn: '01770618575',
    });
    const s = await c.status(paymentID);
    expect(s).toEqual({ ...done, customerMsisdn: null });
    expect(bk.sim.payment(paymentID)).toMatchObject({ executed: 1, status: 'Completed' });
  });

  test('status: Cancelled, Failed and Expired', async () => {
    const c = client();
    const cancelled = await newPayment(c);
    expect(new URL(await bk.sim.cancel(cancelled.paymentID)).searchParams.get('status')).toBe('cancel');
    expect((await c.status(cancelled.paymentID)).transactionStatus).toBe('Cancelled');

    const failed = await newPayment(c);
    expect(new URL(await bk.sim.pay(failed.paymentID, { wallet: '01812345678' })).searchParams.get('status')).toBe('failure');
    expect((await c.status(failed.paymentID)).transactionStatus).toBe('Failed');
    expect(await failure(c.execute(failed.paymentID))).toMatchObject({ kind: 'refused', code: '2023' });

    const late = await newPayment(c);
    await bk.sim.pay(late.paymentID);
    bk.now += 5 * 60_000;
    expect((await c.status(late.paymentID)).transactionStatus).toBe('Expired');
    expect(await failure(c.execute(late.paymentID))).toMatchObject({ kind: 'refused', code: '2056' });
  });

  test('execute is refused for a payment the player did not authorise, and the second time', async () => {
    const c = client();
    const { paymentID } = await newPayment(c);
    expect(await failure(c.execute(paymentID))).toMatchObject({ kind: 'refused', op: 'execute', code: '2056' });
    await bk.sim.pay(paymentID);
    await c.execute(paymentID);
    const again = await failure(c.execute(paymentID));
    expect(again).toMatchObject({ kind: 'refused', code: '2062' });
    expect(again.message).toContain('The payment has already been completed');
    expect(bk.sim.payment(paymentID)).toMatchObject({ executed: 1, executeCalls: 3 });
    expect(await failure(c.status('TR0011nope'))).toMatchObject({ kind: 'refused', code: '2002' });
  });

  test('amounts: "100.00" is 100, "100.50" is not a whole amount (null)', async () => {
    const token = await rawGrant();
    for (const [sent, read] of [
      ['100.00', 100],
      ['100.50', null],
    ] as const) {
      const created = await raw(PATHS.create, token, {
        mode: '0011',
        payerReference: '01712345678',
        callbackURL: CALLBACK,
        amount: sent,
        currency: 'BDT',
        intent: 'sale',
        merchantInvoiceNumber: 'INV-1',
      });
      expect(created.amount).toBe(sent);
      const paymentID = created.paymentID as string;
      await bk.sim.pay(paymentID);
      const done = await client().execute(paymentID);
      expect(done.amount).toBe(read);
      expect((await client().status(paymentID)).amount).toBe(read);
    }
  });
});

describe('failures', () => {
  test('refuse: create refused with bKash code; execute refused, and the payment has failed', async () => {
    const c = client();
    bk.sim.failNext('create', 'refuse');
    expect(await failure(newPayment(c))).toMatchObject({ kind: 'refused', op: 'create', code: '2003' });
    const { paymentID } = await newPayment(c);
    await bk.sim.pay(paymentID);
    bk.sim.failNext('execute', 'refuse');
    expect(await failure(c.execute(paymentID))).toMatchObject({ kind: 'refused', code: '2023' });
    expect((await c.status(paymentID)).transactionStatus).toBe('Failed');
  });

  test('timeout: execute is unknown (and not repeated); the payment is still only authorised', async () => {
    const c = client({ timeoutMs: 300, retries: 2 });
    const { paymentID } = await newPayment(c);
    await bk.sim.pay(paymentID);
    bk.sim.failNext('execute', 'timeout');
    const started = Date.now();
    const e = await failure(c.execute(paymentID));
    expect(e).toMatchObject({ kind: 'unknown', op: 'execute', code: null });
    expect(e.message).toContain('no answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(bk.sim.calls('execute')).toBe(1);
    expect((await c.status(paymentID)).transactionStatus).toBe('Initiated');
    expect((await c.execute(paymentID)).transactionStatus).toBe('Completed');
  });

  test('lose_answer: execute is unknown, and status then shows it Completed', async () => {
    const c = client({ retries: 2 });
    const { paymentID } = await newPayment(c);
    await bk.sim.pay(paymentID);
    bk.sim.failNext('execute', 'lose_answer');
    expect(await failure(c.execute(paymentID))).toMatchObject({ kind: 'unknown', op: 'execute' });
    expect(bk.sim.calls('execute')).toBe(1);
    const s = await c.status(paymentID);
    expect(s).toMatchObject({ transactionStatus: 'Completed', trxID: expect.stringMatching(/^[A-Z0-9]{10}$/), amount: 100 });
  });

  test('http500: execute unknown and not done; status repeated by the client until it has an answer', async () => {
    const c = client({ retries: 2 });
    const { paymentID } = await newPayment(c);
    await bk.sim.pay(paymentID);
    bk.sim.failNext('execute', 'http500');
    expect(await failure(c.execute(paymentID))).toMatchObject({ kind: 'unknown', httpStatus: 500 });
    expect(bk.sim.calls('execute')).toBe(1);
    bk.sim.failNext('status', 'http500');
    bk.sim.failNext('status', 'timeout');
    expect((await client({ retries: 2, timeoutMs: 300 }).status(paymentID)).transactionStatus).toBe('Initiated');
    expect(bk.sim.calls('status')).toBe(3);
    bk.sim.failNext('status', 'http500');
    expect(await failure(client({ retries: 0 }).status(paymentID))).toMatchObject({ kind: 'unknown', op: 'status', httpStatus: 500 });
    expect(bk.sim.calls('status')).toBe(4);
    expect((await c.execute(paymentID)).transactionStatus).toBe('Completed');
  });

  test('a grant without an answer is unknown; a create whose answer was lost is repeated (harmless)', async () => {
    bk.sim.failNext('grant', 'timeout');
    expect(await failure(newPayment(client({ timeoutMs: 300 })))).toMatchObject({ kind: 'unknown', op: 'grant' });
    bk.sim.failNext('create', 'lose_answer');
    const made = await newPayment(client({ retries: 1 }));
    expect(made.paymentID).toMatch(/^TR0011/);
    expect(bk.sim.calls('create')).toBe(2);
  });

  test('a body that is no bKash answer is unknown, with no secret in the message', async () => {
    const token = 'TOKEN-abc-123';
    const seen: string[] = [];
    const fake = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === PATHS.grant)
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            statusCode: '0000',
            statusMessage: 'Successful',
            id_token: token,
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: 'r',
          }),
        );
      if (req.url === PATHS.status) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'down' }));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const c = client({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}` });
    try {
      const errors = [await failure(c.status('TR0011x')), await failure(c.execute('TR0011x'))];
      expect(errors.map((e) => [e.kind, e.httpStatus])).toEqual([
        ['unknown', 200],
        ['unknown', 503],
      ]);
      for (const e of errors)
        for (const secret of [token, SIM_CREDS.appSecret, SIM_CREDS.password]) expect(`${e.message} ${e.stack}`).not.toContain(secret);
      expect(seen).toEqual([PATHS.grant, PATHS.status, PATHS.execute]);
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });
});

describe('refunds', () => {
  test('a refund once (partial), the second refused; refundStatus tells it', async () => {
    const c = client();
    const { paymentID } = await newPayment(c, 300);
    await bk.sim.pay(paymentID);
    const { trxID } = await c.execute(paymentID);
    expect(await c.refundStatus({ paymentID, trxID: trxID as string })).toBeNull();
    expect(await failure(c.refund({ paymentID, trxID: trxID as string, amount: 301, reason: 'r', sku: 's' }))).toMatchObject({
      kind: 'refused',
      code: '2026',
    });
    const r = await c.refund({ paymentID, trxID: trxID as string, amount: 200, reason: 'sales closed', sku: 'T1' });
    expect(r).toEqual({
      refundTrxID: expect.stringMatching(/^[A-Z0-9]{10}$/),
      originalTrxID: trxID,
      amount: 200,
      transactionStatus: 'Completed',
    });
    expect(await failure(c.refund({ paymentID, trxID: trxID as string, amount: 100, reason: 'again', sku: 'T1' }))).toMatchObject({
      kind: 'refused',
      code: '2034',
    });
    expect(await c.refundStatus({ paymentID, trxID: trxID as string })).toEqual(r);
    expect(bk.sim.payment(paymentID)?.refunds).toHaveLength(1);
  });

  test('a refund of a payment not completed is refused; a refund whose answer was lost is found by refundStatus', async () => {
    const c = client();
    const open = await newPayment(c);
    expect(await failure(c.refund({ paymentID: open.paymentID, trxID: 'X', amount: 100, reason: 'r', sku: 's' }))).toMatchObject({
      code: '2056',
    });

    const { paymentID } = await newPayment(c);
    await bk.sim.pay(paymentID);
    const { trxID } = await c.execute(paymentID);
    bk.sim.failNext('refund', 'lose_answer');
    expect(await failure(c.refund({ paymentID, trxID: trxID as string, amount: 100, reason: 'r', sku: 's' }))).toMatchObject({
      kind: 'unknown',
      op: 'refund',
    });
    expect(await c.refundStatus({ paymentID, trxID: trxID as string })).toMatchObject({ originalTrxID: trxID, amount: 100 });
  });
});

describe('search transaction', () => {
  const RECEIVER = '01700000000';

  test('money sent to a number: every field normalised (amount whole taka, times UTC); an unknown TrxID is null', async () => {
    const c = client();
    bk.now = Date.UTC(2026, 10, 28, 4, 5, 6, 789);
    const trxID = bk.sim.sendMoney({ from: '+880 1770-618575', to: RECEIVER, amount: '100.00', reference: 'T 42' });
    expect(trxID).toMatch(/^[A-Z0-9]{10}$/);
    expect(await c.searchTransaction(trxID)).toEqual({
      trxID,
      transactionStatus: 'Completed',
      transactionType: 'Send Money',
      amount: 100,
      currency: 'BDT',
      customerMsisdn: '01770618575',
      receiver: RECEIVER,
      transactionReference: 'T 42',
      completedTime: '2026-11-28T04:05:06.789Z',
      initiationTime: '2026-11-28T04:05:06.789Z',
    });
    const part = bk.sim.sendMoney({ from: '01812345678', to: RECEIVER, amount: '100.50' });
    expect(await c.searchTransaction(part)).toMatchObject({ amount: null, transactionReference: null });
    expect(await c.searchTransaction('NOSUCHTRX1')).toBeNull();
    // Asking is harmless: the same answer again.
    expect(await c.searchTransaction(trxID)).toMatchObject({ trxID, amount: 100 });
    expect(bk.sim.calls('searchTransaction')).toBe(4);
  });

  test("a checkout's completed payment is found too, with its invoice as the reference", async () => {
    const c = client();
    const { paymentID } = await newPayment(c, 150);
    await bk.sim.pay(paymentID);
    const { trxID } = await c.execute(paymentID);
    expect(await c.searchTransaction(trxID as string)).toMatchObject({
      trxID,
      transactionType: 'Payment',
      amount: 150,
      customerMsisdn: '01770618575',
      transactionReference: String(invoice),
    });
  });

  test('refused is refused; no answer is unknown, and the client asks again (safe to repeat)', async () => {
    const trxID = bk.sim.sendMoney({ from: '01770618575', to: RECEIVER, amount: 100 });
    const c = client({ retries: 1 });
    bk.sim.failNext('searchTransaction', 'refuse');
    expect(await failure(c.searchTransaction(trxID))).toMatchObject({ kind: 'refused', op: 'searchTransaction', code: '2003' });
    bk.sim.failNext('searchTransaction', 'http500');
    expect(await c.searchTransaction(trxID)).toMatchObject({ trxID, amount: 100 });
    bk.sim.failNext('searchTransaction', 'lose_answer');
    bk.sim.failNext('searchTransaction', 'http500');
    expect(await failure(c.searchTransaction(trxID))).toMatchObject({ kind: 'unknown', op: 'searchTransaction' });
    const once = client({ timeoutMs: 200 });
    bk.sim.failNext('searchTransaction', 'timeout');
    expect(await failure(once.searchTransaction(trxID))).toMatchObject({ kind: 'unknown', message: expect.stringContaining('200 ms') });
    expect(bk.sim.calls('searchTransaction')).toBe(6);
  });

  test("another bKash's answer: empty fields are null, no statusCode is a success, a time that is no time is null", async () => {
    const answer = {
      trxID: 'ABC123DEF4',
      transactionStatus: 'Completed',
      transactionType: 'Send Money',
      amount: 250,
      currency: '',
      customerMsisdn: '',
      organizationShortCode: RECEIVER,
      transactionReference: '',
      completedTime: '2026-11-28T10:05:06+06:00',
      initiationTime: 'yesterday',
    };
    const fake = http.createServer((req, res) => {
      const body =
        req.url === PATHS.grant
          ? { statusCode: '0000', statusMessage: 'Successful', id_token: 't', token_type: 'Bearer', expires_in: 3600, refresh_token: 'r' }
          : answer;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const c = client({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}` });
    try {
      expect(await c.searchTransaction('ABC123DEF4')).toEqual({
        trxID: 'ABC123DEF4',
        transactionStatus: 'Completed',
        transactionType: 'Send Money',
        amount: 250,
        currency: null,
        customerMsisdn: null,
        receiver: RECEIVER,
        transactionReference: null,
        completedTime: '2026-11-28T04:05:06.000Z',
        initiationTime: null,
      });
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });
});

describe('agreements (docs/rules/bkash.md#7-agreements)', () => {
  /** An agreement created, approved by the player with his wallet, code and PIN, and executed. */
  async function agreement(c: BkashClient) {
    const made = await c.createAgreement({ payerReference: '01712345678', callbackURL: CALLBACK });
    expect(made.bkashURL).toContain(`/checkout/${made.paymentID}`);
    await bk.sim.pay(made.paymentID);
    return c.executeAgreement(made.paymentID);
  }

  test('create, approve, execute: in force, on the wallet that approved it; status says the same', async () => {
    const c = client();
    const a = await agreement(c);
    expect(a).toEqual({
      agreementID: expect.any(String),
      agreementStatus: 'Completed',
      customerMsisdn: '01770618575',
      payerReference: '01712345678',
    });
    expect(await c.agreementStatus(a.agreementID)).toEqual(a);
  });

  test('a payment with it: mode 0001, the player gives his PIN only, executed Completed', async () => {
    const c = client();
    const a = await agreement(c);
    const p = await c.create({
      amount: 300,
      payerReference: '01712345678',
      callbackURL: CALLBACK,
      merchantInvoiceNumber: '7',
      agreementID: a.agreementID,
    });
    expect(bk.sim.payment(p.paymentID)).toMatchObject({ kind: 'payment', agreementID: a.agreementID, wallet: '01770618575' });
    await bk.sim.pay(p.paymentID, { pin: '12121' });
    expect(await c.execute(p.paymentID)).toMatchObject({ transactionStatus: 'Completed', amount: 300, customerMsisdn: '01770618575' });
  });

  test('cancel: Cancelled, and a second cancel (2053 at bKash) is answered as cancelled; an unknown one is refused 2051', async () => {
    const c = client();
    const a = await agreement(c);
    expect((await c.cancelAgreement(a.agreementID)).agreementStatus).toBe('Cancelled');
    expect((await c.cancelAgreement(a.agreementID)).agreementStatus).toBe('Cancelled');
    expect(await failure(c.agreementStatus('TokenizedMerchant01NONE'))).toMatchObject({
      kind: 'refused',
      code: '2051',
      op: 'agreementStatus',
    });
    const refused = await failure(
      c.create({
        amount: 100,
        payerReference: '01712345678',
        callbackURL: CALLBACK,
        merchantInvoiceNumber: '8',
        agreementID: a.agreementID,
      }),
    );
    expect(refused).toMatchObject({ kind: 'refused', code: '2053', op: 'create' });
  });

  test('an execute of an agreement whose answer was lost is unknown and not repeated; a cancel whose answer was lost is repeated', async () => {
    const c = client({ retries: 2 });
    const made = await c.createAgreement({ payerReference: '01712345678', callbackURL: CALLBACK });
    await bk.sim.pay(made.paymentID);
    bk.sim.failNext('execute', 'lose_answer');
    expect(await failure(c.executeAgreement(made.paymentID))).toMatchObject({ kind: 'unknown', op: 'executeAgreement' });
    expect(bk.sim.payment(made.paymentID)?.executeCalls).toBe(1);
    const id = bk.sim.payment(made.paymentID)?.agreementID as string;
    bk.sim.failNext('agreementCancel', 'lose_answer');
    expect((await c.cancelAgreement(id)).agreementStatus).toBe('Cancelled');
    expect(bk.sim.calls('agreementCancel')).toBe(2);
    expect(bk.sim.agreement(id)?.status).toBe('Cancelled');
  });
});

describe('the wire format', () => {
  test('amounts are read exactly and sent as whole taka', () => {
    expect(['100', '100.00', '100.0', ' 7 ', 100].map(wholeTaka)).toEqual([100, 100, 100, 7, 100]);
    expect(['100.5', '100.01', '-100', '1e3', '', 'abc', '9007199254740993', 100.5].map(wholeTaka)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(amountText(100)).toBe('100');
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => amountText(bad)).toThrow(RangeError);
  });

  test("bKash's time format, in Dhaka time", () => {
    expect(bkashTime(Date.UTC(2025, 11, 9, 10, 12, 43, 828))).toBe('2025-12-09T16:12:43:828 GMT+0600');
  });

  test("bKash's times read back as UTC", () => {
    expect(bkashTimeToIso('2025-12-09T16:12:43:828 GMT+0600')).toBe('2025-12-09T10:12:43.828Z');
    expect(bkashTimeToIso(bkashTime(Date.UTC(2026, 0, 1, 0, 0, 0, 5)))).toBe('2026-01-01T00:00:00.005Z');
    expect(bkashTimeToIso('2025-12-09T10:12:43Z')).toBe('2025-12-09T10:12:43.000Z');
    expect(bkashTimeToIso('2025-12-09 16:12:43')).toBe('2025-12-09T10:12:43.000Z'); // no offset: Dhaka
    expect(bkashTimeToIso('2025-12-09T16:12:43.5+06:00')).toBe('2025-12-09T10:12:43.500Z');
    for (const bad of ['', null, undefined, 'yesterday', '2025-02-30T10:00:00Z', '2025-12-09T25:00:00Z', '2025-12-09'])
      expect(bkashTimeToIso(bad)).toBeNull();
  });
});

async function rawGrant(): Promise<string> {
  const res = await request(`${bk.baseUrl}${PATHS.grant}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', username: SIM_CREDS.username, password: SIM_CREDS.password },
    body: JSON.stringify({ app_key: SIM_CREDS.appKey, app_secret: SIM_CREDS.appSecret }),
  });
  return ((await res.body.json()) as { id_token: string }).id_token;
}

async function raw(path: string, token: string, body: object): Promise<Record<string, unknown>> {
  const res = await request(`${bk.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token, 'x-app-key': SIM_CREDS.appKey },
    body: JSON.stringify(body),
  });
  return (await res.body.json()) as Record<string, unknown>;
}
