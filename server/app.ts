import path from 'node:path';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { i18n as I18n, Resource } from 'i18next';
import * as i18nMiddleware from 'i18next-http-middleware';
import { LANG_COOKIE } from '../shared/i18n.ts';
import { safeFrom } from '../shared/paths.ts';
import { routes } from '../views/routes.tsx';
import { bffRoutes } from './bff/routes.ts';
import { Upstream } from './bff/upstream.ts';
import { SIMULATOR_CREDENTIALS, type Config } from './config.ts';
import { openDb, type Db } from './db/index.ts';
import { makePrivate, usePrivateUmask } from './db/private-files.ts';
import { createCsrf } from './http/csrf.ts';
import { headersOnce, nonceSource } from './http/headers-once.ts';
import { rejectBadHost } from './http/host.ts';
import { apiErrorHandler } from './http/errors.ts';
import { precompressed } from './http/precompressed.ts';
import { languageMiddleware } from './http/language.ts';
import { createMetrics, type MergeMetrics } from './http/metrics.ts';
import { createApi } from './api.ts';
import { keyringOf } from './crypto/sealed.ts';
import { loadSimulator } from './payments/bkash/simulator-module.ts';
import type { BkashSimulator } from '../scripts/bkash-simulator/simulator.ts';
import { setPasswordHashCost } from './accounts/passwords.ts';
import type { Deliveries } from './notify/service.ts';
import type { Messages } from './messages/service.ts';
import type { Push } from './push/service.ts';
import type { PushTransport } from './push/transport.ts';
import type { Payments } from './payments/service.ts';
import { createI18n, findUp, isLanguage, loadResources } from './i18n.ts';
import { startJobs, type JobSwitches } from './jobs.ts';
import type { GameCalendar } from './games/calendar-job.ts';
import { prepareData } from './prepare.ts';
import { buildServices } from './services.ts';
import type { PrizePayouts } from './claims/payouts.ts';
import { pageErrorHandler } from './ssr/message-page.ts';
import { createLogger, type Logger } from './log.ts';
import type { Notifier } from './notify/index.ts';
import { clientDir, manifestReader } from './ssr/assets.ts';
import { pageCacheFront } from './ssr/front.ts';
import { PageCache } from './ssr/page-cache.ts';
import { createSsr } from './ssr/render.tsx';
import { getSession } from './bff/session.ts';
import { webManifests } from './pwa/manifest.ts';
import { offlineMarks } from './pwa/offline.ts';
import { serviceWorker } from './pwa/service-worker.ts';
import { LANGUAGES } from '../shared/i18n.ts';
import { manifestPath, SW_PATH } from '../shared/app-shell.ts';
import { clientTexts, TEXTS_PATH } from './ssr/texts.ts';

export type App = {
  app: express.Express;
  /** Resolves when the work sent to the background (codes sent after the answer) is done. */
  settled(): Promise<void>;
  /**
   * The start of a stop (docs/rules/operations.md#4-stopping): /readyz answers 503 from now on, so that the load
   * balancer sends no more players here, and every answer closes its connection, so that keep-alive clients open
   * their next one elsewhere. Requests are still served.
   */
  drain(): void;
  /** The API app mounted into `app` (null when API_BASE_URL names another server). */
  api: express.Express | null;
  /** How the pages and the BFF reach the API (server/bff/upstream.ts). */
  upstream: Upstream;
  db: Db;
  log: Logger;
  pageCache: PageCache;
  /** bKash's checkout, and the simulator this process serves at /_bkash (null outside the simulator mode). */
  payments: Payments;
  /** Players' messages: the notifications and the sender of their SMS (docs/rules/messages.md). */
  messages: Messages;
  /** Push notifications to the installed app and their sender (docs/rules/messages.md#6-push-notifications). */
  push: Push;
  /** The SMS and e-mails sent, and their delivery reports (docs/rules/messages.md#7-sms-gateways). */
  deliveries: Deliveries;
  /** The games' calendar: their draws kept on sale and drawn when due (docs/rules/games.md). */
  gameCalendar: GameCalendar;
  /** Prizes paid by bKash (server/claims/payouts.ts): the tests run its part of the reconciliation themselves. */
  payouts: PrizePayouts;
  bkashSimulator: BkashSimulator | null;
  close(): Promise<void>;
};

