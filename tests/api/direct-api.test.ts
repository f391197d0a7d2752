/**
 * A page's call of a contract endpoint goes straight to the endpoint's pipeline in process (server/api.ts, directApi;
 * docs/decisions/013-logged-in-pages.md). It must answer exactly as the request made the HTTP way does: the same
 * access checks, input and answer schemas, error mapping and rights read from the database.
 */
import request from 'supertest';
import { api as contract } from '../../shared/api/contract.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { prepare } from '../../shared/api-client.ts';
import { parseJson } from '../../server/bff/upstream.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function tokenOf(u: { phone: string; password: string }): Promise<string> {
  const r = await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password }).expect(200);
  return r.body.access as string;
}

/** The same call both ways: handed to the endpoint, and as an HTTP request to the in-process API (light-my-request). */
async function both(e: Endpoint, input: Record<string, unknown>, token: string | null, lang = 'en') {
  const p = prepare(e, input as never);
  const who = { token, lang, ip: '203.0.113.7' };
  const direct = await t.app.upstream.endpoint(e, p.url, p.json, who);
  const http = await t.app.upstream.call(e.method, p.url, {
    ...who,
    body: p.json,
    contentType: p.json === undefined ? undefined : 'application/json',
  });
  const view = (r: typeof direct) => ({ status: r.status, body: parseJson(r.body), total: r.headers['x-total-count'] ?? null });
  expect(view(direct)).toEqual(view(http));
  return view(direct);
}

describe('a contract endpoint called directly answers as over HTTP', () => {
  test('the caller, his own profile, another user’s (403), a missing one (404) and an id that is no id (404)', async () => {
    const u = await createUser(t, { name: 'Direct Player' });
    const other = await createUser(t);
    const token = await tokenOf(u);
    expect((await both(contract.me, {}, token)).body).toMatchObject({ user_id: u.id, name: 'Direct Player' });
    expect((await both(contract.getUser, { params: { id: u.id } }, token)).status).toBe(200);
    expect((await both(contract.getUser, { params: { id: other.id } }, token)).status).toBe(403);
    expect((await both(contract.getUser, { params: { id: 999999 } }, token, 'bn')).status).toBeGreaterThanOrEqual(403);
    expect((await both(contract.getUser, { params: { id: 'abc' } }, token)).status).toBe(404);
  });

  test('no token, a forged token, and a user deactivated since his token was issued', async () => {
    expect((await both(contract.me, {}, null)).status).toBe(401);
    expect((await both(contract.me, {}, 'not-a-token')).body).toMatchObject({ code: 'token_not_valid' });
    const u = await createUser(t);
    const token = await tokenOf(u);
    await t.db.query('UPDATE users SET is_active = false WHERE id = $1', [u.id]);
    expect((await both(contract.me, {}, token)).status).toBe(401);
    expect((await both(contract.contact, { body: { name: 'A', email: 'a@b.co', message: 'hi' } }, token)).body).toMatchObject({
      code: 'account_disabled',
    });
  });

  test('a JSON body with field errors in the caller’s language, a good one, and a paged list with its total', async () => {
    const bad = await both(contract.contact, { body: { name: '', email: 'nope', message: 'x' } }, null, 'bn');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object)).toEqual(expect.arrayContaining(['name', 'email']));
    expect((await both(contract.contact, { body: { name: 'A', email: 'a@b.co', message: 'hello' } }, null)).status).toBe(201);
    const list = await both(contract.publishedLotteries, { query: { limit: 2, offset: 0 } }, null);
    expect(list.status).toBe(200);
    expect(list.total).not.toBeNull();
  });
});
