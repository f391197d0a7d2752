/**
 * The installable app on the server (docs/rules/app.md): the web manifest in each language and its icons, the
 * document's links to them, the CSP that lets them and the service worker in, and the headers that tell the worker
 * which pages it may keep and for whom — for a visitor, a player, another player and staff. The worker itself:
 * tests/unit/sw-rules.test.ts, tests/unit/service-worker.test.ts and the browser journey tests/e2e/pwa.spec.ts.
 */
import request from 'supertest';
import { ownerMark } from '../../server/pwa/offline.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { pageAccount } from '../helpers/factories.ts';

const SECRET = 'test-secret-'.padEnd(48, 'x');
let t: TestApp;
beforeAll(async () => {
  // The page cache on: a shared page answered by the front carries the same headers as the first one.
  t = await startTestApp({ PAGE_CACHE_TTL_MS: '10000' });
});
afterAll(() => t.close());

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (b: Buffer) => {
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
};

type Manifest = {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  dir: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
};

describe('the web manifest', () => {
  test.each([
    ['en', 'Bhagya'],
    ['bn', 'ভাগ্য'],
  ])('%s: what Chromium asks to install the app', async (lng, name) => {
    const res = await request(t.url).get(`/manifest.${lng}.webmanifest`).expect(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const m = JSON.parse(res.text) as Manifest;
    expect(m).toMatchObject({
      id: '/',
      name,
      short_name: name,
      lang: lng,
      dir: 'ltr',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#0b6e4f',
      background_color: '#f6f8f7',
    });
    expect(m.description.length).toBeGreaterThan(20);
    const png = m.icons.filter((i) => i.type === 'image/png');
    expect(png.map((i) => [i.sizes, i.purpose])).toEqual([
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ]);
  });

  test('its icons load: PNG of the sizes it names, and the Apple touch icon', async () => {
    const m = JSON.parse((await request(t.url).get('/manifest.en.webmanifest')).text) as Manifest;
    for (const icon of m.icons.filter((i) => i.type === 'image/png')) {
      const res = await request(t.url).get(icon.src).buffer(true).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(pngSize(res.body as Buffer)).toBe(icon.sizes);
    }
    const apple = await request(t.url).get('/icons/apple-touch-icon.png').buffer(true).expect(200);
    expect(pngSize(apple.body as Buffer)).toBe('180x180');
  });

  test('another language or file is a 404', async () => {
    await request(t.url).get('/manifest.fr.webmanifest').expect(404);
    await request(t.url).get('/icons/nothing.png').expect(404);
  });
});

describe('the document', () => {
  test.each(['en', 'bn'])(
    '%s: links the manifest of its language and the touch icon; the CSP lets the manifest and the worker in',
    async (lng) => {
      const res = await request(t.url).get('/').set('Cookie', `lang=${lng}`).expect(200);
      expect(res.text).toContain(`<link rel="manifest" href="/manifest.${lng}.webmanifest"/>`);
      expect(res.text).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"/>');
      expect(res.text).toContain('<meta name="theme-color" content="#0b6e4f"/>');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("manifest-src 'self'");
      expect(csp).toContain("worker-src 'self'");
    },
  );
});

describe('which pages the worker may keep, and for whom', () => {
  test('a visitor: the shared pages as public, from the page cache too; nobody named; nothing else', async () => {
    for (let i = 0; i < 2; i++) {
      const home = await request(t.url).get('/').set('Cookie', 'lang=en').expect(200);
      expect(home.headers['x-offline-copy']).toBe('public');
      expect(home.headers['x-offline-owner']).toBeUndefined();
    }
    const faq = await request(t.url).get('/faq').expect(200);
    expect(faq.headers['x-offline-copy']).toBe('public');
    const login = await request(t.url).get('/login').expect(200);
    expect(login.headers['x-offline-copy']).toBeUndefined();
    const mine = await request(t.url).get('/my-lotteries').expect(303);
    expect(mine.headers['x-offline-copy']).toBeUndefined();
  });

  test('a player: his My Lotteries as his, the public pages with his mark, his other pages not at all', async () => {
    const p = await pageAccount(t, { lang: null });
    const mark = ownerMark(SECRET, p.id);
    const mine = await p.agent.get('/my-lotteries').expect(200);
    expect(mine.headers['x-offline-copy']).toBe('player');
    expect(mine.headers['x-offline-owner']).toBe(mark);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    const home = await p.agent.get('/').expect(200);
    expect(home.headers['x-offline-copy']).toBe('public');
    expect(home.headers['x-offline-owner']).toBe(mark);
    const profile = await p.agent.get('/profile').expect(200);
    expect(profile.headers['x-offline-copy']).toBeUndefined();
    expect(profile.headers['x-offline-owner']).toBe(mark);
  });

  test('another player: another mark', async () => {
    const [a, b] = [await pageAccount(t, { lang: null }), await pageAccount(t, { lang: null })];
    const ma = (await a.agent.get('/my-lotteries').expect(200)).headers['x-offline-owner'];
    const mb = (await b.agent.get('/my-lotteries').expect(200)).headers['x-offline-owner'];
    expect(ma).toBe(ownerMark(SECRET, a.id));
    expect(mb).toBe(ownerMark(SECRET, b.id));
    expect(ma).not.toBe(mb);
  });

  test('staff: no page kept, no mark, the back office least of all', async () => {
    const s = await pageAccount(t, { is_staff: true, lang: null });
    for (const p of ['/admin/dashboard', '/', '/faq']) {
      const res = await s.agent.get(p).expect(200);
      expect(res.headers['x-offline-copy']).toBeUndefined();
      expect(res.headers['x-offline-owner']).toBeUndefined();
    }
  });

  test('after logout: no mark any more', async () => {
    const p = await pageAccount(t, { lang: null });
    const page = await p.agent.get('/my-lotteries').expect(200);
    const csrf = /name="_csrf"[^>]*value="([^"]*)"/.exec(page.text)?.[1] ?? '';
    await p.agent.post('/logout').type('form').send({ _csrf: csrf }).expect(303);
    const home = await p.agent.get('/').expect(200);
    expect(home.headers['x-offline-owner']).toBeUndefined();
    expect(home.headers['x-offline-copy']).toBe('public');
  });
});
