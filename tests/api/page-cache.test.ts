/**
 * The anonymous page cache (server/ssr/page-cache.ts, server/ssr/render.tsx, server/ssr/front.ts) with the cache
 * ON, as in production: a logged-in page never reaches another visitor, a cached page never crosses languages nor
 * the "language chosen" state, and an unknown query parameter is rendered fresh rather than cached. A shared page
 * is a whole stored response (docs/decisions/011-shared-pages-are-whole-responses.md): no nonce (its CSP names its
 * inline scripts' hashes), no CSRF token and no cookie, compressed once (gzip, br), 304 for its ETag; a page
 * rendered for one visitor keeps its own nonce and token.
 *
 * The tests run without a client build, so pages would have no <script> to carry the nonce: `node:fs` answers
 * for the build manifest alone with a small fake one (every other file is the real one), which gives every
 * page its bootstrap script.
 */
import { createHash } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Response as Res } from 'supertest';

const realFs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
const MANIFEST = JSON.stringify({
  entry: '/assets/entry-PAGECACHETEST.js',
  entryImports: [],
  islands: '/assets/islands-PAGECACHETEST.js',
  islandsImports: [],
  css: [],
  chunks: {},
  fonts: {},
});
const isManifest = (p: unknown) => typeof p === 'string' && p.endsWith(path.join('dist', 'client', 'manifest.json'));
const fakeFs = {
  ...realFs,
  existsSync: (p: Parameters<typeof realFs.existsSync>[0]) => isManifest(p) || realFs.existsSync(p),
  statSync: ((p: string, ...rest: unknown[]) =>
    isManifest(p) ? { mtimeMs: 1 } : (realFs.statSync as (...a: unknown[]) => unknown)(p, ...rest)) as typeof realFs.statSync,
  readFileSync: ((p: string, ...rest: unknown[]) =>
    isManifest(p) ? MANIFEST : (realFs.readFileSync as (...a: unknown[]) => unknown)(p, ...rest)) as typeof realFs.readFileSync,
};
jest.unstable_mockModule('node:fs', () => ({ ...fakeFs, default: fakeFs }));

const { default: request } = await import('supertest');
const { createUser, startTestApp } = await import('../helpers/app.ts');
const { loginAs } = await import('../helpers/session.ts');
const { loadResources } = await import('../../server/i18n.ts');
const { CSRF_PLACEHOLDER } = await import('../../server/ssr/page-cache.ts');
const { setCookies } = await import('../helpers/session.ts');

type TestApp = Awaited<ReturnType<typeof startTestApp>>;
let t: TestApp;
/** Cache keys asked for on a miss, and the ones that had to be rendered, since the last clear. */
let asked: string[] = [];
let rendered: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ PAGE_CACHE_TTL_MS: '60000' });
  const cache = t.app.pageCache;
  const get = cache.get.bind(cache);
  cache.get = (key, render) => {
    asked.push(key);
    return get(key, () => {
      rendered.push(key);
      return render();
    });
  };
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.app.pageCache.clear();
  asked = [];
  rendered = [];
});

