/**
 * Sessions end at once (docs/rules/accounts-and-codes.md#10-sessions, docs/decisions/024-sessions-end-at-once.md):
 * logout ends that session, its access token with it; a password reset or change, a deactivation and "log out
 * everywhere" end every session of the account; the bearer check asks the database on every request, reads too, so
 * every instance on the database refuses an ended session at once. Other sessions, and other users', go on.
 * On PGlite and, in CI's jest-pg step, on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import request from 'supertest';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { csrfFrom, loginCookie, sessionSetCookie, tokensInCookie } from '../helpers/session.ts';
import { buy, insertLottery, purchase } from './purchase-fixtures.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { to, viaBff } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const newUser = (o: { is_staff?: boolean } = {}) => createUser(t, { phone: uniquePhone(), ...o });
/** A request for a page or the BFF, as a browser asks it. */
const site = () => request(t.url);
const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

async function apiLogin(u: { phone: string; password: string }): Promise<{ access: string; refresh: string }> {
  const r = await to(t, api.login).send({ phone: u.phone, password: u.password }).expect(200);
  return r.body as { access: string; refresh: string };
}

/** What a session cookie opens: the profile page, the BFF's me, and its access token on the API itself. */
async function opens(cookie: string) {
  const page = await site().get('/profile').set('Cookie', cookie).set('Accept-Language', 'en');
  const bff = await site().get(viaBff(api.me)).set('Cookie', cookie);
  const direct = await to(t, api.me).set(...bearer(tokensInCookie(cookie).access));
  return { page: page.status === 200 ? 'page' : page.headers.location, bff: bff.status, api: direct.status };
}
const OPEN = { page: 'page', bff: 200, api: 200 };
const ENDED = { page: '/login?from=%2Fprofile', bff: 401, api: 401 };

const contact = (token: string) =>
  to(t, api.contact)
    .set(...bearer(token))
    .send({ name: 'A', email: 'a@b.co', message: 'hello' });
const me = (token: string) => to(t, api.me).set(...bearer(token));

/** POST /logout as the page's form does (CSRF token from the page). */
async function logout(cookie: string) {
  const page = await site().get('/profile').set('Cookie', cookie).expect(200);
  const r = await site()
    .post('/logout')
    .set('Cookie', cookie)
    .type('form')
    .send({ _csrf: csrfFrom(page.text) });
  expect(r.status).toBe(303);
  expect(r.headers.location).toBe('/login?notice=loggedOut');
}

describe('logout', () => {
  test('the saved session cookie opens nothing after it: the page goes to login, /bff and /api answer 401', async () => {
    const u = await newUser();
    const cookie = await loginCookie(t.url, u.phone, u.password);
    expect(await opens(cookie)).toEqual(OPEN);
    await logout(cookie);
    expect(await opens(cookie)).toEqual(ENDED);
    const refused = await me(tokensInCookie(cookie).access);
    expect(refused.body).toEqual({ detail: 'Your session has expired, please sign in again!', code: 'token_not_valid' });
    // Its refresh token is revoked too: no new access token from it.
    expect((await to(t, api.refresh).send({ refresh: tokensInCookie(cookie).refresh })).status).toBe(401);
  });

  test('a page asked with the ended cookie drops it; a public page and a public list still answer, as to a visitor', async () => {
    const u = await newUser();
    const cookie = await loginCookie(t.url, u.phone, u.password);
    await logout(cookie);
    const profile = await site().get('/profile').set('Cookie', cookie);
    expect(sessionSetCookie(profile)).toMatch(/^bh_session=;/);
    const home = await site().get('/').set('Cookie', cookie);
    expect(home.status).toBe(200);
    expect(sessionSetCookie(home)).toMatch(/^bh_session=;/);
    const list = await site().get(viaBff(api.publishedLotteries)).set('Cookie', cookie);
    expect(list.status).toBe(200);
    expect(sessionSetCookie(list)).toMatch(/^bh_session=;/);
    // An unsafe call is not made again: refused, and the cookie goes.
    const tokenPage = await site().get('/contact').set('Cookie', cookie);
    const post = await site()
      .post(viaBff(api.logoutEverywhere))
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrfFrom(tokenPage.text))
      .set('Sec-Fetch-Site', 'same-origin');
    expect(post.status).toBe(401);
  });

  test("one session's logout leaves the same player's other session working", async () => {
    const u = await newUser();
    const phone = await loginCookie(t.url, u.phone, u.password);
    const laptop = await loginCookie(t.url, u.phone, u.password);
    await logout(phone);
    expect(await opens(phone)).toEqual(ENDED);
    expect(await opens(laptop)).toEqual(OPEN);
    expect((await contact(tokensInCookie(laptop).access)).status).toBe(201);
  });

  test('an access token of a logged-out session is refused on the API at once, GET and POST alike', async () => {
    const u = await newUser();
    const s = await apiLogin(u);
    expect((await me(s.access)).status).toBe(200);
    await to(t, api.logout).send({ refresh: s.refresh }).expect(204);
    expect((await me(s.access)).status).toBe(401);
    expect((await contact(s.access)).status).toBe(401);
  });
});

