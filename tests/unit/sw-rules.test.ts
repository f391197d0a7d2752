/**
 * The service worker's decisions (client/sw-rules.ts, docs/rules/app.md): which pages it keeps, to whom it shows a kept
 * copy, and how the copy and the offline page look.
 */
import { isLogout, keepAs, languageOf, mayServe, offlineCopy, offlinePage, ownerOf, type SeenResponse } from '../../client/sw-rules.ts';
import type { OfflineTexts } from '../../shared/app-shell.ts';
import type { Language } from '../../shared/i18n.ts';
import { loadResources } from '../../server/i18n.ts';

const resources = loadResources();
const texts = Object.fromEntries(
  (['en', 'bn'] as const).map((lng) => [lng, (resources[lng]?.app as { offline: OfflineTexts }).offline]),
) as Record<Language, OfflineTexts>;

const seen = (headers: Record<string, string>, o: { status?: number; type?: string } = {}): SeenResponse => {
  const h = new Headers({ 'content-type': 'text/html; charset=utf-8', ...headers });
  return { status: o.status ?? 200, type: o.type ?? 'basic', headers: h };
};
const at = (p: string) => new URL(p, 'https://bhagya.example');

describe('keepAs: what is kept', () => {
  test('a page the server marked public is kept as public, with or without a player', () => {
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'public' }))).toBe('public');
    expect(keepAs(at('/results/4'), seen({ 'x-offline-copy': 'public', 'x-offline-owner': 'abc' }))).toBe('public');
  });

  test("a player's page is kept only with its owner", () => {
    expect(keepAs(at('/my-lotteries'), seen({ 'x-offline-copy': 'player', 'x-offline-owner': 'abc' }))).toBe('player');
    expect(keepAs(at('/my-lotteries'), seen({ 'x-offline-copy': 'player' }))).toBeNull();
  });

  test('nothing unmarked, nothing but a same-origin 200 HTML page, never the back office, the API or the BFF', () => {
    expect(keepAs(at('/profile'), seen({ 'x-offline-owner': 'abc' }))).toBeNull();
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'something' }))).toBeNull();
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'public' }, { status: 404 }))).toBeNull();
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'public' }, { status: 503 }))).toBeNull();
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'public' }, { type: 'opaqueredirect' }))).toBeNull();
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'public' }, { type: 'cors' }))).toBeNull();
    expect(keepAs(at('/'), seen({ 'x-offline-copy': 'public', 'content-type': 'application/json' }))).toBeNull();
    for (const p of ['/admin', '/admin/dashboard', '/api/v1/lotteries/', '/bff/session'])
      expect(keepAs(at(p), seen({ 'x-offline-copy': 'public', 'x-offline-owner': 'abc' }))).toBeNull();
  });
});

test("mayServe: a public copy to anyone, a player's copy only while he is the one logged in", () => {
  expect(mayServe('', '')).toBe(true);
  expect(mayServe('', 'abc')).toBe(true);
  expect(mayServe('abc', 'abc')).toBe(true);
  expect(mayServe('abc', 'xyz')).toBe(false);
  expect(mayServe('abc', '')).toBe(false);
});

test('ownerOf reads the mark, none for nobody', () => {
  expect(ownerOf(seen({ 'x-offline-owner': 'abc' }))).toBe('abc');
  expect(ownerOf(seen({}))).toBe('');
});

test('isLogout: the logout form post, the BFF logout, log out everywhere, the API logout; not a GET nor another post', () => {
  expect(isLogout('POST', at('/logout'))).toBe(true);
  expect(isLogout('POST', at('/bff/logout'))).toBe(true);
  expect(isLogout('POST', at('/bff/api/v1/logout-everywhere/'))).toBe(true);
  expect(isLogout('POST', at('/api/token/blacklist/'))).toBe(true);
  expect(isLogout('POST', at('/bff/api/v1/lotteries/'))).toBe(false);
  expect(isLogout('GET', at('/logout'))).toBe(false);
  expect(isLogout('POST', at('/login'))).toBe(false);
  expect(isLogout('POST', at('/my-lotteries/activate'))).toBe(false);
});

describe('the copy shown offline', () => {
  const page = (lng: Language) =>
    `<!DOCTYPE html><html lang="${lng}" dir="ltr"><head><title>x</title><link rel="manifest" href="/manifest.${lng}.webmanifest"/>` +
    '<link rel="stylesheet" href="/assets/index-S.css"/><link rel="modulepreload" href="/assets/c/my-lotteries-M.js"/></head>' +
    '<body><div id="root"><main>Tickets</main><script nonce="n1">$RC("B:0","S:0")</script></div>' +
    '<script type="application/json" id="__bh_data">{"a":1}</script><script src="/texts/en-client-H.js" defer="" nonce="n1"></script>' +
    '<script type="module" src="/assets/entry-E.js" nonce="n1"></script></body></html>';
  // 14:05 UTC is 8:05 PM in Dhaka.
  const storedAt = '2026-11-28T14:05:00.000Z';

  test('English: the banner with the Dhaka time first in the body, outside #root, and the page marked offline', () => {
    const html = offlineCopy(page('en'), storedAt, texts);
    expect(languageOf(html)).toBe('en');
    expect(html).toContain('<html data-offline="" lang="en"');
    expect(html).toContain(
      '<body><div class="offline-banner" role="status">Offline — last updated 28 Nov 2026, 8:05 PM</div><div id="root">',
    );
    expect(html).toContain('<main>Tickets</main>');
  });

  test('plain HTML: its stylesheet and inline scripts stay; the scripts it loads, its module preloads and manifest go', () => {
    const html = offlineCopy(page('en'), storedAt, texts);
    expect(html).toContain('<link rel="stylesheet" href="/assets/index-S.css"/>');
    expect(html).toContain('<script nonce="n1">$RC("B:0","S:0")</script>');
    expect(html).toContain('<script type="application/json" id="__bh_data">{"a":1}</script>');
    expect(html).not.toContain(' src=');
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('rel="manifest"');
  });

  test('Bengali: the Bengali text, date and digits', () => {
    const html = offlineCopy(page('bn'), storedAt, texts);
    expect(html).toContain('<div class="offline-banner" role="status">অফলাইন — সর্বশেষ হালনাগাদ ২৮ নভেম্বর ২০২৬, রাত ৮:০৫</div>');
  });

  test('the text is escaped', () => {
    const html = offlineCopy(page('en'), storedAt, { ...texts, en: { ...texts.en, banner: '<b>{{time}}</b>' } });
    expect(html).toContain('&#60;b&#62;28 Nov 2026, 8:05 PM&#60;/b&#62;');
  });
});

test('the offline page: in its language, with the stylesheet, a way to try again and the home page', () => {
  const html = offlinePage('bn', texts.bn, ['/assets/index-AB12.css'], '/faq?category=2');
  expect(html).toContain('<html lang="bn" dir="ltr" data-offline="">');
  expect(html).toContain('<link rel="stylesheet" href="/assets/index-AB12.css">');
  expect(html).toContain('<link rel="icon" href="/favicon.svg"'); // kept by the worker: no request for /favicon.ico
  expect(html).toContain(`<h1>${texts.bn.title}</h1>`);
  expect(html).toContain('href="/faq?category=2"');
  expect(html).toContain(`href="/">${texts.bn.home}</a>`);
});
