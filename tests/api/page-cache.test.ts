/**
 * The anonymous page cache (server/ssr/page-cache.ts, server/ssr/render.tsx) with the cache ON, as in
 * production: a logged-in page never reaches another visitor, a cached page never crosses languages nor the
 * "language chosen" state, each response gets its own CSP nonce and CSRF token, and an unknown query
 * parameter is rendered fresh rather than cached.
 *
 * The tests run without a client build, so pages would have no <script> to carry the nonce: `node:fs` answers
 * for the build manifest alone with a small fake one (every other file is the real one), which gives every
 * page its nonced bootstrap script.
 */
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
const { CSRF_PLACEHOLDER, NONCE_PLACEHOLDER } = await import('../../server/ssr/page-cache.ts');

type TestApp = Awaited<ReturnType<typeof startTestApp>>;
let t: TestApp;
/** Cache keys asked for, and the ones that had to be rendered (a miss), since the last clear. */
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
const csrfInData = (html: string) => /"csrf":"([^"]*)"/.exec(html)?.[1];

test('the cache is on: the second anonymous visitor of a page gets the stored render', async () => {
  const first = await anon('/all-lotteries').expect(200);
  const second = await anon('/all-lotteries').expect(200);
  expect(asked).toHaveLength(2);
  expect(rendered).toHaveLength(1);
  for (const r of [first, second]) expect(r.headers['cache-control']).toBe('private, no-cache');
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
    expect(asked).toHaveLength(2); // only the two visitors' requests went to the cache
    expect(rendered).toHaveLength(1);
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

describe('per-response values are not cached', () => {
  test('each response has its own CSP nonce on its scripts, also when served from the cache', async () => {
    const responses = [
      await anon('/all-lotteries').expect(200),
      await anon('/all-lotteries').expect(200),
      await anon('/').expect(200),
      await anon('/').expect(200),
    ];
    expect(asked).toHaveLength(4);
    expect(rendered).toHaveLength(2); // two of the four came from the cache
    const nonces = responses.map((r) => {
      const nonce = cspNonce(r);
      expect(nonce).toBeTruthy();
      const onScripts = [...r.text.matchAll(/<script\b[^>]*\bnonce="([^"]*)"/g)].map((m) => m[1]);
      expect(onScripts.length).toBeGreaterThan(0); // the bootstrap script
      for (const n of onScripts) expect(n).toBe(nonce);
      expect(r.text).not.toContain(NONCE_PLACEHOLDER);
      return nonce;
    });
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  test("each visitor gets its own CSRF token, which is valid with that visitor's cookies only", async () => {
    const v1 = request.agent(t.url);
    const v2 = request.agent(t.url);
    const p1 = await v1.get('/all-lotteries').set('Cookie', 'lang=en').expect(200);
    const p2 = await v2.get('/all-lotteries').set('Cookie', 'lang=en').expect(200);
    expect(rendered).toHaveLength(1); // the second one came from the cache
    const [c1, c2] = [csrfInData(p1.text), csrfInData(p2.text)];
    for (const [c, html] of [
      [c1, p1.text],
      [c2, p2.text],
    ] as const) {
      expect(c).toBeTruthy();
      expect(c).not.toBe(CSRF_PLACEHOLDER);
      expect(html).not.toContain(CSRF_PLACEHOLDER);
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
    expect(
      (
        await v2
          .post('/bff/session')
          .set('x-csrf-token', c2 as string)
          .send({})
      ).status,
    ).toBe(400);
    // ... and not with the other's.
    expect(
      (
        await v2
          .post('/bff/session')
          .set('x-csrf-token', c1 as string)
          .send({})
      ).status,
    ).toBe(403);
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
