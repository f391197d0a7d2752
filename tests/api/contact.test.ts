import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { hangingSmtp } from '../helpers/stand-ins.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SUPPORT_ADDRESS: 'House 1, Road 2, Dhaka', SUPPORT_PHONE: '09612-000111' });
});
afterAll(async () => {
  await t.close();
});

const count = async () => Number((await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM contact_messages'))?.n);
const ip = (n: number) => ({ 'X-Forwarded-For': `198.51.100.${n}` });

describe('POST /api/v1/contact/', () => {
  test("stores the message and answers in the visitor's language", async () => {
    const before = await count();
    const r = await to(t, api.contact)
      .set(ip(1))
      .set('Accept-Language', 'bn')
      .send({ name: 'Rahim', email: 'Rahim@Example.com', message: 'My ticket?' });
    expect(r.status).toBe(201);
    expect(r.body.detail).toBe('আপনার বার্তা সফলভাবে পাঠানো হয়েছে।');
    expect(await count()).toBe(before + 1);
    const row = await t.db.one<{ email: string; language: string; message: string }>(
      'SELECT email, language, message FROM contact_messages ORDER BY id DESC LIMIT 1',
    );
    expect(row).toEqual({ email: 'rahim@example.com', language: 'bn', message: 'My ticket?' });
  });

  test.each(
    (
      [
        [{ email: 'a@b.co', message: 'x' }, 'name'],
        [{ name: 'A', email: 'not-an-email', message: 'x' }, 'email'],
        [{ name: 'A', email: 'a@b.co', message: '   ' }, 'message'],
        [{ name: 'A', email: 'a@b.co', message: 'x'.repeat(2001) }, 'message'],
        [{ name: 'A', email: 'a@b.co', message: 'x', extra: 1 }, 'extra'],
        [{ name: 5, email: 'a@b.co', message: 'x' }, 'name'],
      ] as [Record<string, unknown>, string][]
    ).map(([body, f], i) => [body, f, i] as const),
  )('%o → 400 with an error on %s, nothing stored', async (body, fieldName, i) => {
    const before = await count();
    const r = await to(t, api.contact)
      .set(ip(20 + i))
      .send(body);
    expect(r.status).toBe(400);
    expect(Array.isArray(r.body[fieldName as string])).toBe(true);
    expect(await count()).toBe(before);
  });

  test('five messages an hour per address, then 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++)
      await to(t, api.contact)
        .set(ip(3))
        .send({ name: 'A', email: 'a@b.co', message: `m${i}` })
        .expect(201);
    const r = await to(t, api.contact).set(ip(3)).send({ name: 'A', email: 'a@b.co', message: 'm6' });
    expect(r.status).toBe(429);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.body).toEqual({
      detail: `Too many attempts. Please try again in ${r.body.wait} seconds.`,
      code: 'throttled',
      wait: Number(r.headers['retry-after']),
    });
  });
});

describe('/contact page', () => {
  test('shows the configured support contacts and sends a message without JavaScript', async () => {
    const agent = request.agent(t.url).set(ip(4));
    const page = await agent.get('/contact?lng=en').redirects(1).expect(200);
    expect(page.text).toContain('House 1, Road 2, Dhaka');
    expect(page.text).toContain('tel:09612000111');
    const before = await count();
    const bad = await agent
      .post('/contact')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), name: '', email: 'x', message: '' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('This field is required');
    expect(bad.text).toContain('Please enter a valid email address');
    expect(await count()).toBe(before);
    const ok = await agent
      .post('/contact')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), name: 'Karim', email: 'k@example.com', message: 'Hello' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Success!');
    expect(ok.text).toContain('Your message has been sent successfully.');
    expect(await count()).toBe(before + 1);
  });

  test('the legacy dashboard address leads here', async () => {
    const r = await request(t.url).get('/user-dashboard/contact-us');
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe('/contact');
  });
});

describe('forwarding to support', () => {
  const build = async (forward: (m: { name: string; email: string; message: string }) => Promise<unknown>) => {
    const express = (await import('express')).default;
    const { contactRoutes } = await import('../../server/contact/routes.ts');
    const { Contact } = await import('../../server/contact/service.ts');
    const { createLogger } = await import('../../server/log.ts');
    const { apiErrorHandler } = await import('../../server/http/errors.ts');
    const { httpRouter } = await import('../../server/http/route.ts');
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      req.t = ((k: string) => k) as unknown as typeof req.t;
      req.language = 'en';
      next();
    });
    app.use(
      '/api',
      httpRouter(contactRoutes(new Contact(t.db, createLogger('silent'), forward)).served),
      apiErrorHandler(createLogger('silent')),
    );
    return app;
  };

  test('a stored message is forwarded with the sender as reply address', async () => {
    const sent: unknown[] = [];
    const app = await build(async (m) => void sent.push(m));
    await request(app).post(urlOf(api.contact)).set(ip(40)).send({ name: 'Nila', email: 'Nila@Example.com', message: 'Hi' }).expect(201);
    expect(sent).toEqual([{ name: 'Nila', email: 'nila@example.com', message: 'Hi' }]);
  });

  test('a failed forward still answers 201: the message is stored for staff', async () => {
    const before = await count();
    const app = await build(async () => {
      throw new Error('smtp down');
    });
    await request(app).post(urlOf(api.contact)).set(ip(41)).send({ name: 'Nila', email: 'n@example.com', message: 'Hi again' }).expect(201);
    expect(await count()).toBe(before + 1);
  });
});

describe('a mail server that never answers', () => {
  const smtp = hangingSmtp();
  let live: TestApp;
  beforeAll(async () => {
    // Two minutes before the forward gives up: the answer can only come first if it does not wait for the forward.
    live = await startTestApp({
      NOTIFY_TRANSPORT: 'live',
      SMTP_URL: await smtp.listen(),
      SMS_GATEWAY_URL: 'http://127.0.0.1:9/sms',
      NOTIFY_TIMEOUT_MS: '120000',
    });
  });
  afterAll(async () => {
    smtp.close(); // the forward fails now (logged), and the app can close
    await live.close();
  });

  test('the message is stored and the sender answered while the forward still waits for the mail server', async () => {
    const r = await to(live, api.contact).set(ip(50)).send({ name: 'Hasan', email: 'hasan@example.com', message: 'Are you there?' });
    expect(r.status).toBe(201);
    const row = await live.db.one<{ message: string }>('SELECT message FROM contact_messages ORDER BY id DESC LIMIT 1');
    expect(row?.message).toBe('Are you there?');
    // The forward did go out: the mail server has the connection, and has not answered.
    for (let i = 0; i < 50 && smtp.accepted() === 0; i++) await new Promise((res) => setTimeout(res, 100));
    expect(smtp.accepted()).toBe(1);
  }, 20_000);
});
