import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createLogger } from '../../server/log.ts';
import { genericGateway } from '../../server/notify/gateways/generic.ts';
import { liveNotifier, NotifyError, smtpMailer, type Mailer } from '../../server/notify/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { hangingSmtp } from '../helpers/stand-ins.ts';
import { account, buy, insertLottery, purchase } from './purchase-fixtures.ts';

/** A stand-in SMS gateway on loopback: records what it was sent, answers with the status it is told. */
function gateway() {
  const received: { auth: string | undefined; body: { to: string; message: string } }[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(raw) as { to: string; message: string } });
      res.statusCode = status;
      res.end('{}');
    });
  });
  return { server, received, fail: (s: number) => void (status = s) };
}

/** An SMS gateway that takes the request and never answers. */
function hangingGateway() {
  const server: Server = createServer(() => undefined);
  return {
    server,
    listen: () =>
      new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/send`))),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('live notifier', () => {
  let t: TestApp;
  const gw = gateway();
  const mails: Parameters<Mailer['sendMail']>[0][] = [];
  const log = createLogger('silent');

  beforeAll(async () => {
    await new Promise<void>((r) => gw.server.listen(0, '127.0.0.1', () => r()));
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    gw.server.close();
  });

  const notifier = () =>
    liveNotifier(t.db, log, {
      mailer: { sendMail: async (m) => void mails.push(m) },
      mailFrom: 'Bhagya <no-reply@example.com>',
      sms: { primary: genericGateway(`http://127.0.0.1:${(gw.server.address() as AddressInfo).port}/send`, 'gw-key') },
      timeoutMs: 2000,
    });

  test('SMS goes to the gateway with its key; e-mail through the mailer; the outbox never keeps the code', async () => {
    const n = notifier();
    await n.sendCode({ channel: 'sms', to: '01711111111', purpose: 'account', code: '12345', subject: 's', text: 'Your code is 12345.' });
    expect(gw.received.at(-1)).toEqual({ auth: 'Bearer gw-key', body: { to: '01711111111', message: 'Your code is 12345.' } });
    await n.sendCode({
      channel: 'email',
      to: 'a@example.com',
      purpose: 'reset',
      code: '654321',
      subject: 'Bhagya: reset',
      text: 'Code 654321',
    });
    expect(mails.at(-1)).toEqual({
      from: 'Bhagya <no-reply@example.com>',
      to: 'a@example.com',
      subject: 'Bhagya: reset',
      text: 'Code 654321',
    });
    const rows = await t.db.query<{ body: string; sent_at: string | null }>('SELECT body, sent_at FROM outbox ORDER BY id DESC LIMIT 2');
    expect(rows.map((r) => r.body)).toEqual(['Code ••••••', 'Your code is •••••.']);
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
  });

  test('a gateway that refuses is an error the API turns into a clear 503, not a 500', async () => {
    gw.fail(500);
    const n = notifier();
    await expect(
      n.sendCode({ channel: 'sms', to: '01722222222', purpose: 'account', code: '11111', subject: 's', text: '11111' }),
    ).rejects.toThrow('could not send the sms');
    const row = await t.db.one<{ sent_at: string | null }>('SELECT sent_at FROM outbox ORDER BY id DESC LIMIT 1');
    expect(row?.sent_at).toBeNull();
  });
});

describe('signup when the code cannot be sent', () => {
  let t: TestApp;
  const gw = gateway();
  beforeAll(async () => {
    await new Promise<void>((r) => gw.server.listen(0, '127.0.0.1', () => r()));
    gw.fail(502);
    t = await startTestApp({
      NOTIFY_TRANSPORT: 'live',
      SMTP_URL: 'smtp://127.0.0.1:9',
      SMS_GATEWAY_URL: `http://127.0.0.1:${(gw.server.address() as AddressInfo).port}/send`,
    });
  });
  afterAll(async () => {
    await t.close();
    gw.server.close();
  });

  test("answers 503 with a message in the visitor's language", async () => {
    const r = await request(t.url)
      .post('/api/v1/signup/')
      .set('Accept-Language', 'bn')
      .send({ date_of_birth: '1990-01-01', name: 'A B', phone: '01733333333', password: 'pass-word-1' });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ detail: 'এই মুহূর্তে কোডটি পাঠানো যায়নি। কয়েক মিনিট পর আবার চেষ্টা করুন।', code: 'send_failed' });
    expect(gw.received).toHaveLength(1);
  });
});

