/**
 * The client's texts as scripts of their own (server/ssr/texts.ts): one per language and set of namespaces, named by
 * their content, served compressed and cached for good.
 */
import type { Request, Response } from 'express';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CLIENT_NAMESPACES, ISLAND_NAMESPACES, TEXTS_GLOBAL } from '../../shared/i18n.ts';
import { loadResources } from '../../server/i18n.ts';
import { clientTexts, TEXTS_PATH } from '../../server/ssr/texts.ts';

const resources = loadResources();
const texts = clientTexts(resources);

/** Serves one request to the texts' handler and records the answer. */
function get(path: string, o: { method?: string; encoding?: string } = {}) {
  const out = { status: 0, headers: {} as Record<string, string>, body: undefined as Buffer | string | undefined, next: false };
  const res = {
    writeHead(status: number, h: string[]) {
      out.status = status;
      for (let i = 0; i < h.length; i += 2) out.headers[h[i] as string] = h[i + 1] as string;
    },
    end(b?: Buffer) {
      out.body = b;
    },
    status(s: number) {
      out.status = s;
      return res;
    },
    type() {
      return res;
    },
    send(b: string) {
      out.body = b;
    },
  };
  const req = { method: o.method ?? 'GET', path, headers: o.encoding ? { 'accept-encoding': o.encoding } : {} };
  texts.serve(req as unknown as Request, res as unknown as Response, () => void (out.next = true));
  return out;
}

/** What the script sets when a browser runs it. */
function run(source: string): Record<string, unknown> {
  const self: Record<string, unknown> = {};
  runInNewContext(source, { self });
  return self[TEXTS_GLOBAL] as Record<string, unknown>;
}

test('a script per language and set, named by its content, under /texts/', () => {
  const srcs = [texts.src('en', false), texts.src('en', true), texts.src('bn', false), texts.src('bn', true)];
  expect(new Set(srcs).size).toBe(4);
  for (const s of srcs) expect(s).toMatch(new RegExp(`^${TEXTS_PATH}(en|bn)-(client|islands)-[A-Za-z0-9_-]{16}\\.js$`));
  expect(clientTexts(resources).src('bn', false)).toBe(texts.src('bn', false)); // the same texts, the same name
  const changed = structuredClone(resources);
  (changed.bn?.common as Record<string, unknown>).brand = 'ভাগ্য!';
  expect(clientTexts(changed).src('bn', false)).not.toBe(texts.src('bn', false));
  expect(clientTexts(changed).src('en', false)).toBe(texts.src('en', false));
});

test("the script sets the page's namespaces of its language, and nothing else", () => {
  for (const [islands, namespaces] of [
    [false, CLIENT_NAMESPACES],
    [true, ISLAND_NAMESPACES],
  ] as const) {
    const r = get(texts.src('bn', islands).slice(TEXTS_PATH.length - 1));
    expect(r.status).toBe(200);
    const set = run((r.body as Buffer).toString('utf8'));
    expect(Object.keys(set).sort()).toEqual([...namespaces].sort());
    expect(set.common).toEqual(resources.bn?.common);
  }
  expect(Object.keys(run((get(texts.src('en', false).slice(TEXTS_PATH.length - 1)).body as Buffer).toString()))).not.toContain('admin');
});

test('served as br, gzip or plain, cached for good; HEAD without a body; an unknown name is a 404', () => {
  const path = texts.src('en', false).slice(TEXTS_PATH.length - 1);
  const plain = get(path);
  expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(plain.headers['content-encoding']).toBeUndefined();
  const gz = get(path, { encoding: 'gzip, deflate' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gz.body as Buffer)).toEqual(plain.body);
  const br = get(path, { encoding: 'gzip, deflate, br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.body as Buffer)).toEqual(plain.body);
  expect(Number(br.headers['content-length'])).toBe((br.body as Buffer).length);
  expect(get(path, { method: 'HEAD' }).body).toBeUndefined();
  expect(get('/en-client-AAAAAAAAAAAAAAAA.js').status).toBe(404);
  expect(get(path, { method: 'POST' }).next).toBe(true);
});