describe('a password reset', () => {
  test('ends every session: the old access token buys nothing (401), the old refresh token refreshes nothing', async () => {
    const u = await newUser();
    const s = await apiLogin(u);
    const browser = await loginCookie(t.url, u.phone, u.password);
    const lottery = await insertLottery(t);
    const player = { id: u.id, phone: u.phone, token: s.access, auth: bearer(s.access) };
    expect((await buy(t, player, purchase(lottery, '01-02-03-04-05-06'))).status).toBe(201);

    await to(t, api.forgotPassword).send({ identifier: u.phone }).expect(200);
    const otp = await t.lastCode(u.phone, 'reset');
    await to(t, api.resetPassword)
      .send({ identifier: u.phone, otp, new_password: 'a-new-password-2', confirm_password: 'a-new-password-2' })
      .expect(200);

    const after = await buy(t, player, purchase(lottery, '01-02-03-04-05-07'));
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('token_not_valid');
    expect((await t.db.query('SELECT id FROM transactions WHERE user_id = $1', [u.id])).length).toBe(1);
    expect((await to(t, api.refresh).send({ refresh: s.refresh })).status).toBe(401);
    expect(await opens(browser)).toEqual(ENDED);
    // The new password opens a new session.
    expect((await me((await apiLogin({ phone: u.phone, password: 'a-new-password-2' })).access)).status).toBe(200);
  });

  test('a login whose password was checked before the reset, and recorded after it, is dead on arrival', async () => {
    const u = await newUser();
    const before = await t.db.one<{ session_version: number }>('SELECT session_version FROM users WHERE id = $1', [u.id]);
    const s = await apiLogin(u);
    // As if the reset had come between the password check and the insert: the session carries the older version.
    await t.db.query('UPDATE users SET session_version = session_version + 1 WHERE id = $1', [u.id]);
    expect(before?.session_version).toBe(0);
    expect((await me(s.access)).status).toBe(401);
    expect((await to(t, api.refresh).send({ refresh: s.refresh })).status).toBe(401);
  });
});

describe('a deactivation by staff', () => {
  test("ends the player's sessions at once, on reads too; reactivated, they stay ended", async () => {
    const staff = await newUser({ is_staff: true });
    const staffToken = (await apiLogin(staff)).access;
    const u = await newUser();
    const s = await apiLogin(u);
    const browser = await loginCookie(t.url, u.phone, u.password);
    expect((await to(t, api.myTransactions).set(...bearer(s.access))).status).toBe(200);
    const set = (is_active: boolean) =>
      to(t, api.updateUser, { params: { id: u.id } })
        .set(...bearer(staffToken))
        .send({ is_active });
    expect((await set(false)).status).toBe(200);
    const read = await to(t, api.myTransactions).set(...bearer(s.access));
    expect(read.status).toBe(401);
    expect((await me(s.access)).status).toBe(401);
    expect(await opens(browser)).toEqual(ENDED);
    expect((await set(true)).status).toBe(200);
    expect((await me(s.access)).status).toBe(401);
    expect((await to(t, api.refresh).send({ refresh: s.refresh })).status).toBe(401);
  });
});

