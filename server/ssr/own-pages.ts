import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { SESSION_COOKIE } from '../bff/session.ts';
import { acceptsGzip } from './page-cache.ts';

/**
 * A logged-in visitor's page, kept for that visitor's very request until anything is written to the database
 * (docs/decisions/020-own-pages-kept-until-a-write.md).
 *
 * - **Whose.** The key is the whole request as the page render reads it: the URL, the raw Cookie header (session,
 *   visitor, language: a page is only ever given back to the same signed cookies it was rendered for), Accept-Language,
 *   and the host and forwarded protocol and host. No other visitor can send those cookies.
 * - **Until when.** An entry records the database's write count (`Db.writes`) from before its render began and is
 *   served only while the count has not moved: any statement that may have written, any transaction, anywhere in the
 *   process (a purchase, a draw, a staff member's change to this account, a logout, a password change) ends every
 *   entry. A render during which something was written is not kept. It is never served past the session's access
 *   token (refreshed 30 s before it expires), nor past the page cache's TTL (`PAGE_CACHE_TTL_MS`), which bounds what
 *   depends on the clock alone (a sale that closes, a countdown).
 * - **What.** Only a 200 page to a GET that set no cookie, rendered without a nonce (its CSP names its inline
 *   scripts' hashes) and so holding nothing of that one response; `Cache-Control: private, no-store` as before.
 * - **Where.** Only when this process is the database's only writer: the embedded database with the API in process.
 *   On PostgreSQL another instance, or an operator, may write, and every page is rendered.
 */

export type OwnEntry = {
  /** `Db.writes()` from before the render: the entry is good while the count is the same. */
  writes: number;
  /** Not served from this moment on (ms since the epoch). */
  until: number;
  identity: Buffer;
  gzip: Buffer | null;
  /** Headers without the length and encoding (name/value pairs, flat). */
  base: string[];
  /** Whether the map holds it (its bytes are counted then). */
  kept: boolean;
};

/** The bytes the entries may hold together (bodies plain and gzip); beyond it the oldest go first. */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * zlib level of a page rendered for one visitor, sent at once (render.tsx) or kept and gzipped when first asked for:
 * zlib's fast family, in one go (docs/decisions/011-shared-pages-are-whole-responses.md).
 */
export const OWN_PAGE_GZIP_LEVEL = 3;

export class OwnPages {
  private readonly entries = new Map<string, OwnEntry>();
  private bytes = 0;

  /** `writes`: the database's write count, or null when others may write to it too (nothing is kept then). */
  constructor(
    private readonly writes: (() => number) | null,
    private readonly ttlMs: number,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  get enabled(): boolean {
    return this.writes !== null && this.ttlMs > 0;
  }

  /** The database's write count now (0 when nothing is kept). */
  count(): number {
    return this.writes?.() ?? 0;
  }

  /** What identifies a logged-in page request, from the raw request; null for what is never kept. */
  key(req: IncomingMessage & { originalUrl?: string }): string | null {
    if (!this.enabled || (req.method !== 'GET' && req.method !== 'HEAD')) return null;
    const cookie = req.headers.cookie;
    if (!cookie?.includes(SESSION_COOKIE)) return null;
    const h = req.headers;
    return `${req.originalUrl ?? req.url}\n${cookie}\n${h['accept-language'] ?? ''}\n${h.host ?? ''}\n${h['x-forwarded-proto'] ?? ''}\n${h['x-forwarded-host'] ?? ''}`;
  }

  /** The entry of a key while it is still true. */
  get(key: string): OwnEntry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.writes === this.count() && Date.now() < e.until) return e;
    this.drop(key, e);
    return undefined;
  }

  /**
   * Keeps a page rendered from `writes` on, unless something was written since; `until` is the session's own limit.
   * Returns the entry (kept or not) so that this response is sent the same way.
   */
  put(key: string, writes: number, until: number, html: string, base: string[]): OwnEntry {
    const e: OwnEntry = {
      writes,
      until: Math.min(until, Date.now() + this.ttlMs),
      identity: Buffer.from(html, 'utf8'),
      gzip: null,
      base,
      kept: false,
    };
    if (writes !== this.count() || e.until <= Date.now() || e.identity.length > this.maxBytes / 4) return e;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, e);
    e.kept = true;
    this.bytes += e.identity.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(k, v);
    }
    return e;
  }

  /** Sends a kept page: gzip when the request takes it, plain otherwise. */
  send(req: IncomingMessage, res: ServerResponse, e: OwnEntry): void {
    let body = e.identity;
    let encoding: string[] = [];
    if (acceptsGzip(req.headers['accept-encoding'])) {
      if (!e.gzip) {
        e.gzip = gzipSync(e.identity, { level: OWN_PAGE_GZIP_LEVEL });
        if (e.kept) this.bytes += e.gzip.length;
      }
      body = e.gzip;
      encoding = ['content-encoding', 'gzip'];
    }
    res.writeHead(200, [...e.base, ...encoding, 'content-length', String(body.length)]);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string, e: OwnEntry): void {
    if (this.entries.get(key) !== e) return;
    this.entries.delete(key);
    e.kept = false;
    this.bytes -= e.identity.length + (e.gzip?.length ?? 0);
  }
}

/** The headers every kept page carries besides the middleware's own (server/ssr/front.ts storedHeaders). */
export const OWN_PAGE_HEADERS = [
  'content-type',
  'text/html; charset=utf-8',
  'cache-control',
  'private, no-store',
  'vary',
  'Accept-Encoding',
];

/**
 * Right after the anonymous front: a logged-in GET that repeats a request whose page is kept and still true gets it
 * at once, without the rest of the stack. Everything else goes on.
 */
export function ownPagesFront(pages: OwnPages) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = pages.key(req);
    const e = key === null ? undefined : pages.get(key);
    if (!e) return next();
    pages.send(req, res, e);
  };
}
