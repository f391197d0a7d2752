import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { i18n as I18n, Resource } from 'i18next';
import {
  createStaticHandler,
  matchRoutes,
  RouterContextProvider,
  type RouteObject,
  type StaticHandler,
  type StaticHandlerContext,
} from 'react-router';
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

/** What the route tree says of a path: the matched routes' handles, and the route's pattern (for the metrics). */
export type Matched = { handles: (RouteHandle | undefined)[]; pattern: string };

/**
 * Step 1, the route: matching ranks every branch on each call, so the handles and the pattern are remembered per path
 * (at most 2000 paths, then forgotten at once).
 */
export function routeMatcher(routes: RouteObject[]): (pathname: string) => Matched {
  const matchedByPath = new Map<string, Matched>();
  return (pathname) => {
    let m = matchedByPath.get(pathname);
    if (!m) {
      const found = matchRoutes(routes, pathname) ?? [];
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
}

/**
 * Step 2, shared or own (docs/decisions/003-anonymous-page-cache.md): an anonymous GET of a page whose route allows it,
 * with only the query parameters it names, is rendered once per language and kept whole; everything else is rendered
 * for its visitor. The key names the language, whether the visitor chose it, and the address.
 */
export function sharing(
  v: { method: string; url: URL; lng: Language; chosen: boolean; loggedIn: boolean; cacheEnabled: boolean },
  handles: Matched['handles'],
): { cacheable: boolean; key: string } {
  const allowed = handles.at(-1)?.cache;
  const cacheable =
    v.method === 'GET' &&
    v.cacheEnabled &&
    !v.loggedIn &&
    allowed !== undefined &&
    [...v.url.searchParams.keys()].every((k) => allowed.includes(k));
  return { cacheable, key: `${v.lng}|${v.chosen ? 1 : 0}|${v.url.pathname}${v.url.search}` };
}

/**
 * Step 4, the Fetch request the loaders and actions read: its URL, and a form post's body with the request's headers
 * (Content-Type); a HEAD is rendered as the GET it stands for. Aborted when the visitor leaves.
 */
export function fetchRequest(req: ExpressRequest, url: URL, body: Buffer | undefined, signal: AbortSignal): Request {
  return new Request(url, {
    method: req.method === 'HEAD' ? 'GET' : req.method,
    headers: body ? requestHeaders(req) : undefined,
    body: body ? new Uint8Array(body) : null,
    signal,
  });
}

/** What running the routes came to: a page whose render has started, or a response (a redirect) to send instead. */
export type Outcome = { page: Rendering; status: number } | { response: Response };

/**
 * Step 5, the routes run: their middleware (the guards of views/guards.ts), loaders and action. The middleware runs
 * only when the query is given a response to build, so the page's render starts inside (`start`), and the response
 * that stands for it is told from a guard's, loader's or action's redirect by being that very object.
 */
export async function runRoutes(
  handler: StaticHandler,
  request: Request,
  requestContext: RouterContextProvider,
  start: (context: StaticHandlerContext) => Promise<{ page: Rendering; status: number }>,
): Promise<Outcome> {
  let started: { page: Rendering; status: number; stand: Response } | null = null;
  const result = await handler.query(request, {
    requestContext,
    generateMiddlewareResponse: async (query) => {
      const queried = await query(request);
      if (queried instanceof Response) return queried;
      const r = await start(queried);
      started = { ...r, stand: new Response(null, { status: r.status }) };
      return started.stand;
    },
  });
  if (!(result instanceof Response)) throw new Error('the static handler answered without running middleware');
  const s = started as { page: Rendering; status: number; stand: Response } | null;
  return s && result === s.stand ? { page: s.page, status: s.status } : { response: result };
}

/**
 * Server rendering of the route tree: loaders and actions run here for the first request and no-JS posts. The
 * middleware is a pipeline of steps, each a function of its own above or in a module of its own: (1) the route,
 * (2) shared or own, (3) a kept page sent as it is (front.ts), or the form post read (form-body.ts), (4) the Fetch
 * request, (5) the routes run and the document's render started (page.tsx, stream.ts), (6) the page sent: streamed
 * for its visitor, its shell first (send.ts, docs/decisions/028-streaming-render.md), or collected once and kept
 * (page-cache.ts).
 */
export function createSsr(d: SsrDeps) {
  const handler = createStaticHandler(d.routes);
  const matched = routeMatcher(d.routes);
  const pageDeps = {
    dataRoutes: handler.dataRoutes,
    resources: d.resources,
    manifest: d.manifest,
    texts: d.texts,
    madeFooter: footerOnce(d.resources, d.site),
  };

  /** Step 3: a shared page as it is kept, with this response's encoding; the front (front.ts) sends the next one like it. */
  const sendShared = (req: ExpressRequest, res: ExpressResponse, e: Entry, key: string) => {
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

  /** The context the loaders read: the API, the site, the visitor's language. */
  const routerContext = (api: ReturnType<typeof serverApi>, lng: Language, chosen: boolean) => {
    const ctx = new RouterContextProvider();
    ctx.set(apiContext, api);
    ctx.set(siteContext, d.site);
    ctx.set(localeContext, { lng, chosen, namespace: async (ns) => (d.resources[lng]?.[ns] ?? {}) as Record<string, unknown> });
    return ctx;
  };

  return async function ssr(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return next();
    const lng = req.language as Language;
    const chosen = typeof req.cookies?.[LANG_COOKIE] === 'string';
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);

    const { handles, pattern } = matched(url.pathname);
    setRoute(res, pattern);
    const loggedIn = hasSessionCookie(req, d.session);
    const { cacheable, key } = sharing({ method: req.method, url, lng, chosen, loggedIn, cacheEnabled: d.pageCache.enabled }, handles);
    if (cacheable) {
      const hit = d.pageCache.peek(key);
      if (hit) return sendShared(req, res, hit, key);
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
    const request = fetchRequest(req, url, body, controller.signal);

    const api = serverApi(req, res, d);
    // A render for sharing knows no visitor: no user, and a placeholder where a form would put its token (page-cache.ts).
    let forSharing = cacheable;
    const ctx = routerContext(
      cacheable ? { ...api, session: async () => (forSharing ? { user: null, csrf: CSRF_PLACEHOLDER } : api.session()) } : api,
      lng,
      chosen,
    );
    const onLateError = (err: unknown) => d.log.error({ err, url: req.originalUrl }, 'page render failed after its shell');

    /**
     * Step 5: the routes run and the page's render started, resolved once its shell (`'shell'`) or all of it
     * (`'all'`) is rendered; or the redirect that came out instead sent (null then).
     */
    const render = async (nonce: string | undefined, wait: 'shell' | 'all'): Promise<{ status: number; page: Rendering } | null> => {
      const outcome = await runRoutes(handler, request, ctx, async (context) => {
        if (unavailableIn(req)) context = unavailablePage(context, d.i18n.t('api:databaseUnavailable', { lng }));
        const page = await startRender(pageDocument(pageDeps, context, lng, nonce), { wait, nonce, onLateError });
        rendering = page;
        return { status: context.statusCode, page };
      });
      if ('page' in outcome) return outcome;
      sendResponse(res, outcome.response);
      return null;
    };
    /** Step 6, shared: a page collected whole from the stream once, to be kept or to have its inline scripts hashed. */
    const renderWhole = async (): Promise<Rendered | null> => {
      const r = await render(undefined, 'all');
      return r && { status: r.status, html: (await collect(r.page)).toString('utf8') };
    };
    /** Step 6, own: a page rendered for this response alone, with its nonce and (through the root loader) its CSRF token: streamed. */
    const renderOwn = async () => {
      forSharing = false;
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
      sendShared(req, res, entry, key);
    } catch (err) {
      next(err);
    }
  };
}
