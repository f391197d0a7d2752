/**
 * Our client of bKash's B2C payouts (server/payments/bkash/payouts.ts) against a real simulator over HTTP
 * (startSimulator), and `paisa()` of the wire format: docs/rules/bkash.md#9-payouts-b2c.
 */
import http from 'node:http';
import { BkashPayouts } from '../../server/payments/bkash/payouts.ts';
import { PAYOUT_REFUSING_WALLETS } from '../../scripts/bkash-simulator/simulator.ts';
import { PAYOUT_PATHS, paisa } from '../../server/payments/bkash/wire.ts';
import { bkashFailure as failure, SIM_CREDS, simulatorForClients } from '../helpers/bkash.ts';

const RECEIVER = '01700000000';
const WALLET = '01712345678';

const bk = simulatorForClients((o) => new BkashPayouts(o), { receiver: RECEIVER, disbursementBalance: 100_000, payoutLimit: 25_000 });
const payouts = bk.client;

let invoice = 0;
const newInvoice = (): string => `PAYOUT-${++invoice}`;

describe('a payout', () => {
  test('granted on the checkout host, paid Completed: trxID, amount, receiver, invoice, fee, time; the balance is less by it', async () => {
    const c = payouts();
    expect((await c.organizationBalance()).disbursementPaisa).toBe(10_000_000);
    const merchantInvoiceNumber = newInvoice();
    const before = Date.now();
    const p = await c.b2cPayment({ amount: 500, receiverMSISDN: WALLET, merchantInvoiceNumber });
    expect(p).toEqual({
      trxID: expect.stringMatching(/^[A-Z0-9]{10}$/),
      transactionStatus: 'Completed',
      amount: 500,
      receiverMSISDN: WALLET,
      merchantInvoiceNumber,
      b2cFee: '0.00',
      completedTime: expect.any(String),
    });
    expect(Date.parse(p.completedTime as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(bk.sim.calls('payoutGrant')).toBe(1);
    expect(bk.sim.calls('grant')).toBe(0);
    expect(bk.sim.payoutsOf(merchantInvoiceNumber)).toEqual([
      { trxID: p.trxID, receiver: WALLET, amount: '500', merchantInvoiceNumber, completedAt: expect.any(Number) },
    ]);
    expect(bk.sim.disbursementBalance()).toBe(10_000_000 - 50_000);
    expect((await c.organizationBalance()).disbursementPaisa).toBe(10_000_000 - 50_000);
  });

  test.each([
    ['no such wallet', '01300000045', 500, '2045'],
    ['not a bKash wallet', '01300000057', 500, '2057'],
    ['a wallet that may not receive', '01300000039', 500, '2039'],
    ['a receiver that is no wallet number', '0171234567', 500, '2012'],
    ['above the payout limit', WALLET, 25_001, '2074'],
  ])('%s: refused with its code, nothing paid', async (_what, receiverMSISDN, amount, code) => {
    const c = payouts();
    const merchantInvoiceNumber = newInvoice();
    const e = await failure(c.b2cPayment({ amount, receiverMSISDN, merchantInvoiceNumber }));
    expect(e).toMatchObject({ kind: 'refused', op: 'b2cPayment', code });
    expect(bk.sim.payouts()).toEqual([]);
    expect(bk.sim.disbursementBalance()).toBe(10_000_000);
    expect(Object.keys(PAYOUT_REFUSING_WALLETS)).toHaveLength(3);
  });

  test('more than the Disbursement Account holds: 2023; the same invoice number a second time: 2029', async () => {
    const c = payouts();
    bk.sim.setDisbursementBalance(499.99);
    expect(await failure(c.b2cPayment({ amount: 500, receiverMSISDN: WALLET, merchantInvoiceNumber: newInvoice() }))).toMatchObject({
      kind: 'refused',
      code: '2023',
    });
    expect(bk.sim.disbursementBalance()).toBe(49_999);
    bk.sim.setDisbursementBalance(1000);
    const merchantInvoiceNumber = newInvoice();
    await c.b2cPayment({ amount: 300, receiverMSISDN: WALLET, merchantInvoiceNumber });
    expect(await failure(c.b2cPayment({ amount: 300, receiverMSISDN: '01812345678', merchantInvoiceNumber }))).toMatchObject({
      kind: 'refused',
      code: '2029',
    });
    expect(bk.sim.payoutsOf(merchantInvoiceNumber)).toHaveLength(1);
    expect(bk.sim.disbursementBalance()).toBe(70_000);
  });

  test('an amount that is no positive whole number of taka is never sent', async () => {
    const c = payouts();
    for (const amount of [0, -1, 10.5])
      await expect(c.b2cPayment({ amount, receiverMSISDN: WALLET, merchantInvoiceNumber: 'x' })).rejects.toThrow(RangeError);
    expect(bk.sim.calls('b2cPayment')).toBe(0);
  });
});

describe('a payout without an answer', () => {
  test('lose_answer: unknown, called once, and the payout WAS made', async () => {
    const c = payouts({ retries: 2 });
    const merchantInvoiceNumber = newInvoice();
    bk.sim.failNext('b2cPayment', 'lose_answer');
    expect(await failure(c.b2cPayment({ amount: 700, receiverMSISDN: WALLET, merchantInvoiceNumber }))).toMatchObject({
      kind: 'unknown',
      op: 'b2cPayment',
      code: null,
    });
    expect(bk.sim.calls('b2cPayment')).toBe(1);
    expect(bk.sim.payoutsOf(merchantInvoiceNumber)).toHaveLength(1);
    expect(bk.sim.disbursementBalance()).toBe(10_000_000 - 70_000);
  });

  test('timeout and http500: unknown, called once, nothing paid', async () => {
    const c = payouts({ retries: 2, timeoutMs: 300 });
    bk.sim.failNext('b2cPayment', 'timeout');
    const late = newInvoice();
    const e = await failure(c.b2cPayment({ amount: 100, receiverMSISDN: WALLET, merchantInvoiceNumber: late }));
    expect(e).toMatchObject({ kind: 'unknown', op: 'b2cPayment' });
    expect(e.message).toContain('no answer within 300 ms');
    expect(bk.sim.calls('b2cPayment')).toBe(1);
    bk.sim.failNext('b2cPayment', 'http500');
    const down = newInvoice();
    expect(await failure(c.b2cPayment({ amount: 100, receiverMSISDN: WALLET, merchantInvoiceNumber: down }))).toMatchObject({
      kind: 'unknown',
      httpStatus: 500,
    });
    expect(bk.sim.calls('b2cPayment')).toBe(2);
    expect(bk.sim.payouts()).toEqual([]);
  });

  test("refuse: bKash's Insufficient Balance, nothing paid", async () => {
    bk.sim.failNext('b2cPayment', 'refuse');
    expect(await failure(payouts().b2cPayment({ amount: 100, receiverMSISDN: WALLET, merchantInvoiceNumber: newInvoice() }))).toMatchObject(
      {
        kind: 'refused',
        code: '2023',
      },
    );
    expect(bk.sim.payouts()).toEqual([]);
  });
});

describe('the balance, the search, a transfer', () => {
  test('organizationBalance: both accounts in paisa; repeated after no answer', async () => {
    const c = payouts({ retries: 1 });
    bk.sim.failNext('organizationBalance', 'http500');
    const b = await c.organizationBalance();
    expect(bk.sim.calls('organizationBalance')).toBe(2);
    expect(b).toEqual({
      accounts: [
        {
          type: 'Disbursement Account',
          availablePaisa: 10_000_000,
          currentPaisa: 10_000_000,
          currency: 'BDT',
          status: 'Active',
          updatedAt: expect.any(String),
        },
        {
          type: 'Collection Account',
          availablePaisa: 0,
          currentPaisa: 0,
          currency: 'BDT',
          status: 'Active',
          updatedAt: expect.any(String),
        },
      ],
      disbursementPaisa: 10_000_000,
      collectionPaisa: 0,
    });
  });

  test('search finds a payout as a B2C Payment to its wallet; an unknown TrxID is null; refused is refused', async () => {
    const c = payouts();
    const merchantInvoiceNumber = newInvoice();
    const p = await c.b2cPayment({ amount: 1200, receiverMSISDN: WALLET, merchantInvoiceNumber });
    expect(await c.searchTransaction(p.trxID)).toEqual({
      trxID: p.trxID,
      transactionStatus: 'Completed',
      transactionType: 'B2C Payment',
      amount: 1200,
      currency: 'BDT',
      customerMsisdn: WALLET,
      receiver: RECEIVER,
      transactionReference: merchantInvoiceNumber,
      completedTime: p.completedTime,
      initiationTime: p.completedTime,
    });
    expect(await c.searchTransaction('NOSUCHTRX1')).toBeNull();
    bk.sim.failNext('payoutSearch', 'refuse');
    expect(await failure(c.searchTransaction(p.trxID))).toMatchObject({ kind: 'refused', op: 'payoutSearch', code: '2003' });
  });

  test('intraAccountTransfer moves money between the accounts; never more than the account it leaves holds', async () => {
    const c = payouts();
    const t = await c.intraAccountTransfer({ amount: 40_000, transferType: 'Disbursement2Collection' });
    expect(t).toEqual({ trxID: expect.stringMatching(/^[A-Z0-9]{10}$/), transactionStatus: 'Completed', amount: 40_000 });
    let b = await c.organizationBalance();
    expect(b.accounts.map((a) => [a.type, a.availablePaisa])).toEqual([
      ['Disbursement Account', 6_000_000],
      ['Collection Account', 4_000_000],
    ]);
    await c.intraAccountTransfer({ amount: 15_000, transferType: 'Collection2Disbursement' });
    b = await c.organizationBalance();
    expect(b.disbursementPaisa).toBe(7_500_000);
    expect(await failure(c.intraAccountTransfer({ amount: 25_001, transferType: 'Collection2Disbursement' }))).toMatchObject({
      kind: 'refused',
      code: '2023',
    });
    bk.sim.failNext('intraAccountTransfer', 'lose_answer');
    expect(
      await failure(payouts({ retries: 2 }).intraAccountTransfer({ amount: 1, transferType: 'Collection2Disbursement' })),
    ).toMatchObject({
      kind: 'unknown',
    });
    expect(bk.sim.calls('intraAccountTransfer')).toBe(4);
    expect(bk.sim.disbursementBalance()).toBe(7_500_100);
  });
});

describe('the token', () => {
  test('a call answered 401 is granted anew and tried once more; wrong credentials are refused', async () => {
    const c = payouts();
    await c.organizationBalance();
    bk.now += 3601_000; // the simulator's clock: the token has expired, ours still thinks it is fresh
    expect((await c.organizationBalance()).disbursementPaisa).toBe(10_000_000);
    expect(bk.sim.calls('payoutGrant')).toBe(2);
    expect(bk.sim.calls('organizationBalance')).toBe(3); // the first, the one answered 401, the one tried again
    const wrong = await failure(payouts({ password: 'not-the-password' }).organizationBalance());
    expect(wrong).toMatchObject({ kind: 'refused', op: 'payoutGrant', code: '2043' });
    for (const secret of [SIM_CREDS.appSecret, 'not-the-password']) expect(wrong.message).not.toContain(secret);
  });

  test('another bKash\'s answers: a grant with statusCode "0000" too, errorCode/errorMessage errors, a balance without a Disbursement Account', async () => {
    const seen: string[] = [];
    const fake = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${req.headers['x-app-key'] ?? '-'}`);
      const json = (body: object) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === PAYOUT_PATHS.grant)
        return json({
          statusCode: '0000',
          statusMessage: 'Successful',
          id_token: 'TKN',
          token_type: 'Bearer',
          expires_in: '3600',
          refresh_token: 'r',
        });
      if (req.url === PAYOUT_PATHS.organizationBalance)
        return json({ organizationBalance: [{ accountTypeName: 'Collection Account', availableBalance: '12.3', currentBalance: '' }] });
      json({ errorCode: '2045', errorMessage: 'The MSISDN of the customer does not exist' });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const c = payouts({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/` });
    try {
      expect(await c.organizationBalance()).toEqual({
        accounts: [{ type: 'Collection Account', availablePaisa: 1230, currentPaisa: null, currency: null, status: null, updatedAt: null }],
        disbursementPaisa: null,
        collectionPaisa: 1230,
      });
      expect(await failure(c.b2cPayment({ amount: 5, receiverMSISDN: WALLET, merchantInvoiceNumber: 'i' }))).toMatchObject({
        kind: 'refused',
        code: '2045',
      });
      expect(await failure(c.searchTransaction('A B/C'))).toMatchObject({ kind: 'refused', op: 'payoutSearch', code: '2045' });
      expect(seen).toEqual([
        `POST ${PAYOUT_PATHS.grant} - -`,
        `GET ${PAYOUT_PATHS.organizationBalance} TKN ${SIM_CREDS.appKey}`,
        `POST ${PAYOUT_PATHS.b2cPayment} TKN ${SIM_CREDS.appKey}`,
        `GET ${PAYOUT_PATHS.search}/A%20B%2FC TKN ${SIM_CREDS.appKey}`,
      ]);
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });
});

describe('paisa()', () => {
  test.each([
    ['1000.50', 100050],
    ['1000.5', 100050],
    ['1000', 100000],
    ['0.05', 5],
    ['0', 0],
    [' 12.34 ', 1234],
    [1000.5, 100050],
    [250, 25000],
    ['1.505', null],
    ['-1', null],
    [-1, null],
    ['1e3', null],
    ['1,000', null],
    ['1000.', null],
    ['.5', null],
    ['', null],
    [0.1 + 0.2, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['90071992547409.92', null],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('%j → %j', (amount, expected) => {
    expect(paisa(amount)).toBe(expected);
  });
});
