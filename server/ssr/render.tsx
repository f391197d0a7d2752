import { gzipSync } from 'node:zlib';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { i18n as I18n, Resource } from 'i18next';
import type { Resources } from '../../shared/translate.ts';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  matchRoutes,
  RouterContextProvider,
  StaticRouter,
  StaticRouterProvider,
  type RouteObject,
  type StaticHandlerContext,
} from 'react-router';
import { LANG_COOKIE, type Language } from '../../shared/i18n.ts';
import { apiContext, localeContext, siteContext, type SiteInfo } from '../../views/context.ts';
import { I18nProvider } from '../../views/i18n.tsx';
import { FooterContent, MadeFooter } from '../../views/components/footer.tsx';
import { Document, safeJson, type SerializedError } from '../../views/document.tsx';
import type { RouteHandle } from '../../views/routes.tsx';
import { serverApi, type ServerApiDeps } from '../bff/server-api.ts';
import { hasSessionCookie, sessionValidUntil } from '../bff/session.ts';
import { CSRF_FIELD } from '../../shared/paths.ts';
import type { Logger } from '../log.ts';
import { pageAssets, type Manifest } from './assets.ts';
import { acceptsGzip, CSRF_PLACEHOLDER, inlineScriptHashes, type Entry, type PageCache } from './page-cache.ts';
import { headersOf, signature, storedHeaders, writeEntry } from './front.ts';
import { OWN_PAGE_GZIP_LEVEL, OWN_PAGE_HEADERS, type OwnPages } from './own-pages.ts';
import type { ClientTexts } from './texts.ts';

export type SsrDeps = ServerApiDeps & {
  routes: RouteObject[];
  i18n: I18n;
  resources: Resource;
  manifest: () => Manifest;
  log: Logger;
  pageCache: PageCache;
  ownPages: OwnPages;
  texts: ClientTexts;
  maxFormBytes: number;
  site: SiteInfo;
};

/** Route errors cross to the browser as plain JSON; client/entry.tsx revives them. */
export function serializeErrors(errors: StaticHandlerContext['errors']): Record<string, SerializedError> | null {
  if (!errors) return null;
  const out: Record<string, SerializedError> = {};
  for (const [id, e] of Object.entries(errors)) {
    out[id] = isRouteErrorResponse(e)
      ? { __type: 'RouteErrorResponse', status: e.status, statusText: e.statusText, data: e.data }
      : { __type: 'Error', message: 'Unexpected error' }; // internals never reach the page
  }
  return out;
}

async function readBody(req: ExpressRequest, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toHeaders(req: ExpressRequest): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return h;
}

/**
 * The footer's inside, the same for every visitor of a language, rendered once per language and year
 * (views/components/footer.tsx): outside the page's router, its links point where they do inside it.
 */
export function footerOnce(resources: Resource, site: SiteInfo): (lng: Language, of: SiteInfo) => string | undefined {
  const made = new Map<string, string>();
  return (lng, of) => {
    if (of !== site) return undefined;
    const key = `${lng}|${new Date().getFullYear()}`;
    let html = made.get(key);
    if (html === undefined) {
      html = renderToString(
        <I18nProvider language={lng} resources={resources[lng] as Resources}>
          <StaticRouter location="/">
            <FooterContent site={site} />
          </StaticRouter>
        </I18nProvider>,
      );
      made.set(key, html);
    }
    return html;
  };
}

