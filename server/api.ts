import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import http from 'node:http';
import type { DirectApi, UpstreamResponse } from './bff/upstream.ts';
import type { Db } from './db/index.ts';
import type { Logger } from './log.ts';
import { api as contract } from '../shared/api/contract.ts';
import type { Accounts } from './accounts/service.ts';
import type { Tokens } from './accounts/tokens.ts';
import { accountRoutes } from './accounts/routes.ts';
import { contactRoutes } from './contact/routes.ts';
import { Contact, type ContactMessage } from './contact/service.ts';
import type { Codes } from './accounts/codes.ts';
import { claimRoutes } from './claims/routes.ts';
import { Claims } from './claims/service.ts';
import { drawRoutes } from './draws/routes.ts';
import { Draws } from './draws/service.ts';
import { generatedTicketRoutes } from './generated-tickets/routes.ts';
import { GeneratedTickets } from './generated-tickets/service.ts';
import { bearer } from './http/auth.ts';
import type { Notifier } from './notify/index.ts';
import { ApiError, apiErrorHandler } from './http/errors.ts';
import { openApiDocument } from './http/openapi.ts';
import { endpointsOf, type Serve } from './http/route.ts';
import { liveSessionRights } from './accounts/queries.ts';
import { identityRoutes } from './identity/routes.ts';
import { Identities } from './identity/service.ts';
import { auditRoutes } from './audit/routes.ts';
import { AuditLog } from './audit/service.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { DashboardFigures } from './dashboard/service.ts';
import { LotteryAdmin } from './lotteries/admin.ts';
import { adminLotteryRoutes } from './lotteries/admin-routes.ts';
import { lotteryRoutes } from './lotteries/routes.ts';
import { Lotteries } from './lotteries/service.ts';
import { purchaseRoutes } from './purchases/routes.ts';
import { Purchases } from './purchases/service.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { adminUserRoutes } from './users/routes.ts';
import { UserAdmin } from './users/service.ts';
import { Uploads } from './uploads/service.ts';

/** Endpoints whose body is raw bytes rather than JSON (paths below /api). */
const RAW_PATHS = new Set(
  Object.values(contract)
    .filter((e) => 'raw' in e)
    .map((e) => e.path.replace(/^\/api/, '')),
);

export type ApiDeps = {
  db: Db;
  log: Logger;
  tokens: Tokens;
  accounts: Accounts;
  codes: Codes;
  notifier: Notifier;
  uploadsDir: string;
  i18n: RequestHandler;
  trustProxy: string[];
  forwardContact: ((m: ContactMessage) => Promise<unknown>) | null;
  /** The bKash account players pay into (BKASH_RECEIVER_NUMBER). */
  bkashReceiverNumber: string;
  /** The site's public origin (PUBLIC_ORIGIN), for links in messages; unset, they give the path alone. */
  publicOrigin?: string | undefined;
  /** A prize transfer of more than this many taka needs a second staff member (PAYOUT_SECOND_APPROVAL_TK). */
  payoutSecondApprovalTk: number;
};

/**
 * The lottery API (bearer JWT; every endpoint declared in shared/api/contract.ts, docs/rules/api.md) as an app of its own: mounted into the product's
 * server, and called in-process by the pages and the BFF when no API_BASE_URL is configured.
 */
export function createApi(d: ApiDeps): express.Express {
  return apiParts(d).app;
}

