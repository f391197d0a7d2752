/**
 * The render floor under a logged-in page (bench/traffic.ts starts it, docs/decisions/044): a bare `node:http` server,
 * in a process of its own, that renders one page of the app for every request from its data already in hand. No
 * Express, no middleware, no cookie, no session, no database: per request only what no implementation of the page on
 * this stack can leave out — react-router's static query of the matched routes (their loaders answered from the data
 * in hand), React's streamed render of the very document the app sends (server/ssr/page.tsx, with a fresh nonce), gzip
 * at the app's level, and the answer with the app's headers.
 *
 * The parent sends the app's captured answer of the page (`{ url, status, rawHeaders, body }`, base64, gzip or plain);
 * the page's loader data is read from the hydration data in it. With `add`, the answer is added to those it has, and
 * each request renders the next of them in turn (each player's own page, bench/traffic.ts); without, it is the only one. The process answers `{ port }` when it listens and
 * `{ set, bytes }` when it serves a page; it ends when its parent goes. Run by the bench with NODE_ENV=production.
 */
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createStaticHandler, type DataStrategyResult, type StaticHandlerContext } from 'react-router';
import { DATA_ELEMENT_ID } from '../views/document.tsx';
import { routes } from '../views/routes.tsx';
import type { SiteInfo } from '../views/context.ts';
import { isLanguage, loadResources } from '../server/i18n.ts';
import { nonceSource } from '../server/http/headers-once.ts';
import { clientDir, manifestReader } from '../server/ssr/assets.ts';
import { footerOnce } from '../server/ssr/footer.tsx';
import { acceptsGzip } from '../server/ssr/page-cache.ts';
import { pageDocument } from '../server/ssr/page.tsx';
import { PAGE_GZIP_LEVEL } from '../server/ssr/send.ts';
import { collect, startRender } from '../server/ssr/stream.ts';
import { clientTexts } from '../server/ssr/texts.ts';
import type { Language } from '../shared/i18n.ts';
import { root, withoutFraming } from './lib.ts';

type Page = { url: string; status: number; rawHeaders: string[]; body: string; add?: boolean };
type Served = { url: string; headers: string[]; loaderData: Record<string, unknown>; lng: Language };

const resources = loadResources();
const handler = createStaticHandler(routes);
const nonce = nonceSource();
let served: Served[] = [];
let turn = 0;
let deps: Parameters<typeof pageDocument>[0] | null = null;

/** The page's loader data, from the hydration data the app put in it (views/document.tsx). */
function loaderDataOf(html: string): { loaderData: Record<string, unknown>; lng: string } {
  const start = html.indexOf(`id="${DATA_ELEMENT_ID}">`);
  if (start < 0) throw new Error('the page carries no hydration data (an islands page cannot be rendered from it)');
  const from = start + `id="${DATA_ELEMENT_ID}">`.length;
  const data = JSON.parse(html.slice(from, html.indexOf('</script>', from))) as {
    hydration: { loaderData: Record<string, unknown> } | null;
    i18n: { lng: string };
  };
  if (!data.hydration) throw new Error('the page carries no loader data');
  return { loaderData: data.hydration.loaderData, lng: data.i18n.lng };
}

function serve(p: Page): number {
  const body = Buffer.from(p.body, 'base64');
  const encoding = p.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'content-encoding');
  const html = (encoding >= 0 && p.rawHeaders[encoding + 1] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
  // The framing is this server's own; the CSP names the nonce of each answer, and the encoding is each answer's.
  const headers = withoutFraming(p.rawHeaders, ['content-security-policy', 'content-encoding']);
  const { loaderData, lng } = loaderDataOf(html);
  if (!isLanguage(lng)) throw new Error(`the page's language ${lng} is not one of the app's`);
  // The footer is made once per language for the app's own site details (server/ssr/footer.tsx): the root loader's
  // copy of them is the object it is made for, as in the app.
  const site = (Object.values(loaderData)[0] as { site: SiteInfo }).site;
  deps = {
    dataRoutes: handler.dataRoutes,
    resources,
    manifest: manifestReader(`${clientDir(root)}/manifest.json`),
    texts: clientTexts(resources),
    madeFooter: footerOnce(resources, site),
  };
  const page = { url: p.url, headers, loaderData, lng };
  served = p.add ? [...served, page] : [page];
  return html.length;
}

/** The page's routes queried as the app queries them, their loaders answered from the data in hand. */
async function contextFor(s: Served): Promise<StaticHandlerContext> {
  const context = await handler.query(new Request(s.url), {
    dataStrategy: async ({ matches }) => {
      const results = await Promise.all(matches.map((m) => m.resolve(async () => s.loaderData[m.route.id] ?? null)));
      return Object.fromEntries(matches.map((m, i) => [m.route.id, results[i] as DataStrategyResult]));
    },
  });
  if (context instanceof Response) throw new Error(`the query answered ${context.status}`);
  return context;
}

const server = http.createServer((req, res) => {
  const s = served[turn++ % Math.max(1, served.length)];
  const d = deps;
  if (!s || !d) return void res.writeHead(503).end();
  void (async () => {
    const n = nonce();
    const context = await contextFor(s);
    const page = await startRender(pageDocument(d, context, s.lng, n), { wait: 'shell', nonce: n, onLateError: () => undefined });
    const html = await collect(page);
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const out = gzip ? gzipSync(html, { level: PAGE_GZIP_LEVEL }) : html;
    const headers = [...s.headers, 'Content-Security-Policy', `script-src 'self' 'nonce-${n}'`, 'Content-Length', String(out.length)];
    if (gzip) headers.push('Content-Encoding', 'gzip');
    res.writeHead(context.statusCode, headers);
    res.end(out);
  })().catch((err: unknown) => {
    console.error('render floor:', err);
    res.writeHead(500).end();
  });
});

server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
process.on('message', (m: Page) => {
  try {
    process.send?.({ set: true, bytes: serve(m) });
  } catch (err) {
    process.send?.({ set: false, error: err instanceof Error ? err.message : String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
// Ends as the app ends, so that a CPU profile (BENCH_NODE_ARGS) is written.
process.on('SIGTERM', () => process.exit(0));
