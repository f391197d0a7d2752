/**
 * Whatever a client sends, the API answers with a clear 4xx JSON body, never a 500 (docs/rules/limits.md#2-request-bodies: the bearer API
 * takes JSON only on unsafe methods; bodies are bounded).
 */
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const api = () => request(t.url);
const MALFORMED = { detail: 'Malformed JSON in the request body.', code: 'parse_error' };
const NOT_OBJECT = { detail: 'Expected a JSON object.', code: 'parse_error' };
const NOT_JSON = { detail: 'Send the request body as JSON (Content-Type: application/json).', code: 'unsupported_media_type' };
const TOO_LARGE = { detail: 'The request body is too large.', code: 'body_too_large' };

/** A raw body with the given content type, exactly as a broken client would send it. */
const raw = (path: string, body: string, type = 'application/json', method: 'post' | 'put' | 'patch' | 'delete' = 'post') =>
  api()[method](path).set('Content-Type', type).send(body);

type Answer = { status: number; headers: Record<string, string | undefined>; body: unknown };

function expectJsonError(res: Answer, status: number, body?: unknown) {
  expect(res.status).not.toBe(500);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  if (body !== undefined) expect(res.body).toEqual(body);
}

/** Exact bytes (superagent would turn a Buffer into JSON of its own when the type is JSON). */
async function bytes(path: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? undefined }, body: JSON.parse(text) };
}

test('malformed JSON: 400 {detail}, in both languages', async () => {
  for (const body of ['{"phone": "017', '{phone: "01711111111"}', "{'a': 1}", '{"a":1,}', '']) {
    if (body === '') continue;
    expectJsonError(await raw('/api/token/', body), 400, MALFORMED);
  }
  expectJsonError(await raw('/api/v1/signup/', '{"name":').set('Accept-Language', 'bn'), 400, {
    detail: 'অনুরোধের JSON সঠিক নয়।',
    code: 'parse_error',
  });
});

test('a JSON array, string, number, boolean or null body: 400, not 500', async () => {
  expectJsonError(await raw('/api/token/', '[1, 2]'), 400, NOT_OBJECT);
  expectJsonError(await raw('/api/v1/signup/', '[{"name": "x"}]'), 400, NOT_OBJECT);
  for (const body of ['"hello"', '42', 'true', 'null']) {
    const res = await raw('/api/v1/verify-otp/', body);
    expectJsonError(res, 400);
    expect([MALFORMED, NOT_OBJECT]).toContainEqual(res.body);
  }
});

test('an unsafe request without a body: 400 Expected a JSON object', async () => {
  expectJsonError(await api().post('/api/token/'), 400, NOT_OBJECT);
  expectJsonError(await api().post('/api/v1/forgot-password/'), 400, NOT_OBJECT);
});

test('wrong types: 400 field errors naming each field', async () => {
  expectJsonError(await api().post('/api/v1/verify-otp/').send({ identifier: 1711111111, otp: 12345 }), 400, {
    identifier: ['Expected a string.'],
    otp: ['Expected a string.'],
  });
  expectJsonError(
    await api()
      .post('/api/v1/reset-password/')
      .send({ identifier: ['01711111111'], otp: '123456', new_password: 12345678, confirm_password: null }),
    400,
    {
      identifier: ['Expected a string.'],
      new_password: ['Expected a string.'],
      confirm_password: ['Expected a string.'],
    },
  );
  expectJsonError(
    await api()
      .post('/api/v1/signup/')
      .send({ date_of_birth: '1990-01-01', name: { first: 'A', last: 'B' }, phone: true, password: 'long-enough-1' }),
    400,
    {
      name: ['Expected a string.'],
      phone: ['Expected a string.'],
    },
  );
  expectJsonError(await api().post('/api/token/refresh/').send({ refresh: 42 }), 400, { refresh: ['Expected a string.'] });
  expectJsonError(
    await api()
      .post('/api/v1/signup/')
      .set('Accept-Language', 'bn')
      .send({ date_of_birth: '1990-01-01', name: 1, phone: '01711111111', password: 'long-enough-1' }),
    400,
    {
      name: ['এখানে লেখা দিন।'],
    },
  );
});