const texts = loadResources() as Record<'en' | 'bn', { common: { nav: Record<string, string> } }>;
const anon = (p: string, cookie = 'lang=en') => request(t.url).get(p).set('Cookie', cookie);
/** What only a logged-in page has: the user chip and the logout form. */
const LOGGED_IN_MARKUP = ['nav-user', 'action="/logout"'];
const cspNonce = (res: Res) => /'nonce-([^']+)'/.exec(res.headers['content-security-policy'] as string)?.[1];
const scriptSrc = (res: Res) => /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers['content-security-policy'] as string)?.[1]?.trim();
const csrfInData = (html: string) => /"csrf":"([^"]*)"/.exec(html)?.[1];
/** Every response header but the ones of the connection and the moment. */
const headersOf = (r: Res) =>
  Object.fromEntries(Object.entries(r.headers).filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
/** A response as its bytes came, undecoded (supertest would inflate gzip and br). */
const rawGet = (p: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${t.url}${p}`, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject);
  });

test('the cache is on: the second anonymous visitor of a page gets the stored response, headers and bytes', async () => {
  const first = await anon('/all-lotteries').expect(200);
  const second = await anon('/all-lotteries').expect(200);
  expect(rendered).toHaveLength(1);
  for (const r of [first, second]) expect(r.headers['cache-control']).toBe('private, no-cache');
  // The second came from the front (server/ssr/front.ts): the same response the middleware sent the first.
  expect(second.text).toBe(first.text);
  expect(headersOf(second)).toEqual(headersOf(first));
  expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'"); // helmet's headers are kept
  expect(first.headers['x-content-type-options']).toBe('nosniff');
});

describe('a logged-in page never reaches anyone else', () => {
  test.each(['/', '/all-lotteries', '/faq'])('%s: player A, then a visitor, then player B, then A again', async (page) => {
    const a = await createUser(t, { name: 'Anwar Cachetest' });
    const b = await createUser(t, { name: 'Bithi Cachetest' });
    const agentA = await loginAs(t.url, a.phone, a.password);
    const agentB = await loginAs(t.url, b.phone, b.password);
    t.app.pageCache.clear();

    const asA = await agentA.get(page).set('Cookie', 'lang=en').expect(200);
    expect(asA.text).toContain('Anwar Cachetest');
    expect(asA.headers['cache-control']).toBe('private, no-store');

    const visitor = await anon(page).expect(200);
    expect(visitor.text).not.toContain('Anwar Cachetest');
    expect(visitor.text).not.toContain(a.phone);
    for (const m of LOGGED_IN_MARKUP) expect(visitor.text).not.toContain(m);
    expect(visitor.text).toContain('href="/login"');
    // The visitor's render is the one in the cache now ...
    expect(rendered).toHaveLength(1);

    // ... and neither player is given it, nor the other's page.
    const asB = await agentB.get(page).set('Cookie', 'lang=en').expect(200);
    expect(asB.text).toContain('Bithi Cachetest');
    expect(asB.text).not.toContain('Anwar Cachetest');
    for (const m of LOGGED_IN_MARKUP) expect(asB.text).toContain(m);
    const againA = await agentA.get(page).set('Cookie', 'lang=en').expect(200);
    expect(againA.text).toContain('Anwar Cachetest');
    expect(againA.text).not.toContain('Bithi Cachetest');

    const visitorAgain = await anon(page).expect(200);
    for (const name of ['Anwar Cachetest', 'Bithi Cachetest']) expect(visitorAgain.text).not.toContain(name);
    // Only the first visitor's request went to the cache for a render; the players' pages are their own.
    expect(asked).toHaveLength(1);
    expect(rendered).toHaveLength(1);
    for (const r of [asA, asB, againA]) expect(r.headers['cache-control']).toBe('private, no-store');
  });
});

describe('cache entries never cross languages nor the "language chosen" state', () => {
  test.each(['/', '/all-lotteries'])('%s: English, then Bengali, then English again', async (page) => {
    const en = await anon(page, 'lang=en').expect(200);
    expect(en.text).toContain('<html lang="en"');
    expect(en.text).toContain(texts.en.common.nav.skip);
    const bn = await anon(page, 'lang=bn').expect(200);
    expect(bn.text).toContain('<html lang="bn"');
    expect(bn.text).toContain(texts.bn.common.nav.skip);
    expect(bn.text).not.toContain(texts.en.common.nav.skip);
    const enAgain = await anon(page, 'lang=en').expect(200);
    expect(enAgain.text).toContain('<html lang="en"');
    expect(enAgain.text).not.toContain(texts.bn.common.nav.skip);
    // Without the cookie the language comes from Accept-Language: still one entry per language.
    const bnHeader = await request(t.url).get(page).set('Accept-Language', 'bn').expect(200);
    expect(bnHeader.text).toContain('<html lang="bn"');
    const enHeader = await request(t.url).get(page).set('Accept-Language', 'en').expect(200);
    expect(enHeader.text).toContain('<html lang="en"');
  });

  test.each(['/', '/all-lotteries', '/faq'])(
    '%s: the first-visit language chooser shows only without a lang cookie, in either order',
    async (page) => {
      const chosen = await anon(page, 'lang=en').expect(200);
      expect(chosen.text).not.toContain('lang-chooser-title');
      const firstVisit = await request(t.url).get(page).set('Accept-Language', 'en').expect(200);
      expect(firstVisit.text).toContain('lang-chooser-title');
      expect(firstVisit.text).toContain('<html lang="en"');
      const chosenAgain = await anon(page, 'lang=en').expect(200);
      expect(chosenAgain.text).not.toContain('lang-chooser-title');
      const firstVisitAgain = await request(t.url).get(page).set('Accept-Language', 'en').expect(200);
      expect(firstVisitAgain.text).toContain('lang-chooser-title');
    },
  );
});

describe('a shared page carries nothing of its visitor', () => {
  test('no nonce: the CSP names the hashes of its inline scripts, the same for everyone; a page rendered per visitor keeps a fresh nonce', async () => {
    const responses = [
      await anon('/all-lotteries').expect(200),
      await anon('/all-lotteries').expect(200),
      await request(t.url).get('/').set('Accept-Language', 'en').expect(200),
      await request(t.url).get('/').set('Accept-Language', 'en').expect(200),
    ];
    expect(rendered).toHaveLength(2); // two of the four came from the cache
    for (const r of responses) {
      expect(r.headers['content-security-policy']).not.toContain("'nonce-");
      expect(r.text).not.toMatch(/<script\b[^>]*\bnonce=/);
      expect(r.text).toMatch(/<script\b[^>]*\bsrc="\/assets\/(entry|islands)-PAGECACHETEST\.js"/); // allowed by 'self'
      const inline = [...r.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter((m) => !/\bsrc=|type="application\/json"/.test(m[1] as string))
        .map(
          (m) =>
            `'sha256-${createHash('sha256')
              .update(m[2] as string)
              .digest('base64')}'`,
        );
      expect(scriptSrc(r)).toBe(["'self'", ...inline].join(' '));
    }
    expect(responses[1]?.headers['content-security-policy']).toBe(responses[0]?.headers['content-security-policy']);
    // Pages rendered for one visitor (no cache for /login) keep a fresh nonce on their scripts.
    const own = [await anon('/login').expect(200), await anon('/login').expect(200)];
    const nonces = own.map((r) => {
      const nonce = cspNonce(r);
      expect(nonce).toBeTruthy();
      const onScripts = [...r.text.matchAll(/<script\b[^>]*\bnonce="([^"]*)"/g)].map((m) => m[1]);
      expect(onScripts.length).toBeGreaterThan(0);
      for (const n of onScripts) expect(n).toBe(nonce);
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test.each(['/', '/all-lotteries', '/faq'])('%s: no CSRF token and no cookie, for a first visit and a returning one', async (page) => {
    for (const r of [
      await request(t.url).get(page).set('Accept-Language', 'en').expect(200),
      await request(t.url).get(page).set('Accept-Language', 'en').expect(200),
      await anon(page).expect(200),
      await anon(page).expect(200),
    ]) {
      expect(setCookies(r)).toEqual([]);
      expect(r.text).not.toContain('name="_csrf"');
      expect(r.text).not.toContain(CSRF_PLACEHOLDER);
      expect(csrfInData(r.text) ?? '').toBe('');
    }
  });

  test("the token comes with the first page that has a form (or /bff/session), valid with that visitor's cookies only", async () => {
    const v1 = request.agent(t.url);
    const v2 = request.agent(t.url);
    // A shared page first: it gives neither of them anything.
    await v1.get('/all-lotteries').set('Cookie', 'lang=en').expect(200);
    await v2.get('/all-lotteries').set('Cookie', 'lang=en').expect(200);
    const login = await v1.get('/login').set('Cookie', 'lang=en').expect(200);
    expect(setCookies(login).map((c) => c.slice(0, c.indexOf('=')))).toEqual(expect.arrayContaining(['bh_vid', 'bh_csrf']));
    const c1 = csrfInData(login.text);
    const session = await v2.get('/bff/session').expect(200);
    const c2 = session.body.csrf as string;
    for (const c of [c1, c2]) {
      expect(c).toBeTruthy();
      expect(c).not.toBe(CSRF_PLACEHOLDER);
    }
    expect(c1).not.toBe(c2);
    // Each token passes the CSRF check with its own visitor's cookies (400: the empty login body reached the form check) ...
    expect(
      (
        await v1
          .post('/bff/session')
          .set('x-csrf-token', c1 as string)
          .send({})
      ).status,
    ).toBe(400);
    expect((await v2.post('/bff/session').set('x-csrf-token', c2).send({})).status).toBe(400);
    // ... and not with the other's, nor without a visitor cookie at all.
    expect(
      (
        await v2
          .post('/bff/session')
          .set('x-csrf-token', c1 as string)
          .send({})
      ).status,
    ).toBe(403);
    expect(
      (
        await request(t.url)
          .post('/bff/session')
          .set('x-csrf-token', c1 as string)
          .send({})
      ).status,
    ).toBe(403);
  });
});

