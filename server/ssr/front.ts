import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { LANG_COOKIE } from '../../shared/i18n.ts';
import { SESSION_COOKIE } from '../bff/session.ts';
import { isLanguage } from '../i18n.ts';
import { notModified, pickEncoding, type Encoding, type Entry, type PageCache } from './page-cache.ts';

/**
 * What decides which shared page a request gets, read from the raw request: the URL, the `lang` cookie, and
 * without it the Accept-Language header (the language middleware's inputs). Null when the request is not one the
 * front may answer: any session cookie (valid or not), or a `lang` cookie that is not plainly `en` or `bn`.
 * The middleware records which cache key each signature was given (server/ssr/render.tsx), so the front never
 * decides a language or a page itself: the same signature always meets the same middleware decision.
 */
export function signature(req: IncomingMessage & { originalUrl?: string }): string | null {
  const cookie = req.headers.cookie;
  let lang = '';
  if (cookie) {
    if (cookie.includes(SESSION_COOKIE)) return null;
    for (const part of cookie.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== LANG_COOKIE) continue;
      const value = part.slice(eq + 1).trim();
      if (lang || !isLanguage(value)) return null;
      lang = value;
    }
  }
  return `${req.originalUrl ?? req.url}\n${lang}\n${lang ? '' : (req.headers['accept-language'] ?? '')}`;
}

/** Headers of one response, or set for each entry below; every other header the middleware set is kept. */
const OWN = new Set([
  'set-cookie',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'content-type',
  'etag',
  'last-modified',
  'vary',
  'cache-control',
  'content-security-policy',
]);

/**
 * The headers the middleware has set on this response (helmet's security headers, Content-Language), minus those of
 * one response or set per stored page (OWN), with the CSP naming the page's script hashes in place of this response's
 * nonce. `reusable` is false when the nonce could not be taken out (the CSP then keeps this response's own nonce, and
 * the headers serve this response only): a nonce sent to everyone would be no nonce at all.
 */
export function storedHeaders(res: ServerResponse, scriptHashes: readonly string[], nonce: string): { base: string[]; reusable: boolean } {
  const base: string[] = [];
  for (const [k, v] of Object.entries(res.getHeaders())) {
    if (OWN.has(k) || v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) base.push(k, String(one));
  }
  let reusable = true;
  const csp = res.getHeader('content-security-policy');
  if (typeof csp === 'string') {
    const hashed = csp.replace(` 'nonce-${nonce}'`, scriptHashes.map((h) => ` ${h}`).join(''));
    reusable = !hashed.includes("'nonce-");
    base.push('content-security-policy', reusable ? hashed : csp);
  }
  return { base, reusable };
}

/** A shared page's response headers per encoding (see storedHeaders). */
export function headersOf(res: ServerResponse, e: Entry, nonce: string): { wire: Record<Encoding, string[]>; reusable: boolean } {
  const { base, reusable } = storedHeaders(res, e.scriptHashes, nonce);
  base.push('content-type', 'text/html; charset=utf-8', 'cache-control', 'private, no-cache', 'etag', e.etag, 'vary', 'Accept-Encoding');
  const wire = {} as Record<Encoding, string[]>;
  for (const enc of ['br', 'gzip', 'identity'] as const) {
    const length = String(e.bodies?.[enc].length ?? 0);
    wire[enc] = [...base, ...(enc === 'identity' ? [] : ['content-encoding', enc]), 'content-length', length];
  }
  return { wire, reusable };
}

/** Sends a shared page: the encoding the request accepts, or 304 when it names the page's ETag. */
export function writeEntry(req: IncomingMessage, res: ServerResponse, e: Entry, wire: Record<Encoding, string[]>): void {
  if (!e.bodies) throw new Error('a page that is not shared has no stored response');
  if (notModified(req.headers['if-none-match'], e.etag)) {
    res.writeHead(304, ['etag', e.etag, 'cache-control', 'private, no-cache', 'vary', 'Accept-Encoding']);
    res.end();
    return;
  }
  const enc = pickEncoding(req.headers['accept-encoding']);
  res.writeHead(e.status, wire[enc]);
  res.end(req.method === 'HEAD' ? undefined : e.bodies[enc]);
}

/**
 * The first middleware: an anonymous GET like one the page middleware has already answered from the cache gets the
 * same stored response (same headers, same bytes) at once, without the rest of the stack
 * (docs/decisions/011-shared-pages-are-whole-responses.md). Everything else goes on.
 */
export function pageCacheFront(cache: PageCache) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET') return next();
    const sig = signature(req);
    const e = sig === null ? undefined : cache.lookup(sig);
    if (!e?.wire) return next();
    writeEntry(req, res, e, e.wire);
  };
}