test('over-long values are field errors, not database errors', async () => {
  const res = await api()
    .post('/api/v1/signup/')
    .send({ date_of_birth: '1990-01-01', name: 'x'.repeat(101), email: `${'a'.repeat(250)}@example.com`, password: 'p'.repeat(129) });
  expectJsonError(res, 400, {
    name: ['Ensure this value has at most 100 characters or digits.'],
    email: ['Ensure this value has at most 254 characters or digits.'],
    password: ['Ensure this value has at most 128 characters or digits.'],
  });
});

test('a __proto__ key is an unknown field and pollutes nothing', async () => {
  const res = await raw('/api/token/', '{"phone":"01711111111","password":"x","__proto__":{"is_staff":true}}');
  expectJsonError(res, 400, JSON.parse('{"__proto__": ["Unknown field."]}'));
  expect(res.text).toBe('{"__proto__":["Unknown field."]}');
  expect(({} as Record<string, unknown>).is_staff).toBeUndefined();
});

test('a body over 32 kb: 400 too large; just under passes to validation', async () => {
  const big = JSON.stringify({ phone: '01711111111', password: 'x'.repeat(33 * 1024) });
  expectJsonError(await raw('/api/token/', big), 400, TOO_LARGE);
  expectJsonError(await raw('/api/token/', big).set('Accept-Language', 'bn'), 400, { detail: 'অনুরোধটি অনেক বড়।', code: 'body_too_large' });
  const under = JSON.stringify({ phone: '01711111111', password: 'x', pad: 'y'.repeat(31 * 1024) });
  expectJsonError(await raw('/api/token/', under), 400, { pad: ['Unknown field.'] });
});

test('deeply nested JSON within the size limit: 400, not a crash', async () => {
  const deep = `{"phone":${'['.repeat(15000)}${']'.repeat(15000)},"password":"x"}`;
  const res = await raw('/api/token/', deep);
  expectJsonError(res, 400);
  expect(res.body).toEqual({ phone: ['Expected a string.'] });
});

test('a non-JSON content type on an unsafe /api method: 415', async () => {
  expectJsonError(await raw('/api/token/', '{"phone":"01711111111","password":"x"}', 'text/plain'), 415, NOT_JSON);
  expectJsonError(await raw('/api/token/', 'phone=01711111111&password=x', 'application/x-www-form-urlencoded'), 415, NOT_JSON);
  expectJsonError(await api().post('/api/v1/signup/').field('name', 'A B').field('phone', '01711111111'), 415, NOT_JSON);
  expectJsonError(await raw('/api/v1/signup/', '<signup/>', 'application/xml'), 415, NOT_JSON);
  for (const method of ['put', 'patch', 'delete'] as const)
    expectJsonError(await raw('/api/v1/users/1/', 'x=1', 'text/plain', method), 415, NOT_JSON);
  expectJsonError(await raw('/api/token/', 'x', 'text/plain').set('Accept-Language', 'bn'), 415, {
    detail: 'অনুরোধটি JSON হিসেবে পাঠান (Content-Type: application/json)।',
    code: 'unsupported_media_type',
  });
});

