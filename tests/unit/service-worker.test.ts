/**
 * /sw.js as the server writes it (server/pwa/service-worker.ts, docs/rules/app.md#3-the-service-worker): the files a
 * version keeps, its version, and how it is served (always asked again, a 304 while unchanged, 404 without a build);
 * and which pages the server marks for keeping (server/pwa/offline.ts, #2-what-is-kept).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import express from 'express';
import request from 'supertest';
import { ICONS, SW_CONFIG_GLOBAL, type SwConfig } from '../../shared/app-shell.ts';
import { loadResources } from '../../server/i18n.ts';
import { offlineKind, ownerMark } from '../../server/pwa/offline.ts';
import { precacheList, serviceWorker, serviceWorkerScript } from '../../server/pwa/service-worker.ts';
import type { Manifest } from '../../server/ssr/assets.ts';

const resources = loadResources();
const texts = { src: (lng: string, islands: boolean) => `/texts/${lng}-${islands ? 'islands' : 'client'}-H.js` };
const manifest: Manifest = {
  entry: '/assets/entry-E.js',
  entryImports: ['/assets/c/chunk-A.js', '/assets/c/chunk-B.js'],
  islands: '/assets/islands-I.js',
  islandsImports: ['/assets/c/chunk-B.js', '/assets/c/chunk-C.js'],
  css: ['/assets/index-S.css'],
  chunks: {
    'views/home/home.tsx': ['/assets/c/home-H.js', '/assets/c/chunk-B.js'],
    // A chunk the back office shares with the entry stays; its own do not come.
    'views/admin/shell.tsx': ['/assets/c/shell-X.js', '/assets/c/chunk-ADMIN.js', '/assets/c/chunk-A.js'],
  },
  fonts: { bn: '/fonts/noto-sans-bengali-400.woff2' },
};
const FONTS = ['/fonts/noto-sans-bengali-400.woff2', '/fonts/noto-sans-bengali-600.woff2'];

describe('the files a version keeps', () => {
  const list = precacheList(manifest, texts, FONTS);

  test('the stylesheet, both entries with what they import at once, the texts of each language, the fonts, the favicon', () => {
    expect(list).toEqual(
      expect.arrayContaining([
        '/assets/index-S.css',
        '/assets/entry-E.js',
        '/assets/c/chunk-A.js',
        '/assets/c/chunk-B.js',
        '/assets/islands-I.js',
        '/assets/c/chunk-C.js',
        '/texts/en-islands-H.js',
        '/texts/en-client-H.js',
        '/texts/bn-islands-H.js',
        '/texts/bn-client-H.js',
        ...FONTS,
        '/favicon.svg',
      ]),
    );
  });

  test("not the pages' own chunks, nothing of the back office, not the install icons, each file once", () => {
    expect(list).not.toContain('/assets/c/home-H.js');
    expect(list).not.toContain('/assets/c/shell-X.js');
    expect(list).not.toContain('/assets/c/chunk-ADMIN.js');
    for (const icon of Object.values(ICONS)) expect(list).not.toContain(icon);
    expect(new Set(list).size).toBe(list.length);
    expect(list.every((f) => f.startsWith('/'))).toBe(true);
  });
});

describe('the script', () => {
  const offline = {
    en: { banner: 'Offline — last updated {{time}}', title: 't', text: 'x', retry: 'r', home: 'h' },
    bn: { banner: 'অফলাইন {{time}}', title: 't', text: 'x', retry: 'r', home: 'h' },
  };

  test('its config comes first, readable by the worker, with the version and the files', () => {
    const { body, version } = serviceWorkerScript('self.ran = true;', ['/a.css'], offline);
    const scope: Record<string, unknown> = {};
    runInNewContext(body, { self: scope });
    const config = scope[SW_CONFIG_GLOBAL] as SwConfig;
    expect(config).toEqual({ version, precache: ['/a.css'], texts: offline });
    expect(scope.ran).toBe(true);
  });

  test('a new version with new code, with other files, with other texts; the same otherwise', () => {
    const v = serviceWorkerScript('a', ['/a.css'], offline).version;
    expect(serviceWorkerScript('a', ['/a.css'], offline).version).toBe(v);
    expect(serviceWorkerScript('b', ['/a.css'], offline).version).not.toBe(v);
    expect(serviceWorkerScript('a', ['/b.css'], offline).version).not.toBe(v);
    expect(serviceWorkerScript('a', ['/a.css'], { ...offline, en: { ...offline.en, title: 'T' } }).version).not.toBe(v);
  });
});

describe('GET /sw.js', () => {
  let dir: string;
  let app: express.Express;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bhagya-sw-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'index-S.css'), "@font-face{src:url('/fonts/noto-sans-bengali-600.woff2')}");
    app = express();
    app.get('/sw.js', serviceWorker({ clientDir: dir, manifest: () => manifest, texts, resources }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('404 while there is no build', async () => {
    const res = await request(app).get('/sw.js').expect(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('the built worker after its config: JavaScript, asked again every time, a 304 while unchanged', async () => {
    writeFileSync(path.join(dir, 'sw.js'), 'self.built = 1;');
    const res = await request(app).get('/sw.js').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const scope: Record<string, unknown> = {};
    runInNewContext(res.text, { self: scope });
    const config = scope[SW_CONFIG_GLOBAL] as SwConfig;
    expect(res.headers.etag).toBe(`"${config.version}"`);
    expect(scope.built).toBe(1);
    // The stylesheet's fonts, and the offline texts of locales/<lng>/app.json.
    expect(config.precache).toContain('/fonts/noto-sans-bengali-600.woff2');
    expect(config.texts.bn.banner).toContain('{{time}}');
    expect(config.texts.en.title).toBe('You are offline');
    await request(app)
      .get('/sw.js')
      .set('If-None-Match', res.headers.etag as string)
      .expect(304);
  });
});

describe('which pages may be kept (offlineKind)', () => {
  const player = { user_id: 7, name: 'Rahim', phone: '01711111111', is_staff: false };
  const staff = { ...player, is_staff: true };
  const shared = { cache: [] as string[] };

  test('My Lotteries: for its logged-in player only', () => {
    expect(offlineKind('/my-lotteries', player, undefined)).toBe('player');
    expect(offlineKind('/my-lotteries', null, undefined)).toBeNull();
  });

  test('shared pages and the results: public, for a visitor or a player', () => {
    expect(offlineKind('/', null, { cache: ['pick'] })).toBe('public');
    expect(offlineKind('/faq', player, shared)).toBe('public');
    expect(offlineKind('/results/12', null, undefined)).toBe('public');
    expect(offlineKind('/results', player, undefined)).toBe('public');
  });

  test('never the back office, never anything a staff member opens, nothing unlisted', () => {
    expect(offlineKind('/admin', null, shared)).toBeNull();
    expect(offlineKind('/admin/dashboard', player, shared)).toBeNull();
    expect(offlineKind('/', staff, shared)).toBeNull();
    expect(offlineKind('/my-lotteries', staff, undefined)).toBeNull();
    expect(offlineKind('/profile', player, undefined)).toBeNull();
    expect(offlineKind('/payment/4', player, undefined)).toBeNull();
    expect(offlineKind('/resultsx', null, undefined)).toBeNull();
  });

  test("a player's mark: the same for him on every page, another for another, no id in it", () => {
    const secret = 's'.repeat(40);
    expect(ownerMark(secret, 7)).toBe(ownerMark(secret, 7));
    expect(ownerMark(secret, 7)).not.toBe(ownerMark(secret, 8));
    expect(ownerMark('t'.repeat(40), 7)).not.toBe(ownerMark(secret, 7));
    expect(ownerMark(secret, 7)).toMatch(/^[\w-]{22}$/);
  });
});
