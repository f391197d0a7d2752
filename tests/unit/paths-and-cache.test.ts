import { safeFrom, withQuery } from '../../shared/paths.ts';
import { CSRF_PLACEHOLDER, fill, NONCE_PLACEHOLDER, PageCache } from '../../server/ssr/page-cache.ts';
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
    cache.clear();
    expect((await cache.get('k', render)).html).toBe('<p>2</p>');
  });
  test('does not keep error pages, and TTL 0 keeps nothing', async () => {
    const cache = new PageCache(60_000);
    let n = 0;
    await cache.get('e', async () => ({ html: String(++n), status: 500 }));
    await cache.get('e', async () => ({ html: String(++n), status: 500 }));
    expect(n).toBe(2);
    const none = new PageCache(0);
    await none.get('k', async () => ({ html: String(++n), status: 200 }));
    expect((await none.get('k', async () => ({ html: String(++n), status: 200 }))).html).toBe('4');
  });
  test("fill puts this response's nonce and token into every placeholder", () => {
    const html = `<script nonce="${NONCE_PLACEHOLDER}"></script><input value="${CSRF_PLACEHOLDER}"><i>${CSRF_PLACEHOLDER}</i>`;
    expect(fill(html, 'N1', 'T1')).toBe('<script nonce="N1"></script><input value="T1"><i>T1</i>');
  });
});