describe('a mail server or SMS gateway that never answers', () => {
  const smtp = hangingSmtp();
  const sms = hangingGateway();
  let smtpUrl: string;
  let smsUrl: string;
  let t: TestApp;
  beforeAll(async () => {
    [smtpUrl, smsUrl] = await Promise.all([smtp.listen(), sms.listen()]);
    t = await startTestApp({ NOTIFY_TRANSPORT: 'live', SMTP_URL: smtpUrl, SMS_GATEWAY_URL: smsUrl, NOTIFY_TIMEOUT_MS: '1500' });
  });
  afterAll(async () => {
    await t.close();
    smtp.close();
    sms.close();
  });

  test('an e-mail code fails with NotifyError once NOTIFY_TIMEOUT_MS have passed, through the SMTP transporter as configured', async () => {
    const n = liveNotifier(t.db, createLogger('silent'), {
      mailer: smtpMailer(smtpUrl, 1000),
      mailFrom: 'Bhagya <no-reply@example.com>',
      sms: { primary: genericGateway(smsUrl, undefined) },
      timeoutMs: 1000,
    });
    const sent = n.sendCode({ channel: 'email', to: 'a@example.com', purpose: 'account', code: '123456', subject: 's', text: '123456' });
    await expect(sent).rejects.toThrow(NotifyError);
    // It did connect, and then waited for the greeting in vain (the connection may already be closed: it is counted).
    expect(smtp.accepted()).toBeGreaterThan(0);
  }, 15_000);

  test('an SMS code fails with NotifyError once NOTIFY_TIMEOUT_MS have passed', async () => {
    const n = liveNotifier(t.db, createLogger('silent'), {
      mailer: { sendMail: async () => undefined },
      mailFrom: 'Bhagya <no-reply@example.com>',
      sms: { primary: genericGateway(smsUrl, undefined) },
      timeoutMs: 1000,
    });
    await expect(
      n.sendCode({ channel: 'sms', to: '01711111111', purpose: 'account', code: '12345', subject: 's', text: '12345' }),
    ).rejects.toThrow(NotifyError);
  }, 15_000);

  test('while a sign-up waits on the silent mail server, everyone else is served: pages, logins, purchases', async () => {
    let settled = false;
    const waiting = request(t.url)
      .post('/api/v1/signup/')
      .set('Accept-Language', 'en')
      .send({ date_of_birth: '1990-01-01', name: 'Mail Wait', email: 'wait@example.com', password: 'pass-word-1' })
      .then((r) => {
        settled = true;
        return r;
      });
    await new Promise((r) => setTimeout(r, 100)); // the sign-up is now waiting for the mail server
    const lottery = await insertLottery(t, { name: 'Still Selling' });
    const buyer = await account(t);
    expect((await request(t.url).get('/all-lotteries')).status).toBe(200);
    expect((await buy(t, buyer, purchase(lottery, '05-12-23-34-45-07'))).status).toBe(201);
    expect(settled).toBe(false); // all of that while the sign-up still waited
    expect((await waiting).status).toBe(503);
  }, 15_000);

  test('a sign-up by e-mail answers the clear 503 after the configured timeout, not minutes later', async () => {
    const r = await request(t.url)
      .post('/api/v1/signup/')
      .set('Accept-Language', 'en')
      .send({ date_of_birth: '1990-01-01', name: 'Mail Hang', email: 'hang@example.com', password: 'pass-word-1' });
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('send_failed');
  }, 15_000);
});