/** Paths that are not pages (the API, the BFF, the files and the probes): the compression middleware is theirs. */
const NOT_PAGES =
  /^\/(api|bff|assets|texts|fonts|icons|locales|metrics|healthz|readyz|favicon\.svg|sw\.js|manifest\.\w+\.webmanifest)(\/|$)/;

/** With the timers' switches (server/jobs.ts JobSwitches). */
export type AppOptions = JobSwitches & {
  db?: Db;
  /** In a worker of several (server/cluster.ts): /metrics merges every worker's. */
  mergedMetrics?: MergeMetrics;
  log?: Logger;
  notifier?: Notifier;
  inMemoryDb?: boolean;
  /** How pushes are sent (tests: to a local push service); by default web-push with the configured VAPID keys. */
  pushTransport?: PushTransport;
  /**
   * The pause before bKash's client repeats a call that got no answer (200 ms, doubling, by default). The API tests
   * make it 1 ms: their bKash is mostly a closed port, and each TrxID given waited out the pauses (0.6 s).
   */
  bkashRetryDelayMs?: number;
};

/**
 * Builds the whole product (API, BFF, SSR) without listening: index.ts listens, tests drive it directly. The steps, in
 * order (docs/decisions/063-where-the-weight-is.md): the database opened, the services built (server/services.ts),
 * the start-up work on the data (server/prepare.ts), the timers started (server/jobs.ts), the HTTP app wired (below).
 */
export async function createApp(config: Config, opts: AppOptions = {}): Promise<App> {
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  setPasswordHashCost(config.PASSWORD_HASH_COST);
  // The bKash simulator (docs/rules/bkash.md#6-the-simulator), a development tool loaded only where it runs.
  const bkashSimulator =
    config.bkash.mode === 'simulator' && config.APP_ENV !== 'production'
      ? new (await loadSimulator()).BkashSimulator({ ...SIMULATOR_CREDENTIALS, receiver: config.BKASH_RECEIVER_NUMBER })
      : null;
  const db = await openData(config, log, opts);
  const keys = keyringOf(config);
  const resources = loadResources();
  const detector = new i18nMiddleware.LanguageDetector(null, {
    order: ['querystring', 'cookie', 'header'],
    lookupQuerystring: 'lng',
    lookupCookie: LANG_COOKIE,
    caches: false,
  });
  // The detector is registered before init: `use` after init never reaches i18next's services (no detection at all).
  const i18n = await createI18n(resources, [detector]);
  const services = buildServices({
    config,
    db,
    log,
    i18n,
    keys,
    notifier: opts.notifier,
    pushTransport: opts.pushTransport,
    bkashRetryDelayMs: opts.bkashRetryDelayMs,
  });
  await prepareData({ config, db, log, keys, accounts: services.accounts });
  // The timers, less those the options turn off (JobSwitches).
  const stopJobs = startJobs({ ...opts, config, db, log, services });

  const trustProxy = ['loopback', ...(config.TRUST_PROXY ? config.TRUST_PROXY.split(',').map((s) => s.trim()) : [])];
  const i18nHandler = languageMiddleware(i18n, i18nMiddleware.handle(i18n));
  // Unless API_BASE_URL names another server, the API lives here and pages call it in-process.
  const api = config.API_BASE_URL ? null : createApi({ db, log, services, i18n: i18nHandler, trustProxy });
  const upstream = new Upstream(api ? { local: api.local } : { baseUrl: config.API_BASE_URL as string }, config.UPSTREAM_TIMEOUT_MS);
  const pageCache = new PageCache(config.PAGE_CACHE_TTL_MS);
  const web = serve({
    config,
    db,
    log,
    i18n,
    i18nHandler,
    resources,
    trustProxy,
    apiApp: api?.app ?? null,
    upstream,
    pageCache,
    bkashSimulator,
    mergedMetrics: opts.mergedMetrics,
  });

  return {
    app: web.app,
    api: api?.app ?? null,
    upstream,
    settled: () => services.background.settled(),
    drain: web.drain,
    db,
    log,
    pageCache,
    payments: services.payments,
    messages: services.messages,
    deliveries: services.deliveries,
    push: services.push,
    gameCalendar: services.gameCalendar,
    payouts: services.payouts,
    bkashSimulator,
    async close() {
      // The timers' runs in progress first (they may leave work in the background), then that work, then what they use.
      await stopJobs();
      await services.background.settled();
      await services.bkash.close();
      await services.bkashPayouts.close();
      await upstream.close();
      if (!opts.db) await db.close();
    },
  };
}