describe('a shared page is compressed once and revalidated by its ETag', () => {
  test.each(['/', '/all-lotteries'])(
    '%s: br, gzip or none as the request accepts, Vary: Accept-Encoding, the same page in each',
    async (page) => {
      const plain = await rawGet(page, { Cookie: 'lang=en' });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
      for (const [accept, encoding, decode] of [
        ['gzip', 'gzip', gunzipSync],
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['br;q=0, gzip;q=0.8', 'gzip', gunzipSync],
      ] as const) {
        for (let i = 0; i < 2; i++) {
          const r = await rawGet(page, { Cookie: 'lang=en', 'Accept-Encoding': accept });
          expect(r.status).toBe(200);
          expect(r.headers['content-encoding']).toBe(encoding);
          expect(r.headers.vary).toMatch(/Accept-Encoding/i);
          expect(Number(r.headers['content-length'])).toBe(r.body.length);
          expect(decode(r.body).equals(plain.body)).toBe(true);
          expect(r.headers.etag).toBe(plain.headers.etag);
        }
      }
      expect(rendered).toHaveLength(1);
    },
  );

  test("If-None-Match with the page's ETag: 304 without a body, from the front and after a new render alike", async () => {
    const first = await anon('/faq').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    const again = await anon('/faq').set('If-None-Match', etag).expect(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    await anon('/faq').set('If-None-Match', 'W/"something-else"').expect(200);
    // A new render of the same data is the same page, and the same ETag (the FAQ has no countdown in it).
    t.app.pageCache.clear();
    await anon('/faq').set('If-None-Match', etag).expect(304);
    expect(rendered).toHaveLength(2);
    // Another language is another page.
    const bn = await anon('/faq', 'lang=bn').set('If-None-Match', etag).expect(200);
    expect(bn.headers.etag).not.toBe(etag);
  });

  test('a request the front cannot read plainly goes through the middleware: any session cookie, an odd lang cookie', async () => {
    await anon('/all-lotteries').expect(200); // in the cache now
    const stale = await anon('/all-lotteries', 'lang=en; bh_session=s%3Anot-a-session').expect(200);
    expect(stale.headers['cache-control']).toBe('private, no-store');
    const odd = await anon('/all-lotteries', 'lang=en; lang=bn').expect(200);
    expect(odd.text).toContain('<html lang="en"');
  });
});

describe('what is not cached', () => {
  test('a page with an unknown query parameter is rendered fresh for each request', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await anon('/all-lotteries?utm_source=cachetest').expect(200);
      expect(r.headers['cache-control']).toBe('private, no-store');
      const mixed = await anon('/faq?category=general&other=1').expect(200);
      expect(mixed.headers['cache-control']).toBe('private, no-store');
    }
    expect(asked).toEqual([]);
    // The parameters a page declares are cached (the control for the above).
    const paged = await anon('/all-lotteries?page=1').expect(200);
    expect(paged.headers['cache-control']).toBe('private, no-cache');
    expect(asked).toHaveLength(1);
  });

  test('pages that declare no cache (login, contact) are never cached', async () => {
    await anon('/login').expect(200);
    await anon('/contact').expect(200);
    expect(asked).toEqual([]);
  });
});
