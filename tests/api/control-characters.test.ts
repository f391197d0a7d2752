/**
 * NUL and other control characters in any field of any request get a clear 4xx, never a 500 (and nothing is
 * stored): every body field of every endpoint of the contract, its query and path parameters, the BFF login and
 * every form action of the route tree. The tables come from the contract and the route tree themselves.
 */
import request from 'supertest';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { actionPaths } from '../helpers/routes.ts';
import { csrfFrom } from '../helpers/session.ts';
import { routes } from '../../views/routes.tsx';

const BAD = ['\u0000', 'a\u0000b', '\u0007bell', 'x\u001b[31m', 'line\u000bbreak', '\u007f'];
/** The bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): refused the same way. */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A body every field of which is plausible, so that the bad field is what the answer is about. */
const PLAUSIBLE: Record<string, unknown> = {
  phone: '01712345678',
  email: 'a@b.co',
  identifier: '01712345678',
  password: 'secret-pass-1',
  name: 'Rahim',
  location: 'Dhaka',
  otp: '12345',
  new_password: 'secret-pass-1',
  confirm_password: 'secret-pass-1',
  refresh: 'x',
  message: 'hello',
};

const fieldsOf = (e: Endpoint): string[] =>
  Object.keys((e.body as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {});
const withBody = Object.entries(contract).filter(([, e]) => fieldsOf(e).length > 0);

describe('API bodies', () => {
  test('the table covers every endpoint with a JSON body', () => {
    expect(withBody.map(([id]) => id).sort()).toEqual(
      expect.arrayContaining(['contact', 'forgotPassword', 'login', 'resetPassword', 'signup', 'verifyAccount']),
    );
  });

  const cases = withBody.flatMap(([id, e]) => fieldsOf(e).flatMap((field) => BAD.slice(0, 2).map((bad) => [id, field, bad, e] as const)));
  test.each(cases)('%s: %s = %j → 4xx', async (_id, field, bad, e) => {
    const body = Object.fromEntries(fieldsOf(e).map((f) => [f, PLAUSIBLE[f] ?? 'x']));
    body[field] = bad;
    const r = await request(t.url)[e.method.toLowerCase() as 'post'](e.path).set('Accept-Language', 'en').send(body);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.headers['content-type']).toMatch(/json/);
  });

  test.each([...BAD, ...BIDI.map((c) => `Ra${c}him`)])('a control character in a text field names that field: %j', async (bad) => {
    const r = await request(t.url)
      .post('/api/v1/signup/')
      .send({ name: `Ra${bad}him`, phone: '01712345670', password: 'secret-pass-1' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ name: ['This field contains characters that are not allowed.'] });
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', ['01712345670'])).toHaveLength(0);
  });

  test.each(BIDI)('a bidi control in a profile name: 400 in both languages, nothing changed: %j', async (c) => {
    const u = await createUser(t);
    const token = (await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password }).expect(200)).body
      .access as string;
    const before = await t.db.one<{ name: string }>('SELECT name FROM users WHERE id = $1', [u.id]);
    const change = (lng: string) =>
      request(t.url)
        .patch('/api/v1/update-profile/')
        .set('Authorization', `Bearer ${token}`)
        .set('Accept-Language', lng)
        .send({ password: u.password, name: `Rahim ${c}0001` });
    const en = await change('en');
    expect(en.status).toBe(400);
    expect(en.body).toEqual({ name: ['This field contains characters that are not allowed.'] });
    const bn = await change('bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ name: ['এই ঘরে এমন কিছু অক্ষর আছে, যা ব্যবহার করা যাবে না।'] });
    expect(await t.db.one('SELECT name FROM users WHERE id = $1', [u.id])).toEqual(before);
  });

  test('the left-to-right and right-to-left marks (U+200E, U+200F) are allowed in a name', async () => {
    const r = await request(t.url)
      .post('/api/v1/signup/')
      .send({ name: 'রহিম\u200e Uddin\u200f', phone: '01712345671', password: 'secret-pass-1' });
    expect(r.status).toBe(201);
    expect(await t.db.one('SELECT name FROM users WHERE phone = $1', ['01712345671'])).toEqual({ name: 'রহিম\u200e Uddin\u200f' });
  });
});

describe('API query and path parameters', () => {
  test.each(['%00', 'a%00', '%1b', '%7f'])('published lotteries ?limit=%s → 400', async (v) => {
    const r = await request(t.url).get(`/api/v1/published-lotteries/?limit=${v}&offset=${v}`);
    expect(r.status).toBe(400);
  });
  test.each(['%00', '1%00', '%1b', '0', '-1'])('a lottery id %s → 404', async (id) => {
    expect((await request(t.url).get(`/api/v1/get-lottery/${id}/`)).status).toBe(404);
  });
  test.each(['%00', '1%00', 'not-a-uuid', '..%2f..%2fetc%2fpasswd', '00000000-0000-4000-8000-00000000000%00'])(
    'an upload id %s → 404',
    async (id) => {
      const u = await createUser(t);
      const token = (await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password }).expect(200)).body
        .access as string;
      const r = await request(t.url).get(`/api/v1/uploads/${id}/`).set('Authorization', `Bearer ${token}`);
      expect(r.status).toBe(404);
    },
  );
});

describe('BFF and form actions', () => {
  test.each(BAD)('POST /bff/session with %j in the phone → 400', async (bad) => {
    const agent = request.agent(t.url);
    const page = await agent.get('/login').expect(200);
    const r = await agent
      .post('/bff/session')
      .set('x-csrf-token', csrfFrom(page.text))
      .send({ phone: `017${bad}12345678`, password: 'x' });
    expect(r.status).toBe(400);
  });

  test('every form action of the route tree answers a NUL in every field with a page, not a 500', async () => {
    const paths = await actionPaths(routes);
    expect(paths).toEqual(
      expect.arrayContaining(['/login', '/register', '/contact', '/verify-otp', '/forgot-password', '/reset-password']),
    );
    const fields = [
      'phone',
      'password',
      'identifier',
      'otp',
      'name',
      'email',
      'message',
      'firstName',
      'lastName',
      'location',
      'new_password',
      'confirm_password',
      'from',
      'intent',
    ];
    for (const path of paths) {
      const agent = request.agent(t.url);
      const page = await agent.get('/login').expect(200);
      const form: Record<string, string> = { _csrf: csrfFrom(page.text) };
      for (const f of fields) form[f] = 'a\u0000b';
      const r = await agent.post(`${path}?identifier=01712345678`).type('form').send(form);
      expect({ path, status: r.status < 500 }).toEqual({ path, status: true });
    }
  });
});