describe('log out everywhere', () => {
  test('POST /api/v1/logout-everywhere/: 204, every session of the account ends (this one too), GET and POST alike', async () => {
    const u = await newUser();
    const a = await apiLogin(u);
    const b = await apiLogin(u);
    const browser = await loginCookie(t.url, u.phone, u.password);
    const other = await newUser();
    const o = await apiLogin(other);
    const otherBrowser = await loginCookie(t.url, other.phone, other.password);

    const r = await to(t, api.logoutEverywhere).set(...bearer(b.access));
    expect(r.status).toBe(204);
    for (const token of [a.access, b.access]) {
      expect((await me(token)).status).toBe(401);
      expect((await contact(token)).status).toBe(401);
    }
    for (const refresh of [a.refresh, b.refresh]) expect((await to(t, api.refresh).send({ refresh })).status).toBe(401);
    expect(await opens(browser)).toEqual(ENDED);
    // Another player's sessions go on.
    expect((await me(o.access)).status).toBe(200);
    expect((await contact(o.access)).status).toBe(201);
    expect(await opens(otherBrowser)).toEqual(OPEN);
    // He logs in again as before.
    expect((await me((await apiLogin(u)).access)).status).toBe(200);
  });

  test('is for a logged-in caller: anonymous 401, an ended session 401', async () => {
    const anonymous = await to(t, api.logoutEverywhere);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_authenticated');
    const u = await newUser();
    const s = await apiLogin(u);
    await to(t, api.logout).send({ refresh: s.refresh }).expect(204);
    expect((await to(t, api.logoutEverywhere).set(...bearer(s.access))).status).toBe(401);
  });

  test.each(['en', 'bn'] as const)(
    'the profile page (%s): a plain form asks first, then ends every session, this browser goes to login with a notice',
    async (lng) => {
      const u = await newUser();
      const here = await loginCookie(t.url, u.phone, u.password);
      const elsewhere = await loginCookie(t.url, u.phone, u.password);
      const texts =
        lng === 'en'
          ? { button: 'Log out everywhere', yes: 'Yes, log out everywhere' }
          : { button: 'সব জায়গা থেকে লগআউট', yes: 'হ্যাঁ, সব জায়গা থেকে লগআউট করুন' };
      const cookie = `${here}; lang=${lng}`;
      const page = await site().get('/profile').set('Cookie', cookie).expect(200);
      expect(page.text).toContain(texts.button);
      expect(page.text).toMatch(
        /<form[^>]*action="\/profile" method="post"><input type="hidden" name="_csrf"[^>]*\/><button type="submit" value="logout-everywhere"[^>]*name="intent"/,
      );
      const csrf = csrfFrom(page.text);

      // Without the CSRF token: refused, nothing ends.
      expect(
        (await site().post('/profile').set('Cookie', cookie).type('form').send({ intent: 'logout-everywhere-confirmed' })).status,
      ).toBe(403);
      expect(await opens(elsewhere)).toEqual(OPEN);

      const ask = await site().post('/profile').set('Cookie', cookie).type('form').send({ _csrf: csrf, intent: 'logout-everywhere' });
      expect(ask.status).toBe(200);
      expect(ask.text).toContain(texts.yes);
      expect(ask.text).toMatch(/<button type="submit" value="logout-everywhere-confirmed"[^>]*name="intent"/);
      expect(await opens(elsewhere)).toEqual(OPEN); // asking ends nothing

      const done = await site()
        .post('/profile')
        .set('Cookie', cookie)
        .type('form')
        .send({ _csrf: csrf, intent: 'logout-everywhere-confirmed' });
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe('/login?notice=loggedOutEverywhere');
      expect(sessionSetCookie(done)).toMatch(/^bh_session=;/);
      expect(await opens(elsewhere)).toEqual(ENDED);
      expect(await opens(here)).toEqual(ENDED);

      const login = await site().get('/login?notice=loggedOutEverywhere').set('Cookie', `lang=${lng}`).expect(200);
      expect(login.text).toContain(
        lng === 'en' ? 'You have been logged out on every phone and computer.' : 'আপনি প্রতিটি ফোন ও কম্পিউটার থেকে লগআউট করেছেন।',
      );
    },
  );
});

