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
import { insertLottery } from './purchase-fixtures.ts';
import { routes } from '../../views/routes.tsx';

const BAD = ['\u0000', 'a\u0000b', '\u0007bell', 'x\u001b[31m', 'line\u000bbreak', '\u007f'];
/** The bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): invisible, refused. */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
/** The other invisible characters (docs/rules/security.md#10-invisible-characters), each refused in every name. */
const INVISIBLE = ['\u200e', '\u200f', '\u061c', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\t', '\u00ad', '\u2028', '\n'];
const NOT_ALLOWED = { en: 'This field contains characters that are not allowed.', bn: 'এই ঘরে এমন কিছু অক্ষর আছে, যা ব্যবহার করা যাবে না।' };
const INVISIBLE_TEXT = {
  en: 'This field contains an invisible character (such as a tab, a line break, a zero-width space or a direction mark), which is not allowed. Type it again without it.',
  bn: 'এই ঘরে একটি অদৃশ্য অক্ষর আছে (যেমন ট্যাব, লাইন ব্রেক, জিরো-উইডথ স্পেস বা লেখার দিক বদলানোর চিহ্ন), যা ব্যবহার করা যাবে না। এটি ছাড়া আবার লিখুন।',
};

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
  date_of_birth: '1990-01-01',
  otp: '123456',
  new_password: 'secret-pass-1',
  confirm_password: 'secret-pass-1',
  refresh: 'x',
  message: 'hello',
  // Left out: optional, and any value of them would be the answer (a picture that is no upload, a typed beacon value).
  picture: undefined,
  value: undefined,
  endpoint: 'https://push.example/send/abc',
  expirationTime: null,
  keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') },
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

  /**
   * Each body is sent by a caller the endpoint lets in — anonymous for a public one, a player for a player's, a
   * superuser (staff with every right) for staff's — to a path whose parameters are plausible ids, so that the answer
   * is the body's parsing and not a 401 or 403 before it.
   */
  const callers: Partial<Record<Endpoint['access'], string>> = {};
  /** The id in every path: a lottery on sale (an endpoint that looks its lottery up before the body finds one). */
  let id = 0;
  beforeAll(async () => {
    id = await insertLottery(t);
    const tokenOf = async (u: { phone: string; password: string }) =>
      (await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password }).expect(200)).body.access as string;
    callers.user = await tokenOf(await createUser(t, { name: 'Body Player' }));
    const boss = await createUser(t, { name: 'Body Superuser', is_staff: true });
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [boss.id]);
    callers.staff = await tokenOf(boss);
  });
  /** The fields that are not read as text, and what the answer is then instead of a 400 naming them. */
  const OTHERWISE: Record<string, { status: number; code: string }> = {
    // A password is compared, never parsed (any character may be in one): no account has this one.
    'login.password': { status: 401, code: 'no_active_account' },
    // The lottery (written straight to the database) has no announced draw: refused before the signature is read.
    'setDrawBeacon.signature': { status: 409, code: 'not_announced' },
  };
  const cases = withBody.flatMap(([id, e]) => fieldsOf(e).flatMap((field) => BAD.slice(0, 2).map((bad) => [id, field, bad, e] as const)));
  test.each(cases)('%s: %s = %j → 400 naming the field, past the access check', async (name, field, bad, e) => {
    const body = Object.fromEntries(fieldsOf(e).map((f) => [f, f in PLAUSIBLE ? PLAUSIBLE[f] : 'x']));
    body[field] = bad;
    const path = e.path.replace(/:\w+/g, String(id));
    let r = request(t.url)[e.method.toLowerCase() as 'post'](path).set('Accept-Language', 'en');
    const token = callers[e.access];
    if (token) r = r.set('Authorization', `Bearer ${token}`);
    const answer = await r.send(body);
    const otherwise = OTHERWISE[`${name}.${field}`];
    if (otherwise) return void expect({ status: answer.status, code: answer.body.code }).toEqual(otherwise);
    expect({ status: answer.status, json: answer.headers['content-type'] }).toEqual({ status: 400, json: expect.stringMatching(/json/) });
    expect(Object.keys(answer.body as object)).toContain(field);
  });

  test.each(BAD)('a control character in a text field names that field: %j', async (bad) => {
    const r = await request(t.url)
      .post('/api/v1/signup/')
      .send({ date_of_birth: '1990-01-01', name: `Ra${bad}him`, phone: '01712345670', password: 'secret-pass-1' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ name: [NOT_ALLOWED.en] });
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', ['01712345670'])).toHaveLength(0);
  });

  test.each([...BIDI, ...INVISIBLE])('an invisible character in a sign-up name: 400 in both languages, no account: %j', async (c) => {
    for (const lng of ['en', 'bn'] as const) {
      const r = await request(t.url)
        .post('/api/v1/signup/')
        .set('Accept-Language', lng)
        .send({ date_of_birth: '1990-01-01', name: `Rahim ${c}Uddin`, phone: '01712345670', password: 'secret-pass-1' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ name: [INVISIBLE_TEXT[lng]] });
    }
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', ['01712345670'])).toHaveLength(0);
  });

  test.each(BIDI.concat(INVISIBLE))('an invisible character in a profile name: 400 in both languages, nothing changed: %j', async (c) => {
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
    expect(en.body).toEqual({ name: [INVISIBLE_TEXT.en] });
    const bn = await change('bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ name: [INVISIBLE_TEXT.bn] });
    expect(await t.db.one('SELECT name FROM users WHERE id = $1', [u.id])).toEqual(before);
  });

  test('Bengali joiners between Bengali letters are kept in a name; the direction marks are refused', async () => {
    const r = await request(t.url)
      .post('/api/v1/signup/')
      .send({ date_of_birth: '1990-01-01', name: 'র\u200d্যাব উদ্দিন', phone: '01712345671', password: 'secret-pass-1' });
    expect(r.status).toBe(201);
    expect(await t.db.one('SELECT name FROM users WHERE phone = $1', ['01712345671'])).toEqual({ name: 'র\u200d্যাব উদ্দিন' });
    const marks = await request(t.url)
      .post('/api/v1/signup/')
      .send({ date_of_birth: '1990-01-01', name: 'রহিম\u200e Uddin\u200f', phone: '01712345672', password: 'secret-pass-1' });
    expect(marks.status).toBe(400);
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', ['01712345672'])).toHaveLength(0);
  });

  test.each(['\u200b', '\u2060', '\ufeff', '\t', '\u200d'])(
    'the contact form: %j in the name or the message refused, nothing stored',
    async (c) => {
      const before = (await t.db.query('SELECT 1 FROM contact_messages')).length;
      const name = await request(t.url)
        .post('/api/v1/contact/')
        .set('Accept-Language', 'bn')
        .send({ name: `Ra${c}him`, email: 'a@b.co', message: 'hello' });
      expect(name.status).toBe(400);
      expect(name.body).toEqual({ name: [INVISIBLE_TEXT.bn] });
      const message = await request(t.url)
        .post('/api/v1/contact/')
        .send({ name: 'Rahim', email: 'a@b.co', message: `my ticket${c} is lost` });
      expect(message.status).toBe(400);
      expect(message.body).toEqual({ message: [INVISIBLE_TEXT.en] });
      expect((await t.db.query('SELECT 1 FROM contact_messages')).length).toBe(before);
      // A message of several lines is still a message.
      const lines = await request(t.url).post('/api/v1/contact/').send({ name: 'Rahim', email: 'a@b.co', message: 'line one\nline two' });
      expect(lines.status).toBeLessThan(300);
    },
  );

  test('a lottery’s names: an invisible character refused for staff, nothing stored; its description may break lines', async () => {
    const staff = await createUser(t, { is_staff: true });
    const token = (await request(t.url).post('/api/token/').send({ phone: staff.phone, password: staff.password }).expect(200)).body
      .access as string;
    const lottery = {
      name: 'Padma Weekly',
      name_bn: 'পদ্মা সাপ্তাহিক',
      description: 'A steady\nweekly draw.',
      winners: 2,
      ticket_price: 100,
      total_prize: 50000,
      start_date: '2026-12-01',
      end_date: '2026-12-05',
    };
    const create = (body: object) =>
      request(t.url).post('/api/v1/lotteries/').set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en').send(body);
    const count = async () => (await t.db.query('SELECT 1 FROM lotteries')).length;
    const before = await count();
    for (const [field, value] of [
      ['name', 'Padma\u200b Weekly'],
      ['name', 'Padma\tWeekly'],
      ['name_bn', 'পদ্মা\u2060সাপ্তাহিক'],
      ['name_bn', '\u200cপদ্মা'],
      ['description', 'A steady\u202e weekly draw.'],
    ] as const) {
      const r = await create({ ...lottery, [field]: value });
      expect([field, r.status, r.body]).toEqual([field, 400, { [field]: [INVISIBLE_TEXT.en] }]);
    }
    expect(await count()).toBe(before);
    expect((await create(lottery)).status).toBe(201);
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