/** Server rendering of the route tree: loaders and actions run here for the first request and no-JS posts. */
export function createSsr(d: SsrDeps) {
  const handler = createStaticHandler(d.routes);
  // Route matching ranks every branch on each call: remember the handles per path (bounded).
  const handlesByPath = new Map<string, (RouteHandle | undefined)[]>();
  const leafHandles = (pathname: string) => {
    let h = handlesByPath.get(pathname);
    if (!h) {
      h = (matchRoutes(d.routes, pathname) ?? []).map((m) => m.route.handle as RouteHandle | undefined);
      if (handlesByPath.size >= 2000) handlesByPath.clear();
      handlesByPath.set(pathname, h);
    }
    return h;
  };
  const madeFooter = footerOnce(d.resources, d.site);

  return async function ssr(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return next();
    const lng = req.language as Language;
    const chosen = typeof req.cookies?.[LANG_COOKIE] === 'string';
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);

    // Anonymous GETs of cacheable pages are rendered once per language; everything else per request.
    const handles = leafHandles(url.pathname);
    const loggedIn = hasSessionCookie(req, d.session);
    const allowed = handles.at(-1)?.cache;
    const cacheable =
      req.method === 'GET' &&
      d.pageCache.enabled &&
      !loggedIn &&
      allowed !== undefined &&
      [...url.searchParams.keys()].every((k) => allowed.includes(k));
    const key = `${lng}|${chosen ? 1 : 0}|${url.pathname}${url.search}`;

    /** A shared page as it is kept, with this response's encoding; the front (front.ts) sends the next one like it. */
    const sendShared = (e: Entry) => {
      let wire = e.wire;
      if (!wire) {
        const h = headersOf(res, e, res.locals.cspNonce as string);
        wire = h.wire;
        if (h.reusable) e.wire = wire;
      }
      const sig = signature(req);
      if (e.wire && sig !== null) d.pageCache.alias(sig, key);
      writeEntry(req, res, e, wire);
    };
    if (cacheable) {
      const hit = d.pageCache.peek(key);
      if (hit) return sendShared(hit);
    }

    let body: Buffer | undefined;
    if (req.method === 'POST') {
      const buf = await readBody(req, d.maxFormBytes);
      if (!buf) return void res.status(413).type('text/plain').send(req.t('common:errors.formTooLarge'));
      body = buf;
      try {
        const form = await new Request(url, { method: 'POST', headers: toHeaders(req), body: new Uint8Array(buf) }).formData();
        const tok = form.get(CSRF_FIELD);
        if (typeof tok === 'string') req.formCsrfToken = tok;
      } catch {
        return void res.status(400).type('text/plain').send(req.t('common:errors.badForm'));
      }
      if (!d.csrf.check(req))
        return void res
          .status(403)
          .type('text/html')
          .send(csrfFailedPage(req.t('api:csrfFailed'), lng, url.pathname));
    }

    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) controller.abort(); // the visitor left before the answer
    });
    // Loaders read the URL, and the API and the visitor's language from the context; a form post's action reads its
    // body, which needs the request's headers (Content-Type).
    const request = new Request(url, {
      method: req.method === 'HEAD' ? 'GET' : req.method,
      headers: body ? toHeaders(req) : undefined,
      body: body ? new Uint8Array(body) : null,
      signal: controller.signal,
    });

    const api = serverApi(req, res, d);
    const ctx = new RouterContextProvider();
    // A render for sharing knows no visitor: no user, and a placeholder where a form would put its token (page-cache.ts).
    let sharing = cacheable;
    ctx.set(
      apiContext,
      cacheable ? { ...api, session: async () => (sharing ? { user: null, csrf: CSRF_PLACEHOLDER } : api.session()) } : api,
    );
    ctx.set(siteContext, d.site);
    ctx.set(localeContext, {
      lng,
      chosen,
      namespace: async (ns) => (d.resources[lng]?.[ns] ?? {}) as Record<string, unknown>,
    });

    /**
     * Renders the matched routes to a whole document (the loaders have run; nothing suspends), or sends a redirect.
     * A page rendered for sharing has no nonce: its CSP allows its inline scripts by hash (page-cache.ts).
     */
    const render = async (nonce: string | undefined): Promise<{ html: string; status: number } | null> => {
      // Route middleware (the guards of views/guards.ts) runs only when the query is given a response to build:
      // the page is rendered inside, and a redirect from a guard, loader or action comes out instead of it.
      let page: { html: string; status: number } | null = null;
      const result = await handler.query(request, {
        requestContext: ctx,
        generateMiddlewareResponse: async (query) => {
          const context = await query(request);
          if (context instanceof Response) return context;
          page = await renderContext(context, nonce);
          return new Response(null, { status: page.status, headers: { [RENDERED]: '1' } });
        },
      });
      if (!(result instanceof Response)) throw new Error('the static handler answered without running middleware');
      if (page && result.headers.get(RENDERED)) return page;
      sendResponse(res, result);
      return null;
    };

    const renderContext = async (context: StaticHandlerContext, nonce: string | undefined): Promise<{ html: string; status: number }> => {
      // No route tree to convert again on every request: the static router renders the matched routes (which the
      // handler has loaded) by id through its manifest, and with an empty one takes the handler's routes themselves.
      // An error page (a 404 among them) needs the whole tree: with the empty manifest the browser did not find the
      // error boundary the server rendered and fell back to React Router's own error screen (inline styles, CSP-blocked).
      const router = createStaticRouter(context.errors ? handler.dataRoutes : NO_ROUTES, context);
      const islandsPage = (context.matches.at(-1)?.route.handle as RouteHandle | undefined)?.islands === true;
      const chunks = context.matches.map((m) => (m.route.handle as RouteHandle | undefined)?.chunk).filter((c): c is string => !!c);
      const m = d.manifest();
      const hydration = islandsPage
        ? null
        : { loaderData: context.loaderData, actionData: context.actionData, errors: serializeErrors(context.errors) };
      // The client's texts come in a script of their own (texts.ts), not in every page.
      const dataJson = `{"hydration":${safeJson(hydration)},"i18n":{"lng":"${lng}"}}`;
      const doc = (
        <Document
          lng={lng}
          assets={pageAssets(m, chunks, islandsPage)}
          dataJson={dataJson}
          texts={d.texts.src(lng, islandsPage)}
          nonce={nonce}
        >
          <I18nProvider language={lng} resources={d.resources[lng] as Resources}>
            <MadeFooter.Provider value={madeFooter}>
              <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
            </MadeFooter.Provider>
          </I18nProvider>
        </Document>
      );
      // The loaders have run and nothing suspends, so the whole page is rendered to one string in one go: no stream,
      // no chunks to encode and collect again (a render error is thrown, and answered as a server error).
      return { html: `<!DOCTYPE html>${renderToString(doc)}`, status: context.statusCode };
    };
    /** A page rendered for this response alone, with its nonce and (through the root loader) its CSRF token. */
    const renderOwn = async () => {
      sharing = false;
      const page = await render(res.locals.cspNonce as string);
      if (page) sendOwn(req, res, page);
    };

    /**
     * A logged-in GET, kept for this very request until the database is written to (own-pages.ts): rendered without a
     * nonce, its CSP naming its inline scripts' hashes, whether it is kept or not.
     */
    const renderKept = async (key: string) => {
      sharing = false;
      const writes = d.ownPages.count();
      const page = await render(undefined);
      if (!page) return;
      const nonce = res.locals.cspNonce as string;
      const { base, reusable } = storedHeaders(res, inlineScriptHashes(page.html), nonce);
      if (!reusable) return await renderOwn(); // a nonce that cannot be taken out: rendered again with it
      const until = sessionValidUntil(req, d.session);
      if (page.status === 200 && until !== null && res.getHeader('set-cookie') === undefined) {
        return d.ownPages.send(req, res, d.ownPages.put(key, writes, until, page.html, [...base, ...OWN_PAGE_HEADERS]));
      }
      const csp = base.indexOf('content-security-policy');
      if (csp >= 0) res.setHeader('Content-Security-Policy', base[csp + 1] as string);
      sendOwn(req, res, page);
    };

    try {
      if (!cacheable) {
        const ownKey = req.method === 'GET' ? d.ownPages.key(req) : null;
        return await (ownKey === null ? renderOwn() : renderKept(ownKey));
      }
      let redirected = false;
      const entry = await d.pageCache.get(key, async () => {
        const page = await render(undefined);
        if (!page) {
          redirected = true;
          return { html: '', status: 0 };
        }
        return page;
      });
      if (redirected || res.headersSent) return;
      // Not shared (another visitor's render was a redirect or an error, or the page has a form): rendered for this response.
      if (!entry.shared) return await renderOwn();
      sendShared(entry);
    } catch (err) {
      next(err);
    }
  };
}

