/**
 * Production transport security (docs/rules/security.md#3-cookies): HSTS for a year, and every cookie that carries a session, a
 * browser id or a CSRF secret is Secure, HttpOnly, SameSite=Lax, Path=/ and `__Host-` prefixed (so no subdomain
 * or plain-http page can plant or overwrite it). Development and tests on plain http keep the bare names.
 *
 * Supertest does not send Secure cookies back over http, so the production tests keep their own cookie jar.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, setCookies } from '../helpers/session.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';

type Res = request.Response;

const named = (res: Res, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`));

/** Name=value pairs from Set-Cookie, as a browser over HTTPS would keep them (cleared ones removed). */
class Jar {
  private readonly cookies = new Map<string, string>();
  keep(res: Res): this {
    for (const c of setCookies(res)) {
      const pair = c.slice(0, c.indexOf(';') === -1 ? undefined : c.indexOf(';'));
      const name = pair.slice(0, pair.indexOf('='));
      if (/;\s*Expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return this;
  }
  has(name: string): boolean {
    return this.cookies.has(name);
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  header(extra: Record<string, string> = {}): string {
    return [...this.cookies, ...Object.entries(extra)].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Each attribute a production cookie must have; no Domain (a `__Host-` cookie must not have one). */
function expectHostCookie(cookie: string | undefined, name: string) {
  expect(cookie).toBeDefined();
  const c = cookie as string;
  expect(c.startsWith(`__Host-${name}=`)).toBe(true);
  const attrs = c
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
  expect(attrs).toContain('secure');
  expect(attrs).toContain('httponly');
  expect(attrs).toContain('samesite=lax');
  expect(attrs).toContain('path=/');
  expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
}

describe('NODE_ENV=production', () => {
  let t: TestApp;
  // The page cache on, as in production: a logged-in page must still be recognised by the session cookie's name.
  beforeAll(async () => {
    t = await startTestApp({ NODE_ENV: 'production', PAGE_CACHE_TTL_MS: '60000' });
  });
  afterAll(async () => {
    await t.close();
  });

  test("forms post only to the site; the answer may lead to bKash's payment pages, and no simulator is served", async () => {
    const page = await request(t.url).get('/login').set('Cookie', 'lang=en');
    const csp = String(page.headers['content-security-policy']);
    // The test app runs production with BKASH_MODE=sandbox (tests/helpers/app.ts).
    expect(csp).toContain("form-action 'self' https://sandbox.payment.bkash.com;");
    const grant = await request(t.url).post('/_bkash/tokenized/checkout/token/grant').send({});
    expect(grant.body?.statusCode).toBeUndefined();
    expect((await request(t.url).get('/_bkash/checkout/TR0011X')).status).toBe(404);
  });

  /** GET /login over "HTTPS": the jar with the visitor and CSRF cookies, and the form's token. */
  async function loginPage() {
    const jar = new Jar();
    const page = await request(t.url).get('/login').set('Cookie', 'lang=en');
    expect(page.status).toBe(200);
    jar.keep(page);
    return { jar, page, csrf: csrfFrom(page.text) };
  }

  /** The name of the login form's phone-or-e-mail field, as the page renders it. */
  const identifierField = (html: string) => {
    const input = /<input\b[^>]*autocomplete="username"[^>]*>/i.exec(html)?.[0] ?? '';
    const name = /\bname="([^"]+)"/.exec(input)?.[1];
    if (!name) throw new Error('no username field in the login form');
    return name;
  };

  async function logIn(phone: string, password: string) {
    const { jar, page, csrf } = await loginPage();
    const res = await request(t.url)
      .post('/login')
      .set('Cookie', jar.header({ lang: 'en' }))
      .type('form')
      .send({ _csrf: csrf, [identifierField(page.text)]: phone, password });
    expect(res.status).toBe(303);
    jar.keep(res);
    return { jar, res, csrf };
  }

  test('Strict-Transport-Security for at least a year on pages, the BFF and the API', async () => {
    for (const path of ['/', '/login', '/bff/session', urlOf(api.publishedLotteries)]) {
      const res = await request(t.url).get(path).set('Cookie', 'lang=en');
      expect(res.status).toBe(200);
      const hsts = res.headers['strict-transport-security'] as string | undefined;
      expect(hsts).toBeDefined();
      const maxAge = Number(/max-age=(\d+)/i.exec(hsts as string)?.[1]);
      expect(maxAge).toBeGreaterThanOrEqual(365 * 24 * 3600);
    }
  });

  test('the visitor and CSRF cookies: __Host-, Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
    const { page } = await loginPage();
    expectHostCookie(named(page, '__Host-bh_vid'), 'bh_vid');
    expectHostCookie(named(page, '__Host-bh_csrf'), 'bh_csrf');
    // Not also under the bare names.
    expect(named(page, 'bh_vid')).toBeUndefined();
    expect(named(page, 'bh_csrf')).toBeUndefined();
    // The BFF's first answer sets them the same way.
    const bff = await request(t.url).get('/bff/session');
    expectHostCookie(named(bff, '__Host-bh_vid'), 'bh_vid');
    expectHostCookie(named(bff, '__Host-bh_csrf'), 'bh_csrf');
  });

  test('the session cookie after a no-JS login: __Host-, Secure, HttpOnly, SameSite=Lax, Path=/; the server reads it back', async () => {
    const u = await createUser(t, { name: 'Secure Sadia' });
    const { jar, res, csrf } = await logIn(u.phone, u.password);
    expectHostCookie(named(res, '__Host-bh_session'), 'bh_session');
    expect(named(res, 'bh_session')).toBeUndefined();

    // The cookie works under its new name: the page knows the user (and is not the shared anonymous render) ...
    const home = await request(t.url)
      .get('/')
      .set('Cookie', jar.header({ lang: 'en' }));
    expect(home.status).toBe(200);
    expect(home.text).toContain('Secure Sadia');
    expect(home.headers['cache-control']).toBe('private, no-store');
    // ... so does the BFF ...
    const session = await request(t.url).get('/bff/session').set('Cookie', jar.header());
    expect(session.body.user).toMatchObject({ user_id: u.id, name: 'Secure Sadia' });
    // ... and logging out clears it under that name.
    const out = await request(t.url)
      .post('/logout')
      .set('Cookie', jar.header({ lang: 'en' }))
      .type('form')
      .send({ _csrf: csrf });
    expect(out.status).toBe(303);
    expect(named(out, '__Host-bh_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    jar.keep(out);
    expect(jar.has('__Host-bh_session')).toBe(false);
    expect(
      (
        await request(t.url)
          .get('/')
          .set('Cookie', jar.header({ lang: 'en' }))
      ).text,
    ).not.toContain('Secure Sadia');
  });

  test('the session cookie through the BFF login has the same flags', async () => {
    const u = await createUser(t);
    const first = await request(t.url).get('/bff/session');
    const jar = new Jar().keep(first);
    const res = await request(t.url)
      .post('/bff/session')
      .set('Cookie', jar.header())
      .set('x-csrf-token', first.body.csrf as string)
      .send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(200);
    expectHostCookie(named(res, '__Host-bh_session'), 'bh_session');
  });

  test('the session and visitor cookies are read only under their __Host- names', async () => {
    const u = await createUser(t, { name: 'Planted Pavel' });
    const { jar } = await logIn(u.phone, u.password);
    const signed = jar.get('__Host-bh_session') as string;
    // The same signed value under the bare name (a cookie any subdomain or http page could set) is no session.
    const bare = await request(t.url)
      .get('/bff/session')
      .set('Cookie', `bh_session=${signed}; __Host-bh_vid=${jar.get('__Host-bh_vid')}`);
    expect(bare.body.user).toBeNull();
    // A visitor id under the bare name is not taken either: the server issues its own __Host- one.
    const vid = await request(t.url)
      .get('/bff/session')
      .set('Cookie', `bh_vid=${jar.get('__Host-bh_vid')}`);
    expectHostCookie(named(vid, '__Host-bh_vid'), 'bh_vid');
  });
});

describe('NODE_ENV=development on plain http', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ NODE_ENV: 'development' });
  });
  afterAll(async () => {
    await t.close();
  });

  test('no HSTS; the cookies keep their bare names without Secure, and a browser logs in over http', async () => {
    const page = await request(t.url).get('/login').set('Cookie', 'lang=en');
    expect(page.headers['strict-transport-security']).toBeUndefined();
    for (const name of ['bh_vid', 'bh_csrf']) {
      const c = named(page, name);
      expect(c).toMatch(/; HttpOnly/);
      expect(c).not.toMatch(/; Secure/);
    }
    expect(setCookies(page).some((c) => c.startsWith('__Host-'))).toBe(false);

    const u = await createUser(t, { name: 'Plain Http Parvin' });
    const agent = await loginAs(t.url, u.phone, u.password);
    expect((await agent.get('/').set('Cookie', 'lang=en')).text).toContain('Plain Http Parvin');
  });
});
