/**
 * Logged-in pages are rendered for each request, from the database as it is now
 * (docs/decisions/029-no-kept-logged-in-pages.md): a repeat reads the database again, shows what a write changed at
 * once, never another session's page, carries its own nonce, and is never served to a session that has ended.
 */
import request from 'supertest';
import { jest } from '@jest/globals';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, loginCookie, setCookies, tokensInCookie } from '../helpers/session.ts';
import { pageAccount, uniquePhone } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PAGE_CACHE_TTL_MS: '10000' });
});
afterAll(() => t.close());

/** A page without its nonces (a page rendered per response, on PostgreSQL, has a fresh one each time). */
const sameBut = (html: string) => html.replace(/ nonce="[^"]*"/g, '');

/** How many statements the app runs on the database while `fn` runs. */
async function statements<T>(fn: () => Promise<T>): Promise<{ result: T; count: number }> {
  const spy = jest.spyOn(t.db, 'query');
  try {
    const result = await fn();
    return { result, count: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

test('a repeated /profile is the same page, read from the database again', async () => {
  const p = await pageAccount(t, { name: 'Rahim Uddin' });
  const first = await p.agent.get('/profile').expect(200);
  expect(first.text).toContain('Rahim Uddin');
  const again = await statements(() => p.agent.get('/profile').expect(200));
  expect(sameBut(again.result.text)).toBe(sameBut(first.text));
  expect(again.count).toBeGreaterThan(0);
});

test('a page asks the database once whether the session is live, however many reads it makes', async () => {
  const p = await pageAccount(t, { name: 'Karim Mia' });
  const spy = jest.spyOn(t.db, 'query');
  try {
    await p.agent.get('/my-lotteries').expect(200);
    const sqls = spy.mock.calls.map((c) => String(c[0]));
    expect(sqls.filter((q) => q.includes('FROM refresh_tokens s WHERE')).length).toBe(1);
    // The session's check reads the top bar in its statement (the reality check's session, interval and spending, and
    // the bell's count: server/bff/server-api.ts); the tickets with their total and the purchases awaiting payment are
    // one more (GET /api/v1/my-lotteries/).
    expect(sqls.filter((q) => q.includes('FROM player_messages WHERE user_id = $2 AND read_at IS NULL')).length).toBe(1);
    expect(sqls.length).toBeLessThanOrEqual(2);
  } finally {
    spy.mockRestore();
  }
});

/** The profile page's own read (GET /api/v1/my-profile/): the account and its message settings. */
const PROFILE_READ = 'FROM users u LEFT JOIN message_settings s ON s.user_id = u.id WHERE u.id = $1';

test('the profile page reads the account and its message settings in one statement beside its check', async () => {
  const p = await pageAccount(t, { name: 'Moushumi Akter' });
  await t.db.query('INSERT INTO message_settings (user_id, claim_reminder, new_lottery) VALUES ($1, false, true)', [p.id]);
  await p.agent.get('/profile').expect(200);
  const { result, count } = await statements(() => p.agent.get('/profile').expect(200));
  expect(count).toBe(2);
  expect(result.text).toContain('<h2 id="profile-name">Moushumi Akter');
  // The settings shown are his stored ones: claim reminders off, new lotteries on.
  expect(result.text).toMatch(/<input[^>]*name="claim_reminder"(?![^>]*checked)[^>]*>/);
  expect(result.text).toMatch(/<input[^>]*name="new_lottery"[^>]*checked[^>]*>/);
});

describe("a page's own read starts with its session's check (server/api.ts READ_AHEAD)", () => {
  const CHECK = 'FROM refresh_tokens s WHERE';
  const OWN_READ = 'count(*) OVER () AS total_count, true AS held';

  test('its statement goes to the database before the check has answered', async () => {
    const p = await pageAccount(t, { name: 'Salma Khatun' });
    const events: string[] = [];
    const query = t.db.query.bind(t.db);
    const spy = jest.spyOn(t.db, 'query').mockImplementation(async (sql, params) => {
      const kind = String(sql).includes(CHECK) ? 'check' : String(sql).includes(OWN_READ) ? 'read' : 'other';
      events.push(`${kind} sent`);
      const rows = await query(sql, params);
      events.push(`${kind} answered`);
      return rows as never;
    });
    try {
      await p.agent.get('/my-lotteries').expect(200);
    } finally {
      spy.mockRestore();
    }
    expect(events.indexOf('read sent')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('read sent')).toBeLessThan(events.indexOf('check answered'));
    expect(events.filter((e) => e === 'read sent')).toHaveLength(1);
  });

  test('a session that has ended gets login, not the page read ahead', async () => {
    const p = await pageAccount(t, { name: 'Rina Begum' });
    await p.agent.get('/my-lotteries').expect(200);
    await t.db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1', [p.id]);
    const r = await p.agent.get('/my-lotteries');
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/login?from=%2Fmy-lotteries');
    expect(r.text).not.toContain('Rina Begum');
  });

  test('rights that changed since the token was signed: the read ahead is dropped and made again with them', async () => {
    const p = await pageAccount(t, { name: 'Habib Rahman' });
    await t.db.query('UPDATE users SET is_staff = true WHERE id = $1', [p.id]);
    const spy = jest.spyOn(t.db, 'query');
    let r;
    try {
      r = await p.agent.get('/profile').expect(200);
    } finally {
      // The account's own row with his settings: read once as the token said (not staff), and again as the check found (staff).
      expect(spy.mock.calls.filter((c) => String(c[0]).includes(PROFILE_READ)).length).toBe(2);
      spy.mockRestore();
    }
    expect(r.text).toContain('<h2 id="profile-name">Habib Rahman');
  });
});

test('a page is its response alone: its own nonce, private and not stored, no cookie set again', async () => {
  const p = await pageAccount(t, { name: 'Nasima Akter' });
  await p.agent.get('/my-lotteries').expect(200);
  const r = await p.agent.get('/my-lotteries').expect(200);
  expect(r.headers['cache-control']).toBe('private, no-store');
  expect(setCookies(r)).toEqual([]);
  const csp = String(r.headers['content-security-policy']);
  expect(csp).toContain("script-src 'self'");
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeDefined();
  // Every inline script carries this response's nonce; no hashes, which only a page rendered to be kept had.
  expect([...r.text.matchAll(/ nonce="([^"]*)"/g)].every((m) => m[1] === nonce)).toBe(true);
  expect(csp).not.toContain("'sha256-");
  expect(r.headers['x-content-type-options']).toBe('nosniff');
});

test('gzip when asked for, the same page; HEAD has the headers only', async () => {
  const p = await pageAccount(t, { name: 'Jamal Hossain' });
  const plain = await p.agent.get('/profile').expect(200);
  const gz = await p.agent.get('/profile').set('Accept-Encoding', 'gzip').expect(200);
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(Number(gz.headers['content-length'])).toBeLessThan(Buffer.byteLength(plain.text) / 2);
  expect(sameBut(gz.text)).toBe(sameBut(plain.text)); // supertest inflates it
  const head = await p.agent.head('/profile').expect(200);
  expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(head.text ?? '').toBe('');
});

test('a write shows at once: the new name on the next view', async () => {
  const p = await pageAccount(t, { name: 'Old Name' });
  await p.agent.get('/profile').expect(200);
  await p.agent.get('/profile').expect(200);
  await t.db.query('UPDATE users SET name = $1 WHERE id = $2', ['New Name', p.id]);
  const r = await p.agent.get('/profile').expect(200);
  expect(r.text).toContain('<h2 id="profile-name">New Name');
});

test('staff who lose the right are sent to log in on the next view', async () => {
  const u = await createUser(t, { phone: uniquePhone(), is_staff: true });
  const agent = await loginAs(t.url, u.phone, u.password);
  await agent.get('/admin/create-lottery').expect(200);
  await agent.get('/admin/create-lottery').expect(200);
  await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [u.id]);
  const r = await agent.get('/admin/create-lottery');
  expect(r.status).toBe(303);
  expect(r.headers.location).toBe('/login?from=%2Fadmin%2Fcreate-lottery');
});

test("another session never gets this session's page", async () => {
  const a = await pageAccount(t, { name: 'Anwar Kabir' });
  const b = await pageAccount(t, { name: 'Beauty Sultana' });
  await a.agent.get('/profile').expect(200);
  await a.agent.get('/profile').expect(200);
  const rb = await b.agent.get('/profile').expect(200);
  expect(rb.text).toContain('Beauty Sultana');
  expect(rb.text).not.toContain('Anwar Kabir');
  // The same session in Bengali is another page.
  const bn = await a.agent.get('/profile').set('Cookie', 'lang=bn');
  expect(bn.status).toBe(200);
});

test('a form post without its token is refused, whatever was viewed before', async () => {
  const p = await pageAccount(t, { name: 'Poster Person' });
  await p.agent.get('/profile').expect(200);
  await p.agent.get('/profile').expect(200);
  const r = await p.agent.post('/profile/edit').type('form').send({ name: 'X' });
  expect(r.status).toBe(403);
});

test("an anonymous visitor with no session cookie never meets a player's page", async () => {
  const p = await pageAccount(t, { name: 'Private Person' });
  await p.agent.get('/profile').expect(200);
  await p.agent.get('/profile').expect(200);
  const r = await request(t.url).get('/profile');
  expect(r.status).toBe(303);
  expect(r.text).not.toContain('Private Person');
});

describe('a page is never served to a session that has ended (docs/rules/accounts-and-codes.md#10-sessions)', () => {
  /** /profile asked twice with this Cookie header. */
  const viewed = async (cookie: string) => {
    await request(t.url).get('/profile').set('Cookie', cookie).set('Accept-Language', 'en').expect(200);
    return (await request(t.url).get('/profile').set('Cookie', cookie).set('Accept-Language', 'en').expect(200)).text;
  };
  const profile = (cookie: string) => request(t.url).get('/profile').set('Cookie', cookie).set('Accept-Language', 'en');

  test('after logout, the saved cookie gets login, not the page; /bff refuses it too', async () => {
    const u = await createUser(t, { phone: uniquePhone(), name: 'Saved Cookie' });
    const cookie = await loginCookie(t.url, u.phone, u.password);
    const page = await viewed(cookie);
    const out = await request(t.url)
      .post('/logout')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfFrom(page) });
    expect(out.status).toBe(303);
    const r = await profile(cookie);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/login?from=%2Fprofile');
    expect(r.text).not.toContain('Saved Cookie');
    expect((await request(t.url).get('/bff/api/v1/me/').set('Cookie', cookie)).status).toBe(401);
  });

  test('after "log out everywhere" from another session, this one gets login', async () => {
    const u = await createUser(t, { phone: uniquePhone(), name: 'Two Browsers' });
    const here = await loginCookie(t.url, u.phone, u.password);
    const there = await loginCookie(t.url, u.phone, u.password);
    await viewed(here);
    await request(t.url)
      .post('/api/v1/logout-everywhere/')
      .set('Authorization', `Bearer ${tokensInCookie(there).access}`)
      .expect(204);
    const r = await profile(here);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/login?from=%2Fprofile');
  });
});