/** A page rendered for one visitor: never stored, compressed in one go when the browser takes gzip. */
function sendOwn(req: ExpressRequest, res: ExpressResponse, page: { html: string; status: number }) {
  res.status(page.status).set('Content-Type', 'text/html; charset=utf-8').set('Cache-Control', 'private, no-store').vary('Accept-Encoding');
  const html = Buffer.from(page.html, 'utf8');
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  const body = gzip ? gzipSync(html, { level: OWN_PAGE_GZIP_LEVEL }) : html;
  if (gzip) res.set('Content-Encoding', 'gzip'); // the compression middleware leaves an encoded body alone
  res.set('Content-Length', String(body.length)).end(req.method === 'HEAD' ? undefined : body);
}

/** The static router's own copy of the route tree (docs/decisions/013-logged-in-pages.md). */
const NO_ROUTES: RouteObject[] = [];

/** Marks the response that stands for a page rendered inside the middleware chain. */
const RENDERED = 'x-bhagya-rendered';

/** A loader/action Response (redirect, or a thrown data response) is sent as it is. */
function sendResponse(res: ExpressResponse, r: Response) {
  r.headers.forEach((v, k) => {
    if (k.toLowerCase() === 'set-cookie') res.append('Set-Cookie', v);
    else res.setHeader(k, v);
  });
  const status = r.status >= 300 && r.status < 400 && r.status !== 304 ? (r.status === 302 ? 303 : r.status) : r.status;
  res.status(status);
  if (r.body) void r.text().then((t) => res.end(t));
  else res.end();
}

function csrfFailedPage(message: string, lng: Language, back: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html><html lang="${lng}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>403</title><p>${esc(message)}</p><p><a href="${esc(back)}">↻</a></p></html>`;
}
