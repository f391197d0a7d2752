/**
 * The BFF (docs/rules/security.md#4-csrf, docs/rules/accounts-and-codes.md#10-sessions): tokens live only in a signed HttpOnly cookie, every unsafe request is CSRF-checked
 * (origin + token), an expired access token is refreshed transparently, logout revokes, and a slow API gives a
 * clear 504 instead of a hang.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { insertLottery, purchase } from './purchase-fixtures.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { call, to, viaBff } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

type Agent = ReturnType<typeof request.agent>;
type Res = request.Response;

const CSRF_FAILED = { detail: 'This form has expired. Please reload the page and try again.', code: 'csrf_failed' };

/** The BFF's path for an API endpoint: it proxies /bff + the API's path (the /bff/session routes are its own, not the API's). */

const setCookies = (res: Res): string[] => ([] as string[]).concat(res.headers['set-cookie'] ?? []);
const cookieNamed = (res: Res, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`));

/** The tokens inside a bh_session Set-Cookie (value `s:<json>.<signature>`, URL-encoded). */
function tokensIn(cookie: string): { a: string; r: string } {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';')));
  expect(value.startsWith('s:')).toBe(true);
  return JSON.parse(value.slice(2, value.lastIndexOf('.')));
}

/** A browser: GET /bff/session for the visitor and CSRF cookies; returns the agent and its token. */
async function browser(url: string): Promise<{ agent: Agent; csrf: string; res: Res }> {
  const agent = request.agent(url);
  const res = await agent.get('/bff/session');
  expect(res.status).toBe(200);
  expect(typeof res.body.csrf).toBe('string');
  return { agent, csrf: res.body.csrf as string, res };
}

async function bffLogin(url: string, phone: string, password: string) {
  const b = await browser(url);
  const res = await b.agent.post('/bff/session').set('x-csrf-token', b.csrf).set('Sec-Fetch-Site', 'same-origin').send({ phone, password });
  expect(res.status).toBe(200);
  const cookie = cookieNamed(res, 'bh_session');
  expect(cookie).toBeDefined();
  return { ...b, login: res, cookie: cookie as string };
}

describe('BFF on the in-process API', () => {
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

  const newPhone = uniquePhone;

  test('GET /bff/session: no user, a CSRF token, and HttpOnly visitor and CSRF cookies', async () => {
    const { res } = await browser(t.url);
    expect(res.body).toEqual({ user: null, csrf: expect.any(String) });
    expect(res.body.csrf.length).toBeGreaterThan(20);
    expect(res.headers['cache-control']).toBe('no-store');
    const vid = cookieNamed(res, 'bh_vid');
    const csrf = cookieNamed(res, 'bh_csrf');
    expect(vid).toMatch(/^bh_vid=s%3A/); // signed
    for (const c of [vid, csrf]) {
      expect(c).toMatch(/; HttpOnly/);
      expect(c).toMatch(/; SameSite=Lax/);
      expect(c).toMatch(/; Path=\//);
    }
    expect(cookieNamed(res, 'bh_session')).toBeUndefined();
  });

  test('POST /bff/session/renew: a new token with the name as the database has it now; CSRF-checked; no session, no user', async () => {
    const phone = newPhone();
    const u = await createUser(t, { name: 'Old Name', phone });
    const b = await bffLogin(t.url, u.phone, u.password);
    await t.db.query(`UPDATE users SET name = 'New Name' WHERE id = $1`, [u.id]);
    expect((await b.agent.get('/bff/session')).body.user.name).toBe('Old Name');
    expect((await b.agent.post('/bff/session/renew')).status).toBe(403);
    const renewed = await b.agent.post('/bff/session/renew').set('x-csrf-token', b.csrf);
    expect(renewed.status).toBe(200);
    expect(renewed.body.user).toMatchObject({ user_id: u.id, name: 'New Name', phone });
    expect(cookieNamed(renewed, 'bh_session')).toBeDefined();
    expect((await b.agent.get('/bff/session')).body.user.name).toBe('New Name');
    const anon = await browser(t.url);
    const none = await anon.agent.post('/bff/session/renew').set('x-csrf-token', anon.csrf);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ user: null });
  });

  test('POST /bff/session without the x-csrf-token header: 403, no session', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent } = await browser(t.url);
    const res = await agent.post('/bff/session').send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CSRF_FAILED);
    expect(cookieNamed(res, 'bh_session')).toBeUndefined();
    expect((await agent.get('/bff/session')).body.user).toBeNull();
  });

  test('POST /bff/session from another site: 403 even with a valid token', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent, csrf } = await browser(t.url);
    for (const [header, value] of [
      ['Sec-Fetch-Site', 'cross-site'],
      ['Sec-Fetch-Site', 'same-site'],
      ['Origin', 'https://evil.example'],
    ] as const) {
      const res = await agent
        .post('/bff/session')
        .set('x-csrf-token', csrf)
        .set(header, value)
        .send({ phone: u.phone, password: u.password });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(CSRF_FAILED);
      expect(cookieNamed(res, 'bh_session')).toBeUndefined();
    }
  });

  test("a token without the cookies it belongs to, or another browser's token: 403", async () => {
    const u = await createUser(t, { phone: newPhone() });
    const a = await browser(t.url);
    const b = await browser(t.url);
    const noCookies = await request(t.url).post('/bff/session').set('x-csrf-token', a.csrf).send({ phone: u.phone, password: u.password });
    expect(noCookies.status).toBe(403);
    const crossed = await b.agent.post('/bff/session').set('x-csrf-token', a.csrf).send({ phone: u.phone, password: u.password });
    expect(crossed.status).toBe(403);
    expect(crossed.body).toEqual(CSRF_FAILED);
    const forged = await a.agent
      .post('/bff/session')
      .set('x-csrf-token', `${a.csrf.slice(0, -2)}xx`)
      .send({ phone: u.phone, password: u.password });
    expect(forged.status).toBe(403);
  });

  test('login with the token and cookies: the user, and an HttpOnly signed bh_session cookie; the body holds no token', async () => {
    const u = await createUser(t, { phone: newPhone(), name: 'Cookie Monster' });
    const { login, cookie } = await bffLogin(t.url, u.phone, u.password);
    expect(login.body).toEqual({ user: { user_id: u.id, name: 'Cookie Monster', phone: u.phone, is_staff: false } });
    expect(cookie).toMatch(/^bh_session=s%3A/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/); // not production
    const { a, r } = tokensIn(cookie);
    expect(decodeJwt(a)).toMatchObject({ user_id: u.id, token_type: 'access' });
    expect(decodeJwt(r)).toMatchObject({ user_id: u.id, token_type: 'refresh' });
    expect(login.text).not.toContain(a);
    expect(login.text).not.toContain(r);
    expect(login.text).not.toMatch(/access|refresh/);
  });

  test('a login whose Origin is the app itself (no Sec-Fetch-Site, older browsers) works with the token', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent, csrf } = await browser(t.url);
    const res = await agent
      .post('/bff/session')
      .set('x-csrf-token', csrf)
      .set('Origin', t.url)
      .send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(200);
    expect(res.body.user.user_id).toBe(u.id);
  });

  test('the proxy passes an Idempotency-Key on to the API: a purchase sent twice with one key is one transaction', async () => {
    const u = await createUser(t, { phone: newPhone(), name: 'Twice Sent' });
    const { agent, csrf } = await bffLogin(t.url, u.phone, u.password);
    const lottery = await insertLottery(t, { price: 100 });
    const send = () =>
      agent
        .post(viaBff(api.createTransaction))
        .set('x-csrf-token', csrf)
        .set('Sec-Fetch-Site', 'same-origin')
        .set('Idempotency-Key', 'bff-key-1')
        .send(purchase(lottery, '01-02-03-04-05-06'));
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await t.db.query('SELECT id FROM transactions WHERE lottery_id = $1', [lottery])).toHaveLength(1);
    // the other tests of this file expect no lotteries
    await t.db.query('DELETE FROM transactions WHERE lottery_id = $1', [lottery]);
    await t.db.query('DELETE FROM lotteries WHERE id = $1', [lottery]);
  });

  test('GET /bff/session and the proxied API then work with the cookie only', async () => {
    const u = await createUser(t, { phone: newPhone(), name: 'Only Cookie' });
    const { agent } = await bffLogin(t.url, u.phone, u.password);
    const session = await agent.get('/bff/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({
      user: { user_id: u.id, name: 'Only Cookie', phone: u.phone, is_staff: false },
      csrf: expect.any(String),
    });
    const me = await agent.get(viaBff(api.getUser, { id: u.id }));
    expect(me.status).toBe(200);
    expect(me.headers['content-type']).toMatch(/^application\/json/);
    expect(me.body).toMatchObject({ id: u.id, name: 'Only Cookie', phone: u.phone });
    // The API's own rules still apply behind the BFF.
    const other = await createUser(t, { phone: newPhone() });
    const denied = await agent.get(viaBff(api.getUser, { id: other.id }));
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('permission_denied');
    // Without the cookie, the same call is anonymous.
    const anon = await request(t.url).get(viaBff(api.getUser, { id: u.id }));
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('not_authenticated');
  });

  test('wrong password through the BFF: 401 Invalid credentials, in the browser language, no cookie', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent, csrf } = await browser(t.url);
    const res = await agent.post('/bff/session').set('x-csrf-token', csrf).send({ phone: u.phone, password: 'not-it-at-all' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid credentials', code: 'no_active_account' });
    expect(cookieNamed(res, 'bh_session')).toBeUndefined();
    const bn = await agent
      .post('/bff/session')
      .set('x-csrf-token', csrf)
      .set('Accept-Language', 'bn')
      .send({ phone: u.phone, password: 'not-it-at-all' });
    expect(bn.status).toBe(401);
    expect(bn.body).toEqual({ detail: 'ভুল লগইন তথ্য', code: 'no_active_account' });
  });

  test('a never-verified account through the BFF: 401 account_not_active with the identifier', async () => {
    const phone = newPhone();
    expect((await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'Not Yet', phone, password: 'pending-pass-1' })).status).toBe(
      201,
    );
    const { agent, csrf } = await browser(t.url);
    const res = await agent.post('/bff/session').set('x-csrf-token', csrf).send({ phone, password: 'pending-pass-1' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'User is not active, please verify OTP', code: 'account_not_active', identifier: phone });
    expect(cookieNamed(res, 'bh_session')).toBeUndefined();
  });

  test('the sign-up code through the BFF signs in: the cookie holds the session, the page gets the user, never a token', async () => {
    const phone = newPhone();
    expect(
      (await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'New Player', phone, password: 'pending-pass-1' })).status,
    ).toBe(201);
    const { agent, csrf } = await browser(t.url);
    const code = await t.lastCode(phone, 'account');
    const noToken = await agent.post('/bff/session/verify').send({ identifier: phone, otp: code });
    expect(noToken.status).toBe(403);
    expect(noToken.body).toEqual(CSRF_FAILED);
    const wrong = await agent
      .post('/bff/session/verify')
      .set('x-csrf-token', csrf)
      .set('Accept-Language', 'bn')
      .send({ identifier: phone, otp: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ otp: ['কোডটি সঠিক নয়। দেখে নিয়ে আবার চেষ্টা করুন।'], code: 'otp_wrong' });
    expect(cookieNamed(wrong, 'bh_session')).toBeUndefined();
    const bad = await agent.post('/bff/session/verify').set('x-csrf-token', csrf).send({ identifier: phone, otp: '12345', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ otp: ['Please enter the 6-digit code.'], extra: ['Unknown field.'] });
    const ok = await agent.post('/bff/session/verify').set('x-csrf-token', csrf).send({ identifier: phone, otp: code });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ user: { user_id: expect.any(Number), name: 'New Player', phone, is_staff: false } });
    expect(JSON.stringify(ok.body)).not.toMatch(/access|refresh/);
    expect(cookieNamed(ok, 'bh_session')).toMatch(/HttpOnly/);
    const session = await agent.get('/bff/session');
    expect(session.body.user).toMatchObject({ name: 'New Player', phone });
  });

  test('bad login bodies: 400 field errors or malformed JSON, never 500', async () => {
    const { agent, csrf } = await browser(t.url);
    const missing = await agent.post('/bff/session').set('x-csrf-token', csrf).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ phone: ['This field is required.'], password: ['This field is required.'] });
    const typed = await agent.post('/bff/session').set('x-csrf-token', csrf).send({ phone: 1711111111, password: 'x', extra: 1 });
    expect(typed.status).toBe(400);
    expect(typed.body).toEqual({ phone: ['Expected a string.'], extra: ['Unknown field.'] });
    const malformed = await agent.post('/bff/session').set('x-csrf-token', csrf).set('Content-Type', 'application/json').send('{"phone":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ detail: 'Malformed JSON in the request body.', code: 'parse_error' });
  });

  test('the proxy forwards unsafe calls only with the CSRF token, with body, status and headers', async () => {
    const { agent, csrf } = await browser(t.url);
    const body = { identifier: newPhone(), otp: '123' };
    const refused = await agent.post(viaBff(api.verifyAccount)).send(body);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(CSRF_FAILED);
    const forwarded = await agent.post(viaBff(api.verifyAccount)).set('x-csrf-token', csrf).set('Accept-Language', 'bn').send(body);
    expect(forwarded.status).toBe(400);
    expect(forwarded.body).toEqual({ otp: ['অনুগ্রহ করে ৬ অঙ্কের কোডটি দিন।'] });
    const list = await agent.get(viaBff(api.publishedLotteries, {}, { limit: 5 }));
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('0');
    expect(list.body).toEqual([]);
    const missing = await agent.get('/bff/api/v1/no-such-thing/');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  test('the proxy does not leave /api: dot-dot segments are 404 and never reach another path with the token', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent } = await bffLogin(t.url, u.phone, u.password);
    for (const path of ['/bff/api/%2e%2e/healthz', '/bff/api/v1/%2e%2e/%2e%2e/readyz', '/bff/api/%2E%2E/bff/session']) {
      const res = await agent.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });

  test('a picture uploaded through the BFF belongs to the session user', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent, csrf } = await bffLogin(t.url, u.phone, u.password);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const res = await agent.post(viaBff(api.uploadImage)).set('x-csrf-token', csrf).set('Content-Type', 'image/png').send(png);
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    // Stored re-encoded (docs/rules/security.md#8-uploads): its size is that of the bytes served back.
    const row = await t.db.one<{ owner_id: number; size: number }>('SELECT owner_id, size FROM uploads WHERE id = $1', [res.body.data.id]);
    expect(row?.owner_id).toBe(u.id);
    const back = await agent.get(res.body.data.url.replace(/^\/api/, '/bff/api')).buffer(true);
    expect(back.status).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(Number(back.headers['content-length'])).toBe(row?.size);
  });

  test('a forged or tampered session cookie is no session', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { cookie } = await bffLogin(t.url, u.phone, u.password);
    const { a, r } = tokensIn(cookie);
    const unsigned = `bh_session=${encodeURIComponent(JSON.stringify({ a, r }))}`;
    const badSignature = `bh_session=${encodeURIComponent(`s:${JSON.stringify({ a, r })}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)}`;
    for (const c of [unsigned, badSignature, 'bh_session=garbage']) {
      const res = await request(t.url).get('/bff/session').set('Cookie', c);
      expect(res.status).toBe(200);
      expect(res.body.user).toBeNull();
      const me = await request(t.url)
        .get(viaBff(api.getUser, { id: u.id }))
        .set('Cookie', c);
      expect(me.status).toBe(401);
    }
  });

  test('POST /bff/logout needs the token; then it revokes the refresh token and the session is gone', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { agent, csrf, cookie } = await bffLogin(t.url, u.phone, u.password);
    const { r } = tokensIn(cookie);

    const refused = await agent.post('/bff/logout');
    expect(refused.status).toBe(403);
    expect((await agent.get('/bff/session')).body.user).toMatchObject({ user_id: u.id });

    const res = await agent.post('/bff/logout').set('x-csrf-token', csrf);
    expect(res.status).toBe(204);
    expect(cookieNamed(res, 'bh_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    const row = await t.db.one<{ revoked_at: string | null }>('SELECT revoked_at FROM refresh_tokens WHERE jti = $1', [decodeJwt(r).jti]);
    expect(row?.revoked_at).not.toBeNull();
    expect((await call(t, api.refresh, { body: { refresh: r } })).status).toBe(401);

    const after = await agent.get('/bff/session');
    expect(after.body.user).toBeNull();
    expect((await agent.get(viaBff(api.getUser, { id: u.id }))).status).toBe(401);
  });
});