test('a token from before sessions could end (no sid) is refused: its holder logs in again', async () => {
  const u = await newUser();
  const key = new TextEncoder().encode(`jwt:${'test-secret-'.padEnd(48, 'x')}`);
  const old = await new SignJWT({ user_id: u.id, is_staff: false, is_active: true, name: 'x', phone: u.phone, token_type: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(key);
  const r = await me(old);
  expect(r.status).toBe(401);
  expect(r.body.code).toBe('token_not_valid');
});

describe('the check reads the database, not an instance', () => {
  test('two instances on one database: a session ended on one is refused by the other at once', async () => {
    const d = await testDatabase();
    const dirs: string[] = [];
    const apps: App[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-sessions-'));
        dirs.push(dir);
        const config = loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: dir,
          SECRET_KEY: 'sessions-test-'.padEnd(48, 'x'),
          LOG_LEVEL: 'silent',
          SEED_DEMO: 'false',
          PAGE_CACHE_TTL_MS: '10000',
        });
        apps.push(
          await createApp(config, { db: await d.open(), notifier: { sendCode: async () => undefined, send: async () => undefined } }),
        );
      }
      const [one, two] = apps as [App, App];
      const { hashPassword } = await import('../../server/accounts/passwords.ts');
      const row = await one.db.one<{ id: number }>(
        `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed) VALUES ('Two Places', '01930000001', $1, true, true) RETURNING id`,
        [await hashPassword('secret-pass-1')],
      );
      const login = await request(one.app).post(api.login.path).send({ phone: '01930000001', password: 'secret-pass-1' }).expect(200);
      const token = login.body.access as string;
      expect(decodeJwt(token)).toMatchObject({ user_id: row?.id, sid: decodeJwt(login.body.refresh as string).jti });
      // The second instance knows the token (same secret) and has checked it once (its signature is remembered).
      expect(
        (
          await request(two.app)
            .get(api.me.path)
            .set(...bearer(token))
        ).status,
      ).toBe(200);
      await request(one.app)
        .post(api.logoutEverywhere.path)
        .set(...bearer(token))
        .expect(204);
      expect(
        (
          await request(two.app)
            .get(api.me.path)
            .set(...bearer(token))
        ).status,
      ).toBe(401);
      expect(
        (
          await request(two.app)
            .post(api.contact.path)
            .set(...bearer(token))
            .send({ name: 'A', email: 'a@b.co', message: 'hello' })
        ).status,
      ).toBe(401);
    } finally {
      for (const app of apps) await app.close();
      await d.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the bearer check costs one query', () => {
  test('a logged-in GET and a POST each read the database once for the session and the rights', async () => {
    const u = await newUser();
    const s = await apiLogin(u);
    const { jest } = await import('@jest/globals');
    const spy = jest.spyOn(t.db, 'one');
    try {
      await me(s.access).expect(200);
      await contact(s.access).expect(201);
      const checks = spy.mock.calls.filter(([sql]) => sql.includes('AS live FROM users u'));
      expect(checks).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });
});
