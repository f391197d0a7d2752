/**
 * A page's call of a contract endpoint runs the endpoint's function in this process (server/api.ts;
 * docs/decisions/027-one-in-process-path.md). It must answer exactly as the request made the HTTP way does: the same
 * access checks, input and answer schemas, error mapping and rights read from the database.
 */
import request from 'supertest';
import { api as contract } from '../../shared/api/contract.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { prepare } from '../../shared/api-client.ts';
import type { i18n as I18n } from 'i18next';
import { createI18n, loadResources } from '../../server/i18n.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let texts: I18n;
const i18n = (lang: string) => texts.getFixedT(lang);
beforeAll(async () => {
  t = await startTestApp();
  texts = await createI18n(loadResources());
});
afterAll(() => t.close());

async function tokenOf(u: { phone: string; password: string }): Promise<string> {
  const r = await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password }).expect(200);
  return r.body.access as string;
}

/**
 * The same call both ways: handed to the endpoint's function in this process, and as an HTTP request to /api. Each
 * must answer `status` exactly (two equal 500s are no agreement), with the same body and total.
 */
async function both(e: Endpoint, input: Record<string, unknown>, token: string | null, status: number, lang = 'en') {
  const t0 = i18n(lang);
  const direct = await t.app.upstream.endpoint(e, input, { token, t: t0, lng: lang, ip: '203.0.113.7' });
  const p = prepare(e, input as never);
  let r = request(t.url)[e.method.toLowerCase() as 'get'](p.url).set('Accept-Language', lang).set('X-Forwarded-For', '203.0.113.7');
  if (token) r = r.set('Authorization', `Bearer ${token}`);
  const http = await (p.json === undefined ? r : r.set('Content-Type', 'application/json').send(p.json));
  const total = http.headers['x-total-count'];
  const view = { status: direct.status, body: direct.data, total: direct.total };
  expect({ direct: view.status, http: http.status }).toEqual({ direct: status, http: status });
  expect(view).toEqual({
    status: http.status,
    body: http.text ? JSON.parse(http.text) : null,
    total: total === undefined ? null : Number(total),
  });
  return view;
}

describe('a contract endpoint called directly answers as over HTTP', () => {
  test('the caller, his own profile, another user’s (403), a missing one (403 to a player, 404 to staff) and an id that is no id (404)', async () => {
    const u = await createUser(t, { name: 'Direct Player' });
    const other = await createUser(t);
    const staff = await createUser(t, { is_staff: true });
    const token = await tokenOf(u);
    expect((await both(contract.me, {}, token, 200)).body).toMatchObject({ user_id: u.id, name: 'Direct Player' });
    await both(contract.getUser, { params: { id: u.id } }, token, 200);
    await both(contract.getUser, { params: { id: other.id } }, token, 403);
    // A player learns nothing of another id, whether it exists or not; staff are told it does not.
    expect((await both(contract.getUser, { params: { id: 999999 } }, token, 403, 'bn')).body).toMatchObject({ code: 'permission_denied' });
    expect((await both(contract.getUser, { params: { id: 999999 } }, await tokenOf(staff), 404, 'bn')).body).toMatchObject({
      code: 'not_found',
    });
    await both(contract.getUser, { params: { id: 'abc' } }, token, 404);
  });

  test('no token, a forged token, and a user deactivated since his token was issued', async () => {
    await both(contract.me, {}, null, 401);
    expect((await both(contract.me, {}, 'not-a-token', 401)).body).toMatchObject({ code: 'token_not_valid' });
    const u = await createUser(t);
    const token = await tokenOf(u);
    await t.db.query('UPDATE users SET is_active = false WHERE id = $1', [u.id]);
    await both(contract.me, {}, token, 401);
    expect((await both(contract.contact, { body: { name: 'A', email: 'a@b.co', message: 'hi' } }, token, 401)).body).toMatchObject({
      code: 'account_disabled',
    });
  });

  test('a JSON body with field errors in the caller’s language, a good one, and a paged list with its total', async () => {
    const bad = await both(contract.contact, { body: { name: '', email: 'nope', message: 'x' } }, null, 400, 'bn');
    expect(Object.keys(bad.body as object)).toEqual(expect.arrayContaining(['name', 'email']));
    await both(contract.contact, { body: { name: 'A', email: 'a@b.co', message: 'hello' } }, null, 201);
    const list = await both(contract.publishedLotteries, { query: { limit: 2, offset: 0 } }, null, 200);
    expect(list.total).not.toBeNull();
  });
});