/**
 * The database (the one given, or opened from the configuration) in the data folder, which is the app's alone
 * (docs/rules/security.md#11-the-data-folder): what it creates from now on, and what is there already (once the
 * embedded database has opened its files).
 */
async function openData(config: Config, log: Logger, opts: AppOptions): Promise<Db> {
  const ownData = !opts.inMemoryDb;
  if (ownData) usePrivateUmask();
  const db =
    opts.db ??
    (await openDb({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      inMemory: opts.inMemoryDb ?? false,
      pool: {
        connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
        max: config.poolMax,
        statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
        onConnectionError: (err) => log.warn({ error: err.message }, 'database connection lost; the pool opens a new one'),
      },
      onThreadEvent: (e) => {
        if (e.event === 'reopened') log.warn(e, 'the embedded database is open again');
        else
          log.error(
            e,
            e.event === 'stopped' ? "the embedded database's thread stopped: opening it again" : 'the embedded database did not open again',
          );
      },
    }));
  if (ownData) {
    const changed = makePrivate(config.DATA_DIR);
    if (changed) log.info({ changed }, 'data folder made private');
  }
  return db;
}

type ServeDeps = {
  config: Config;
  db: Db;
  log: Logger;
  i18n: I18n;
  i18nHandler: RequestHandler;
  resources: Resource;
  trustProxy: string[];
  /** The API app, mounted at /api (null when API_BASE_URL names another server). */
  apiApp: express.Express | null;
  upstream: Upstream;
  pageCache: PageCache;
  /** Mounted at /_bkash (null outside the simulator mode). */
  bkashSimulator: BkashSimulator | null;
  mergedMetrics: MergeMetrics | undefined;
};

