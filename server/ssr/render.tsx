import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { i18n as I18n, Resource } from 'i18next';
import { createStaticHandler, matchRoutes, RouterContextProvider, type RouteObject } from 'react-router';
import { LANG_COOKIE, type Language } from '../../shared/i18n.ts';
import { apiContext, localeContext, siteContext, type SiteInfo } from '../../views/context.ts';
import type { RouteHandle } from '../../views/routes.tsx';
import { serverApi, unavailableIn, type ServerApiDeps } from '../bff/server-api.ts';
import { hasSessionCookie } from '../bff/session.ts';
import { UNAVAILABLE_RETRY_AFTER } from '../db/unavailable.ts';
import { setRoute } from '../http/metrics.ts';
import type { Logger } from '../log.ts';
import type { Manifest } from './assets.ts';
import { footerOnce } from './footer.tsx';
import { readFormPost, requestHeaders } from './form-body.ts';
import { headersOf, signature, writeEntry } from './front.ts';
import { pageDocument, unavailablePage } from './page.tsx';
import { CSRF_PLACEHOLDER, type Entry, type PageCache, type Rendered } from './page-cache.ts';
import { sendResponse, sendStreamed } from './send.ts';
import { collect, startRender, type Rendering } from './stream.ts';
import type { ClientTexts } from './texts.ts';

export type SsrDeps = ServerApiDeps & {
  routes: RouteObject[];
  i18n: I18n;
  resources: Resource;
  manifest: () => Manifest;
  log: Logger;
  pageCache: PageCache;
  texts: ClientTexts;
  maxFormBytes: number;
  site: SiteInfo;
};

/**
 * Server rendering of the route tree: loaders and actions run here for the first request and no-JS posts. This module
 * decides how a page is made and sent; the form post (form-body.ts), the document (page.tsx), React's stream
 * (stream.ts), sending (send.ts) and the footer (footer.tsx) are modules of their own:
 * - an anonymous GET of a page that allows it is rendered once per language and kept whole (page-cache.ts);
 * - everything else is rendered for its visitor and streamed, its shell first (docs/decisions/028-streaming-render.md).
 */
export function createSsr(d: SsrDeps) {
  const handler = createStaticHandler(d.routes);
  // Route matching ranks every branch on each call: remember the handles and the route's pattern per path (bounded).
  const matchedByPath = new Map<string, { handles: (RouteHandle | undefined)[]; pattern: string }>();
  const matched = (pathname: string) => {
    let m = matchedByPath.get(pathname);
    if (!m) {
      const found = matchRoutes(d.routes, pathname) ?? [];
      // A route's path is absolute (it replaces its parents') or relative to them (appended).
      const pattern = found.reduce(
        (at, r) => (!r.route.path ? at : r.route.path.startsWith('/') ? r.route.path : `${at.replace(/\/$/, '')}/${r.route.path}`),
        '/',
      );
      m = { handles: found.map((r) => r.route.handle as RouteHandle | undefined), pattern: found.length ? pattern : 'not found' };
      if (matchedByPath.size >= 2000) matchedByPath.clear();
      matchedByPath.set(pathname, m);
    }
    return m;
  };
  const pageDeps = {
    dataRoutes: handler.dataRoutes,
    resources: d.resources,
    manifest: d.manifest,
    texts: d.texts,
    madeFooter: footerOnce(d.resources, d.site),
  };

  return async function ssr(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return next();
    const lng = req.language as Language;
    const chosen = typeof req.cookies?.[LANG_COOKIE] === 'string';
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);

    // Anonymous GETs of cacheable pages are rendered once per language; everything else per request.
    const { handles, pattern } = matched(url.pathname);
    setRoute(res, pattern);
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
      const posted = await readFormPost(req, res, url, d);
      if (!posted) return;
      body = posted;
    }

    const controller = new AbortController();
    let rendering: Rendering | null = null;
    res.on('close', () => {
      if (res.writableEnded) return;
      controller.abort(); // the visitor left before the answer: his loaders and his render stop
      rendering?.abort();
    });
    // Loaders read the URL, and the API and the visitor's language from the context; a form post's action reads its
    // body, which needs the request's headers (Content-Type).
    const request = new Request(url, {
      method: req.method === 'HEAD' ? 'GET' : req.method,
      headers: body ? requestHeaders(req) : undefined,
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
    const onLateError = (err: unknown) => d.log.error({ err, url: req.originalUrl }, 'page render failed after its shell');

    /**
     * Runs the matched routes' middleware, loaders and action, and starts the page's render, resolved once its shell
     * (`'shell'`) or all of it (`'all'`) is rendered; or sends the redirect that came out instead (null then).
     */
    const render = async (nonce: string | undefined, wait: 'shell' | 'all'): Promise<{ status: number; page: Rendering } | null> => {
      // Route middleware (the guards of views/guards.ts) runs only when the query is given a response to build:
      // the page is rendered inside, and a redirect from a guard, loader or action comes out instead of it.
      let out: { status: number; page: Rendering } | null = null;
      const result = await handler.query(request, {
        requestContext: ctx,
        generateMiddlewareResponse: async (query) => {
          const queried = await query(request);
          if (queried instanceof Response) return queried;
          const context = unavailableIn(req) ? unavailablePage(queried, d.i18n.t('api:databaseUnavailable', { lng })) : queried;
          const page = await startRender(pageDocument(pageDeps, context, lng, nonce), { wait, nonce, onLateError });
          rendering = page;
          out = { status: context.statusCode, page };
          return new Response(null, { status: context.statusCode, headers: { [RENDERED]: '1' } });
        },
      });
      if (!(result instanceof Response)) throw new Error('the static handler answered without running middleware');
      if (out && result.headers.get(RENDERED)) return out;
      sendResponse(res, result);
      return null;
    };
    /** A page collected whole from the stream once, to be kept or to have its inline scripts hashed. */
    const renderWhole = async (): Promise<Rendered | null> => {
      const r = await render(undefined, 'all');
      return r && { status: r.status, html: (await collect(r.page)).toString('utf8') };
    };
    /** A page rendered for this response alone, with its nonce and (through the root loader) its CSRF token: streamed. */
    const renderOwn = async () => {
      sharing = false;
      const r = await render(res.locals.cspNonce as string, 'shell');
      if (!r) return;
      // A page that could not read the database says so (unavailablePage), and so does its status and Retry-After (the
      // balancer and the browser retry).
      if (unavailableIn(req)) res.set('Retry-After', UNAVAILABLE_RETRY_AFTER);
      await sendStreamed(req, res, r.status, r.page);
    };

    try {
      if (!cacheable) return await renderOwn();
      let redirected = false;
      const entry = await d.pageCache.get(key, async () => {
        const page = await renderWhole();
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

/** Marks the response that stands for a page rendered inside the middleware chain. */
const RENDERED = 'x-bhagya-rendered';