/** The API app, its router of endpoints, and the middleware every endpoint runs behind (language, then token). */
function apiParts(d: ApiDeps): { app: express.Express; api: express.Router; before: RequestHandler[] } {
  const api = express.Router();
  const document = openApiDocument(contract, { version: '1' });
  // The bearer-token API takes JSON only on unsafe methods (the picture upload is a raw image).
  api.use((req, _res, next) => {
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (unsafe && hasBody && !req.is('application/json') && !RAW_PATHS.has(req.path))
      return next(ApiError.detail(415, req.t('api:unsupportedMediaType'), 'unsupported_media_type'));
    next();
  });
  api.use(express.json({ limit: '32kb', strict: true, type: 'application/json' }));
  const auth = bearer(d.tokens, (sid, userId) => liveSessionRights(d.db, sid, userId));
  api.use(auth);
  api.get('/openapi.json', (_req, res) => void res.json(document));
  api.use(accountRoutes(d.accounts));
  api.use(lotteryRoutes(new Lotteries(d.db)));
  const purchases = new Purchases({ db: d.db, bkashReceiverNumber: d.bkashReceiverNumber });
  const lotteryAdmin = new LotteryAdmin(d.db);
  api.use(adminLotteryRoutes(lotteryAdmin));
  api.use(auditRoutes(new AuditLog(d.db)));
  api.use(dashboardRoutes(new DashboardFigures(d.db, lotteryAdmin, purchases)));
  api.use(purchaseRoutes(purchases));
  api.use(drawRoutes(new Draws(d.db, d.notifier, d.publicOrigin)));
  api.use(claimRoutes(new Claims({ db: d.db, codes: d.codes, notifier: d.notifier, secondApprovalTk: d.payoutSecondApprovalTk })));
  api.use(generatedTicketRoutes(new GeneratedTickets(d.db), d.db));
  api.use(uploadRoutes(new Uploads(d.db, d.uploadsDir)));
  api.use(adminUserRoutes(new UserAdmin(d.db, d.notifier)));
  api.use(identityRoutes(new Identities(d.db)));
  api.use(contactRoutes(new Contact(d.db, d.log, d.forwardContact)));
  api.use((req, _res, next) => next(ApiError.detail(404, req.t('api:notFound'), 'not_found')));
  api.use(apiErrorHandler(d.log));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', d.trustProxy);
  app.set('query parser', 'simple');
  // Language detection once: the product's server has done it already when the API is mounted there.
  const language: RequestHandler = (req, res, next) => (req.i18n ? next() : d.i18n(req, res, next));
  app.use('/api', language);
  app.use('/api', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  app.use('/api', api);
  return { app, api, before: [language, auth] };
}

/**
 * An instance of the API for in-process calls: the BFF's proxy hands it requests with light-my-request, and a page's
 * call of a contract endpoint goes straight to the endpoint (directApi). light-my-request re-parents the prototype
 * of an Express app's request and response objects, which Express shares between all apps of the process; this
 * instance gets copies of its own, so the product's real HTTP requests keep theirs.
 */
export function createInProcessApi(d: ApiDeps): { app: express.Express; direct: DirectApi } {
  const { app, api, before } = apiParts(d);
  // Its answers go to the pages and the BFF only, which read no ETag: no hash of every body.
  app.set('etag', false);
  const own = (proto: object, base: object) => Object.create(base, Object.getOwnPropertyDescriptors(proto)) as object;
  const reqProto = own(Object.getPrototypeOf(app.request) as object, http.IncomingMessage.prototype);
  const resProto = own(Object.getPrototypeOf(app.response) as object, http.ServerResponse.prototype);
  app.request = Object.create(reqProto, {
    app: { configurable: true, enumerable: true, writable: true, value: app },
  }) as typeof app.request;
  app.response = Object.create(resProto, {
    app: { configurable: true, enumerable: true, writable: true, value: app },
  }) as typeof app.response;
  return { app, direct: directApi(app, endpointsOf(api), before, apiErrorHandler(d.log)) };
}

/** A response that keeps what it is given: the answer of a direct call. */
type Kept = { chunks: Buffer[]; started: boolean; done: () => void };

/**
 * A page's call of a contract endpoint (docs/decisions/013-logged-in-pages.md): the request the HTTP way would have
 * made (method, URL, headers, JSON body; from 127.0.0.1 forwarding the visitor's address, as light-my-request sent it)
 * runs through the same language and token middleware and the endpoint's own pipeline (route() in
 * server/http/route.ts: access, input and answer schemas, handler), and errors through the same error handler; only
 * the HTTP emulation and the router's matching are left out. Endpoints with a raw body are not served here.
 */
function directApi(app: express.Express, served: Map<object, Serve>, before: RequestHandler[], onError: ErrorRequestHandler): DirectApi {
  const bytes = (chunk: unknown, encoding: unknown) =>
    Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const keeping = Object.create(app.response, {
    write: {
      value(this: Response & Kept, chunk: unknown, encoding?: unknown) {
        this.started = true;
        this.chunks.push(bytes(chunk, encoding));
        return true;
      },
    },
    end: {
      value(this: Response & Kept, chunk?: unknown, encoding?: unknown) {
        this.started = true;
        if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.chunks.push(bytes(chunk, encoding));
        this.done();
        return this;
      },
    },
    headersSent: {
      get(this: Kept) {
        return this.started;
      },
    },
  }) as object;
  function KeptResponse() {}
  KeptResponse.prototype = keeping;
  const step = (mw: RequestHandler, req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => void mw(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  const failed = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

  return (e, url, headers, json) => {
    const serve = e.raw ? undefined : served.get(e);
    if (!serve) return null;
    const req = Object.create(app.request as object, {
      method: { value: e.method, enumerable: true },
      url: { value: url, writable: true, enumerable: true },
      originalUrl: { value: url, writable: true, enumerable: true },
      headers: { value: headers, enumerable: true },
      socket: { value: { remoteAddress: '127.0.0.1', encrypted: false } },
    }) as Request;
    req.params = paramsOf(e.path, url);
    req.body = json === undefined ? undefined : (JSON.parse(json) as unknown);
    return new Promise<UpstreamResponse>((resolve, reject) => {
      const res = Reflect.construct(http.ServerResponse, [req], KeptResponse) as Response & Kept;
      res.chunks = [];
      res.started = false;
      res.locals = Object.create(null) as Response['locals'];
      res.done = () => {
        const h: UpstreamResponse['headers'] = {};
        for (const [k, v] of Object.entries(res.getHeaders())) h[k] = typeof v === 'number' ? String(v) : v;
        resolve({ status: res.statusCode, headers: h, body: Buffer.concat(res.chunks) });
      };
      req.res = res;
      const run = async () => {
        for (const mw of before) await step(mw, req, res);
        await serve(req, res);
      };
      run().catch((err: unknown) => {
        if (res.headersSent) return reject(failed(err));
        onError(err, req, res, (unhandled?: unknown) => reject(failed(unhandled)));
      });
    });
  };
}

/** Path parameters as the router gives them: each `:name` segment of the endpoint's path, decoded. */
function paramsOf(pattern: string, url: string): Record<string, string> {
  const names = pattern.split('/');
  const parts = (url.split('?', 1)[0] ?? '').split('/');
  const out: Record<string, string> = {};
  names.forEach((n, i) => {
    if (n.startsWith(':')) out[n.slice(1)] = decodeURIComponent(parts[i] ?? '');
  });
  return out;
}