/** The HTTP app: the middlewares in their order, the files, the probes, the simulator, the BFF and the pages. */
function serve({
  config,
  db,
  log,
  i18n,
  i18nHandler,
  resources,
  trustProxy,
  apiApp,
  upstream,
  pageCache,
  bkashSimulator,
  mergedMetrics,
}: ServeDeps) {
  const production = config.APP_ENV === 'production';
  const csrf = createCsrf(config.SECRET_KEY, production, config.PUBLIC_ORIGIN);
  const sessionOpts = { secure: production, maxAgeMs: config.REFRESH_TOKEN_TTL * 1000 };
  const root = path.dirname(findUp('package.json'));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.set('query parser', 'simple');
  // Pages say `no-store` (a user's) or carry the cache's own ETag (a shared one): a hash of every body would serve nothing.
  app.set('etag', false);

  const metrics = createMetrics({
    token: config.METRICS_TOKEN,
    production,
    db,
    ...(db.stats ? { pool: db.stats } : {}),
    ...(mergedMetrics ? { merged: mergedMetrics } : {}),
  });
  app.use(metrics.observe);
  let draining = false;
  app.use((_req, res, next) => {
    if (draining) res.setHeader('Connection', 'close');
    next();
  });
  // A malformed Host header is answered 400 before anything reads it (server/http/host.ts).
  app.use(rejectBadHost(i18nHandler));
  // An anonymous page the cache holds is answered first, with its stored headers and bytes (server/ssr/front.ts).
  app.use(pageCacheFront(pageCache));

  // A fresh nonce per response; the CSP allows only our own scripts and the nonced bootstrap (a shared page's CSP
  // names its inline scripts' hashes instead, server/ssr/front.ts).
  const nonce = nonceSource();
  app.use((_req, res, next) => {
    res.locals.cspNonce = nonce();
    next();
  });
  // helmet's headers are the same on every response but the nonce: worked out once (server/http/headers-once.ts).
  app.use(
    headersOnce(
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce as string}'`],
            styleSrc: ["'self'"],
            imgSrc: ["'self'", 'data:', 'blob:'],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            // bKash's checkout page, where the answer to "Pay with bKash" sends the player (docs/rules/payments.md).
            formAction: ["'self'", ...config.bkash.checkoutOrigins],
            // The installable app: its manifest and its service worker, both our own (docs/rules/app.md).
            manifestSrc: ["'self'"],
            workerSrc: ["'self'"],
            frameAncestors: ["'none'"],
            objectSrc: ["'none'"],
            baseUri: ["'none'"],
            upgradeInsecureRequests: production ? [] : null,
          },
        },
        strictTransportSecurity: production ? { maxAge: 31536000, includeSubDomains: true } : false,
        crossOriginEmbedderPolicy: false,
        referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      }),
    ),
  );
  // JSON is compressed per response; pages come compressed from the SSR (server/ssr/render.tsx) and do not enter the
  // middleware at all (it wraps every response it sees), built assets come precompressed.
  const compress = compression({ filter: (req, res) => !req.path.startsWith('/assets/') && compression.filter(req, res) });
  app.use((req, res, next) => (NOT_PAGES.test(req.path) ? compress(req, res, next) : next()));

  app.get('/metrics', metrics.serve);
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    if (draining) return void res.status(503).json({ status: 'shutting down' });
    try {
      await db.query('SELECT 1');
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'database unreachable' });
    }
  });

  // Static files: hashed bundles are immutable; fonts and icons change rarely.
  const assetsDir = path.join(clientDir(root), 'assets');
  app.use('/assets', precompressed(assetsDir), express.static(assetsDir, { immutable: true, maxAge: '1y', index: false }));
  app.use('/fonts', express.static(path.join(root, 'public', 'fonts'), { maxAge: '30d', index: false }));
  app.use('/locales', express.static(path.join(root, 'locales'), { maxAge: '5m', index: false }));
  // The client's texts per language, named by their hash and made at start (server/ssr/texts.ts).
  const texts = clientTexts(resources);
  app.use(TEXTS_PATH, texts.serve);
  app.get('/favicon.svg', (_req, res) => res.sendFile(path.join(root, 'public', 'favicon.svg'), { maxAge: '30d' }));
  // The installable app (docs/rules/app.md): its icons, its manifest in each language, its service worker.
  app.use('/icons', express.static(path.join(root, 'public', 'icons'), { maxAge: '30d', index: false }));
  const manifests = webManifests(resources);
  for (const lng of LANGUAGES) app.get(manifestPath(lng), manifests(lng));
  const manifest = manifestReader(path.join(clientDir(root), 'manifest.json'));
  app.get(SW_PATH, serviceWorker({ clientDir: clientDir(root), manifest, texts, resources }));

  // The bKash simulator (docs/rules/bkash.md): bKash's API and payment pages, outside production only.
  if (bkashSimulator) app.use('/_bkash', bkashSimulator.router({ control: true }));

  // Everything below needs cookies and the visitor's language; the static files above need neither.
  app.use(cookieParser(config.SECRET_KEY));
  app.use(i18nHandler);

  // Only /api requests enter the API app (entering an Express app re-parents the request's and response's prototypes).
  if (apiApp) app.use((req, res, next) => (req.path === '/api' || req.path.startsWith('/api/') ? apiApp(req, res, next) : next()));

  const deps = { upstream, session: sessionOpts, csrf };
  app.use('/bff', bffRoutes({ ...deps, log }), apiErrorHandler(log));

  // ?lng=bn switches the language: kept in a cookie so the server renders it from the first byte.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const q = req.query.lng;
    if (req.method !== 'GET' || q === undefined) return next();
    const url = new URL(req.originalUrl, 'http://x');
    url.searchParams.delete('lng');
    if (isLanguage(q)) res.cookie(LANG_COOKIE, q, { sameSite: 'lax', secure: production, path: '/', maxAge: 365 * 24 * 3600 * 1000 });
    // Back to the same page without ?lng=, and never off the site (`/a/..//evil.example?lng=bn`).
    res.redirect(303, safeFrom(url.pathname + url.search) ?? '/');
  });

  // Which pages the service worker may keep offline, and for which player (docs/rules/app.md#2-what-is-kept).
  app.use(
    offlineMarks({
      routes,
      secret: config.SECRET_KEY,
      user: async (req, res) => (await getSession(req, res, upstream, sessionOpts))?.user ?? null,
    }),
  );
  app.use(csrf.visitor);
  app.use(
    createSsr({
      ...deps,
      routes,
      i18n,
      resources,
      manifest,
      log,
      pageCache,
      texts,
      maxFormBytes: 3 * 1024 * 1024,
      site: { supportEmail: config.SUPPORT_EMAIL, supportPhone: config.SUPPORT_PHONE, supportAddress: config.SUPPORT_ADDRESS ?? null },
    }),
  );
  app.use(pageErrorHandler(log, manifest));

  return {
    app,
    drain: () => {
      draining = true;
    },
  };
}