describe('BFF with a 1-second access token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ACCESS_TOKEN_TTL: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  test('an expired access token in the cookie is refreshed transparently and the cookie rewritten', async () => {
    const u = await createUser(t, { phone: '01522000001', name: 'Long Session' });
    const { agent, cookie } = await bffLogin(t.url, u.phone, u.password);
    const { a: oldAccess, r } = tokensIn(cookie);
    await new Promise((done) => setTimeout(done, 1500));

    // The API itself no longer takes the old access token...
    const direct = await to(t, api.getUser, { params: { id: u.id } }).set('Authorization', `Bearer ${oldAccess}`);
    expect(direct.status).toBe(401);
    expect(direct.body.code).toBe('token_not_valid');
    // ...but the browser does not notice: the BFF refreshes it.
    const me = await agent.get(viaBff(api.getUser, { id: u.id }));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: u.id, name: 'Long Session' });
    const rewritten = cookieNamed(me, 'bh_session');
    expect(rewritten).toBeDefined();
    const fresh = tokensIn(rewritten as string);
    expect(fresh.a).not.toBe(oldAccess);
    expect(fresh.r).toBe(r);
    expect(decodeJwt(fresh.a)).toMatchObject({ user_id: u.id, name: 'Long Session' });
    expect(me.text).not.toContain(fresh.a);
  });

  test('after logout, replaying the old cookie gives no session: its refresh token is revoked', async () => {
    const u = await createUser(t, { phone: '01522000002' });
    const { agent, csrf, cookie } = await bffLogin(t.url, u.phone, u.password);
    const stolen = cookie.slice(0, cookie.indexOf(';'));
    expect((await agent.post('/bff/logout').set('x-csrf-token', csrf)).status).toBe(204);
    await new Promise((done) => setTimeout(done, 1500));
    const res = await request(t.url).get('/bff/session').set('Cookie', stolen);
    expect(res.status).toBe(200);
    expect(res.body.user).toBeNull();
    expect(cookieNamed(res, 'bh_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(
      (
        await request(t.url)
          .get(viaBff(api.getUser, { id: u.id }))
          .set('Cookie', stolen)
      ).status,
    ).toBe(401);
  });
});

