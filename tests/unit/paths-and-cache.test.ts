import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { safeFrom, withQuery } from '../../shared/paths.ts';
import { CSRF_PLACEHOLDER, inlineScriptHashes, notModified, PageCache, pickEncoding, withoutToken } from '../../server/ssr/page-cache.ts';
import { safeJson } from '../../views/document.tsx';

describe('safeFrom keeps `from` on this site', () => {
  test.each([
    ['/quick-play/1/01-02-03-04-05-06', '/quick-play/1/01-02-03-04-05-06'],
    ['/profile?x=1', '/profile?x=1'],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['https://evil.example', null],
    ['javascript:alert(1)', null],
    ['', null],
    [null, null],
    // Browsers drop tabs and line breaks in URLs and read a backslash as a slash: each of these would leave the site.
    ['/\t/evil.example', null],
    ['/\n/evil.example', null],
    ['/\r\n/evil.example', null],
    ['/\u0000/evil.example', null],
    [' //evil.example', null],
    ['/ /evil.example', null],
    ['/\u00a0/evil.example', null],
    ['/\u2028/evil.example', null],
    ['/\\/evil.example', null],
    ['/..//evil.example', null],
    ['/a/..//evil.example', null],
    ['/./../..//evil.example/x', null],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    // A line break would split the Location header (a 500 before); non-ASCII is percent-encoded for the header.
    ['/faq\r\nSet-Cookie: x=1', null],
    ['/ফর্ম', '/%E0%A6%AB%E0%A6%B0%E0%A7%8D%E0%A6%AE'],
    ['/profile#top', '/profile#top'],
    ['/' + 'a'.repeat(2001), null],
  ])('%j → %j', (input, out) => expect(safeFrom(input)).toBe(out));
});

test('withQuery drops empty values', () => {
  expect(withQuery('/login', { from: '/a b', x: null, y: '' })).toBe('/login?from=%2Fa+b');
  expect(withQuery('/login', {})).toBe('/login');
});

test('safeJson cannot close its script element', () => {
  const s = safeJson({ x: '</script><script>alert(1)</script>' });
  expect(s).not.toContain('</script');
  expect(JSON.parse(s)).toEqual({ x: '</script><script>alert(1)</script>' });
});

describe('PageCache', () => {
  test('renders once per key while fresh, shares concurrent renders, refreshes after clear()', async () => {
    const cache = new PageCache(60_000);
    let renders = 0;
    const render = async () => ({ html: `<p>${++renders}</p>`, status: 200 });
    const [a, b] = await Promise.all([cache.get('k', render), cache.get('k', render)]);
    expect(renders).toBe(1);
    expect(a.html).toBe(b.html);
    expect((await cache.get('k', render)).html).toBe('<p>1</p>');
    expect(cache.peek('k')?.html).toBe('<p>1</p>');
    cache.clear();
    expect(cache.peek('k')).toBeUndefined();
    expect((await cache.get('k', render)).html).toBe('<p>2</p>');
  });
  test('does not keep error pages, and TTL 0 keeps nothing', async () => {
    const cache = new PageCache(60_000);
    let n = 0;
    expect((await cache.get('e', async () => ({ html: String(++n), status: 500 }))).shared).toBe(false);
    await cache.get('e', async () => ({ html: String(++n), status: 500 }));
    expect(n).toBe(2);
    const none = new PageCache(0);
    expect(none.enabled).toBe(false);
    await none.get('k', async () => ({ html: String(++n), status: 200 }));
    expect((await none.get('k', async () => ({ html: String(++n), status: 200 }))).html).toBe('4');
  });
  test('an entry is a whole response: no token, compressed once, ETag from its content', async () => {
    const cache = new PageCache(60_000);
    const html = `<p>hello</p><script type="application/json">{"csrf":"${CSRF_PLACEHOLDER}"}</script>`;
    const e = await cache.get('k', async () => ({ html, status: 200 }));
    expect(e.shared).toBe(true);
    expect(e.html).toBe('<p>hello</p><script type="application/json">{"csrf":""}</script>');
    expect(e.bodies?.identity.toString()).toBe(e.html);
    expect(gunzipSync(e.bodies?.gzip as Buffer).toString()).toBe(e.html);
    expect(brotliDecompressSync(e.bodies?.br as Buffer).toString()).toBe(e.html);
    expect(e.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const again = await new PageCache(60_000).get('k', async () => ({ html, status: 200 }));
    expect(again.etag).toBe(e.etag);
    const other = await new PageCache(60_000).get('k', async () => ({ html: `${html} `, status: 200 }));
    expect(other.etag).not.toBe(e.etag);
  });
  test('a page with a form (a token placeholder outside the hydration data) is not shared', async () => {
    const cache = new PageCache(60_000);
    const html = `<form method="post"><input type="hidden" name="_csrf" value="${CSRF_PLACEHOLDER}"/></form>{"csrf":"${CSRF_PLACEHOLDER}"}`;
    expect(withoutToken(html)).toBeNull();
    let n = 0;
    const render = async () => (n++, { html, status: 200 });
    expect((await cache.get('f', render)).shared).toBe(false);
    await cache.get('f', render);
    expect(n).toBe(2);
  });
  test('the hashes of the inline scripts a browser would run, and of no other script', () => {
    const run = 'console.log(1)';
    const html =
      `<script type="module" src="/assets/entry.js" async=""></script><script type="application/json" id="d">{"a":1}</script>` +
      `<script>${run}</script><script type="module">${run}2</script>`;
    const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([sha(run), sha(`${run}2`)]);
    expect(inlineScriptHashes('<p>no scripts</p>')).toEqual([]);
  });
});

test.each([
  [undefined, 'identity'],
  ['', 'identity'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br', 'br'],
  ['gzip, deflate, br, zstd', 'br'],
  ['br;q=0.5, gzip', 'gzip'],
  ['br;q=0, gzip;q=0', 'identity'],
  ['deflate', 'identity'],
  ['*', 'br'],
  ['gzip;q=0, *', 'br'],
  ['identity', 'identity'],
] as const)('Accept-Encoding %j → %s', (header, encoding) => expect(pickEncoding(header)).toBe(encoding));

test.each([
  [undefined, false],
  ['W/"abc"', true],
  ['"abc"', true],
  ['"x", W/"abc"', true],
  ['*', true],
  ['W/"abcd"', false],
] as const)('If-None-Match %j against W/"abc" → %s', (header, match) => expect(notModified(header, 'W/"abc"')).toBe(match));
