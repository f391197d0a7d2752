import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/**
 * Anonymous pages are the same for every visitor of a language until the data changes, so they are rendered
 * once and kept for a short time (docs/rules/limits.md#5-timeouts-caches-and-housekeeping), as whole responses:
 * the HTML holds no per-visitor value (no CSP nonce, no CSRF token: a page with a form is not shared), it is
 * compressed once (gzip and br), its inline scripts are allowed by hash, and its ETag is its content hash
 * (docs/decisions/011-shared-pages-are-whole-responses.md).
 */

/** Where a form's CSRF token goes in a page rendered for sharing: finding it there means the page has a form. */
export const CSRF_PLACEHOLDER = 'BHCSRFPLACEHOLDER00000000';

export type Encoding = 'br' | 'gzip' | 'identity';
export type Rendered = { html: string; status: number };

/** A page as the cache keeps it. `shared: false` is a render that is not kept (an error, a page with a form, TTL 0). */
export type Entry = Rendered & {
  shared: boolean;
  at: number;
  /** `'sha256-…'` of each executable inline script, for the page's Content-Security-Policy. */
  scriptHashes: string[];
  etag: string;
  bodies: Record<Encoding, Buffer> | null;
  /**
   * The whole response per encoding (header name/value pairs, flat), made when the entry is first sent through
   * the middleware, whose headers it keeps (server/ssr/render.tsx); until then visitors go the long way.
   */
  wire: Record<Encoding, string[]> | null;
};

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** The `'sha256-…'` CSP source of every inline script a browser would run (not the JSON data element). */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(attrs)?.[1]?.trim().toLowerCase();
    if (type && type !== 'module' && !/^(text|application)\/(x-)?(java|ecma)script$/.test(type)) continue;
    out.push(
      `'sha256-${createHash('sha256')
        .update(m[2] ?? '')
        .digest('base64')}'`,
    );
  }
  return out;
}

/**
 * A shared page's body: the one occurrence of the token placeholder in the hydration data is emptied (the client
 * asks /bff/session for a token before its first unsafe request); one left anywhere else is a form. Null then:
 * such a page is rendered for each visitor with its own token.
 */
export function withoutToken(html: string): string | null {
  const body = html.replace(`"csrf":"${CSRF_PLACEHOLDER}"`, '"csrf":""');
  return body.includes(CSRF_PLACEHOLDER) ? null : body;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** What a request looked like (URL, language cookie or header) → the key the middleware chose for it. */
  private readonly aliases = new Map<string, string>();
  private readonly ttlMs: number;
  private readonly maxEntries;
  constructor(ttlMs: number, maxEntries = 500) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  /** With a TTL of 0 nothing is shared: every page is rendered for its visitor. */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The fresh entry of a key, if there is one. */
  peek(key: string): Entry | undefined {
    const hit = this.entries.get(key);
    return hit && Date.now() - hit.at < this.ttlMs ? hit : undefined;
  }

  /** One render per key at a time, however many visitors ask at once. */
  async get(key: string, render: () => Promise<Rendered>): Promise<Entry> {
    const hit = this.peek(key);
    if (hit) return hit;
    let p = this.inflight.get(key);
    if (!p) {
      p = render()
        .then((r) => this.prepare(r))
        .then((e) => {
          if (e.shared && this.enabled) {
            if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
            this.entries.set(key, e);
          }
          return e;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async prepare(r: Rendered): Promise<Entry> {
    const html = r.status === 200 ? withoutToken(r.html) : null;
    const scriptHashes = inlineScriptHashes(html ?? r.html);
    if (html === null) return { ...r, shared: false, at: Date.now(), scriptHashes, etag: '', bodies: null, wire: null };
    const identity = Buffer.from(html, 'utf8');
    const [gz, br] = await Promise.all([
      gzipAsync(identity, { level: 9 }),
      brotliAsync(identity, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 5,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
    ]);
    const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
    return { html, status: r.status, shared: true, at: Date.now(), scriptHashes, etag, bodies: { identity, gzip: gz, br }, wire: null };
  }

  /** Remembers which key a request like this one was given (only requests the front can recognise, see front.ts). */
  alias(signature: string, key: string): void {
    if (this.aliases.get(signature) === key) return;
    if (this.aliases.size >= 4 * this.maxEntries) this.aliases.clear();
    this.aliases.set(signature, key);
  }

  /** The fresh entry a request like this one was given last time, ready to be sent as it is. */
  lookup(signature: string): Entry | undefined {
    const key = this.aliases.get(signature);
    const e = key === undefined ? undefined : this.peek(key);
    return e?.wire ? e : undefined;
  }

  /** Called when lotteries or results change, so the next visitor sees them at once. */
  clear(): void {
    this.entries.clear();
  }
}

/** The weights an Accept-Encoding header gives br and gzip (`*` stands for both when they are not named). */
function weights(acceptEncoding: string): { br: number; gzip: number } {
  let br = -1;
  let gz = -1;
  let star = -1;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    const coding = name.trim().toLowerCase();
    if (coding === 'br') br = weight;
    else if (coding === 'gzip' || coding === 'x-gzip') gz = weight;
    else if (coding === '*') star = weight;
  }
  return { br: br < 0 ? star : br, gzip: gz < 0 ? star : gz };
}

/** Browsers send a handful of Accept-Encoding values: each is read once. */
const chosen = new Map<string, Encoding>();

/** The best encoding of an entry that the request accepts (br, then gzip, then none). */
export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  if (typeof acceptEncoding !== 'string' || !acceptEncoding) return 'identity';
  let e = chosen.get(acceptEncoding);
  if (!e) {
    const w = weights(acceptEncoding);
    e = w.br > 0 && w.br >= w.gzip ? 'br' : w.gzip > 0 ? 'gzip' : w.br > 0 ? 'br' : 'identity';
    if (chosen.size >= 200) chosen.clear();
    chosen.set(acceptEncoding, e);
  }
  return e;
}

/** Whether the request takes gzip (pages rendered for one visitor are sent gzip or plain). */
export function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  return typeof acceptEncoding === 'string' && acceptEncoding !== '' && weights(acceptEncoding).gzip > 0;
}

/** Whether If-None-Match names this ETag (weak comparison, RFC 9110 §13.1.2). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch || !etag) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
