import { createGzip, gzipSync } from 'node:zlib';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { acceptsGzip } from './page-cache.ts';
import { collect, type Rendering } from './stream.ts';

/**
 * Sending a page rendered for one visitor (never stored: `Cache-Control: private, no-store`), gzip when the browser
 * takes it (docs/decisions/011-shared-pages-are-whole-responses.md, 028-streaming-render.md). Shared pages are sent
 * by front.ts.
 */

/** gzip level of a page rendered for one visitor: level 3 is most of level 6's size at a fraction of its CPU. */
export const PAGE_GZIP_LEVEL = 3;

function ownHeaders(res: ExpressResponse, status: number): void {
  res.status(status).set('Content-Type', 'text/html; charset=utf-8').set('Cache-Control', 'private, no-store').vary('Accept-Encoding');
}

/** A whole page in one go: compressed at once, with its length. */
export function sendWhole(req: ExpressRequest, res: ExpressResponse, status: number, html: Buffer): void {
  ownHeaders(res, status);
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  const body = gzip ? gzipSync(html, { level: PAGE_GZIP_LEVEL }) : html;
  if (gzip) res.set('Content-Encoding', 'gzip'); // the compression middleware leaves an encoded body alone
  res.set('Content-Length', String(body.length)).end(req.method === 'HEAD' ? undefined : body);
}

/**
 * A page whose shell is rendered. When all of it is already (nothing waits on data), it goes in one go as above;
 * otherwise it streams, chunked (no length known), through gzip when the browser takes it: React flushes the gzip
 * stream after each batch, so the shell leaves first and every later part as soon as it is rendered. A HEAD request
 * gets the headers and no render.
 */
export async function sendStreamed(req: ExpressRequest, res: ExpressResponse, status: number, page: Rendering): Promise<void> {
  if (page.ready) return sendWhole(req, res, status, await collect(page));
  ownHeaders(res, status);
  if (req.method === 'HEAD') {
    page.abort();
    res.end();
    return;
  }
  if (!acceptsGzip(req.headers['accept-encoding'])) {
    page.pipe(res);
    return;
  }
  res.set('Content-Encoding', 'gzip');
  const gzip = createGzip({ level: PAGE_GZIP_LEVEL });
  gzip.on('error', () => res.destroy());
  page.pipe(gzip).pipe(res);
}

/** A loader/action Response (redirect, or a thrown data response) is sent as it is; a 302 becomes a 303. */
export function sendResponse(res: ExpressResponse, r: Response): void {
  r.headers.forEach((v, k) => {
    if (k.toLowerCase() === 'set-cookie') res.append('Set-Cookie', v);
    else res.setHeader(k, v);
  });
  const status = r.status >= 300 && r.status < 400 && r.status !== 304 ? (r.status === 302 ? 303 : r.status) : r.status;
  res.status(status);
  if (r.body) void r.text().then((t) => res.end(t));
  else res.end();
}