describe('BFF with an upstream API that never answers', () => {
  let t: TestApp;
  let silent: Server;
  let hits = 0;
  beforeAll(async () => {
    silent = createServer(() => {
      hits++; /* never answers */
    });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const port = (silent.address() as AddressInfo).port;
    t = await startTestApp({ API_BASE_URL: `http://127.0.0.1:${port}`, UPSTREAM_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await t.close();
    silent.closeAllConnections();
    await new Promise((done) => silent.close(done));
  });

  const TIMEOUT = { detail: 'The server took too long to answer. Please check your connection and try again.', code: 'timeout' };

  test('a proxied call: 504 with a clear message after the timeout, not a hang', async () => {
    const before = hits;
    const started = Date.now();
    const res = await request(t.url).get(viaBff(api.publishedLotteries));
    const took = Date.now() - started;
    expect(res.status).toBe(504);
    expect(res.body).toEqual(TIMEOUT);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(5000);
    expect(hits).toBe(before + 1); // it did go to the configured API
    const bn = await request(t.url).get(viaBff(api.publishedLotteries)).set('Accept-Language', 'bn');
    expect(bn.status).toBe(504);
    expect(bn.body).toEqual({ detail: 'সার্ভার উত্তর দিতে অনেক সময় নিচ্ছে। আপনার সংযোগ দেখে আবার চেষ্টা করুন।', code: 'timeout' });
  });

  test('a login: 504 too, and no session cookie', async () => {
    const { agent, csrf } = await browser(t.url);
    const started = Date.now();
    const res = await agent.post('/bff/session').set('x-csrf-token', csrf).send({ phone: '01533000001', password: 'whatever-1' });
    expect(res.status).toBe(504);
    expect(res.body).toEqual(TIMEOUT);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(cookieNamed(res, 'bh_session')).toBeUndefined();
  });

  test('the API is not mounted in this process when API_BASE_URL points elsewhere', async () => {
    const before = hits;
    const res = await to(t, api.publishedLotteries);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(hits).toBe(before);
  });
});
