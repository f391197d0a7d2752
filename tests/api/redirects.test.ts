/**
 * After login and other actions only a path on this site is followed (docs/rules/security.md): crafted `from`
 * values fall back to the default page, never leave the site and never make the server answer 500.
 */
import http from 'node:http';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, setCookies } from '../helpers/session.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CRAFTED = [
  '//evil.example/x',
  '/\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\u0000/evil.example',
  ' //evil.example',
  '/ /evil.example',
  '/\u00a0/evil.example',
  '/..//evil.example',
  '/a/..//evil.example',
  'https://evil.example',
  'javascript:alert(1)',
  '/faq\r\nSet-Cookie: owned=1',
  '\u2028//evil.example',
];

/** A Location that stays here: a path, resolving to this origin. */
function expectLocal(location: string | undefined) {
  expect(location).toBeDefined();
  expect(location).toMatch(/^\/(?![/\\])/);
  expect(new URL(location as string, 'http://here.invalid').origin).toBe('http://here.invalid');
}

describe('login form `from`', () => {
  test.each(CRAFTED)('%j: logged in, sent to the home page', async (from) => {
    const u = await createUser(t);
    const agent = request.agent(t.url);
    const page = await agent.get('/login').expect(200);
    const r = await agent
      .post('/login')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), phone: u.phone, password: u.password, from });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/');
    expect(setCookies(r).join('\n')).not.toContain('owned=');
  });

  test('a path on this site is followed, normalised', async () => {
    const u = await createUser(t);
    const agent = request.agent(t.url);
    const page = await agent.get('/login').expect(200);
    const r = await agent
      .post('/login')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), phone: u.phone, password: u.password, from: '/faq?category=payment' });
    expect(r.headers.location).toBe('/faq?category=payment');
  });
});

describe('GET /login?from= when already logged in', () => {
  test.each(CRAFTED)('%j: sent to the home page', async (from) => {
    const u = await createUser(t);
    const agent = await loginAs(t.url, u.phone, u.password);
    const r = await agent.get(`/login?from=${encodeURIComponent(from)}`);
    expect(r.status).toBe(303);
    expectLocal(r.headers.location);
    expect(r.headers.location).toBe('/');
  });
});

describe('the login page shows only a safe `from` in its form', () => {
  test.each(CRAFTED)('%j is not carried', async (from) => {
    const r = await request(t.url)
      .get(`/login?from=${encodeURIComponent(from)}`)
      .expect(200);
    expect(r.text).not.toContain('name="from"');
  });
});

describe('?lng= switches the language and comes back to the same page only', () => {
  /** Raw request: supertest/URL would normalise the crafted path before sending it. */
  const rawGet = (path: string) =>
    new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      const u = new URL(t.url);
      const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      });
      req.on('error', reject);
      req.end();
    });

  test.each(['/a/..//evil.example/?lng=bn', '//evil.example/?lng=bn', '/./..//evil.example?lng=en'])(
    '%j stays on the site',
    async (path) => {
      const r = await rawGet(path);
      expect(r.status).toBe(303);
      expectLocal(r.location);
    },
  );

  test('an ordinary page keeps its path and other parameters', async () => {
    const r = await rawGet('/all-lotteries?page=2&lng=bn');
    expect(r).toEqual({ status: 303, location: '/all-lotteries?page=2' });
  });
});