test('JSON in an unsupported charset or encoding: 415; a broken gzip body: 400', async () => {
  expectJsonError(await raw('/api/token/', '{"phone":"x","password":"y"}', 'application/json; charset=latin1'), 415, NOT_JSON);
  expectJsonError(await raw('/api/token/', '{"phone":"x","password":"y"}').set('Content-Encoding', 'bogus'), 415, NOT_JSON);
  const broken = await bytes('/api/token/', Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' });
  expectJsonError(broken, 400);
  // A correct gzip body is accepted and reaches validation.
  const zipped = await bytes('/api/token/', gzipSync('{"phone":"","password":""}'), { 'content-encoding': 'gzip' });
  expectJsonError(zipped, 400, { phone: ['Please enter your email or phone number'], password: ['Please enter your password'] });
});

test('a body that is not UTF-8: 400', async () => {
  // {"\xff\xfe":1}: the bytes decode to replacement characters, an unknown field like any other.
  const res = await bytes('/api/token/', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
  expectJsonError(res, 400, {
    '\ufffd\ufffd': ['Unknown field.'],
    phone: ['This field is required.'],
    password: ['This field is required.'],
  });
});

test('an unknown /api path or a wrong method: 404 JSON', async () => {
  const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };
  expectJsonError(await api().get('/api/v1/nothing-here/'), 404, NOT_FOUND);
  expectJsonError(await api().post('/api/v1/nothing-here/').send({}), 404, NOT_FOUND);
  expectJsonError(await api().get('/api/'), 404, NOT_FOUND);
  expectJsonError(await api().get('/api/token/'), 404, NOT_FOUND);
  expectJsonError(await api().delete('/api/v1/signup/'), 404, NOT_FOUND);
  expectJsonError(await api().get('/api/v1/nothing-here/').set('Accept-Language', 'bn'), 404, {
    detail: 'পাওয়া যায়নি।',
    code: 'not_found',
  });
  const res = await api().get('/api/v1/nothing-here/');
  expect(res.headers['cache-control']).toBe('no-store');
});

test('a path with broken percent-encoding: 400 JSON, not 500', async () => {
  expectJsonError(await api().get('/api/v1/get-lottery/%E0%A4%A/'), 400);
  expectJsonError(await api().get('/api/v1/users/%/'), 400);
});

describe('a malformed Host header (as one load-testing client sends it): 400, never 500', () => {
  // server/http/host.ts; docs/rules/limits.md#2-request-bodies.
  const BAD_HOSTS = ['undefined:undefined', 'localhost:abc', 'x:99999', 'exa mple.com', '[::1', '%', 'a/b', ''];
  const BAD_HOST = { detail: "The request's Host header is not valid.", code: 'bad_host' };

  test.each(BAD_HOSTS)('pages, anonymous and logged in, the /bff proxy and the API: Host %j → 400', async (host) => {
    const u = await createUser(t);
    const agent = await loginAs(t.url, u.phone, u.password);
    for (const path of ['/profile', '/my-lotteries', '/', '/all-lotteries']) {
      const mine = await agent.get(path).set('Host', host);
      expect({ path, status: mine.status }).toEqual({ path, status: 400 });
      expect(mine.text).toBe("The request's Host header is not valid.");
      const anon = await api().get(path).set('Host', host);
      expect({ path, status: anon.status }).toEqual({ path, status: 400 });
    }
    const post = await agent.post('/login').type('form').set('Host', host).send({ phone: 'x', password: 'y' });
    expect(post.status).toBe(400);
    expectJsonError(await agent.get('/bff/api/v1/me/').set('Host', host), 400, BAD_HOST);
    expectJsonError(await api().get('/api/v1/published-lotteries/').set('Host', host), 400, BAD_HOST);
    expectJsonError(await api().get('/api/v1/published-lotteries/').set('Host', host).set('Accept-Language', 'bn'), 400, {
      detail: 'অনুরোধের Host হেডারটি সঠিক নয়।',
      code: 'bad_host',
    });
  });

  test('a well-formed Host, with or without a port, an IPv4 or IPv6 address, is served as before', async () => {
    for (const host of ['localhost', 'bhagya.example:8080', '127.0.0.1:3000', '[::1]:3000', 'bhagya.example:']) {
      expect({ host, status: (await api().get('/login').set('Host', host)).status }).toEqual({ host, status: 200 });
      expect({ host, status: (await api().get('/api/v1/published-lotteries/').set('Host', host)).status }).toEqual({ host, status: 200 });
    }
  });
});
