import express, { type RequestHandler } from 'express';
import type { Endpoint } from '../shared/api/endpoint.ts';
import { isLanguage } from './i18n.ts';
import type { Answered, LocalApi, Who } from './bff/upstream.ts';
import type { AccessClaims } from './accounts/tokens.ts';
import type { Db } from './db/index.ts';
import type { Logger } from './log.ts';
import { api as contract } from '../shared/api/contract.ts';
import { accountRoutes } from './accounts/routes.ts';
import { contactRoutes } from './contact/routes.ts';
import { claimRoutes } from './claims/routes.ts';
import { drawRoutes } from './draws/routes.ts';
import { generatedTicketRoutes } from './generated-tickets/routes.ts';
import { authenticate, authenticateWith, bearer } from './http/auth.ts';
import { ApiError, apiErrorHandler, errorAnswer } from './http/errors.ts';
import { openApiDocument } from './http/openapi.ts';
import { countAnswer } from './http/metrics.ts';
import { Endpoints, httpRouter, run, type Caller, type RawInput, type Served } from './http/route.ts';
import { identityRoutes } from './identity/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { adminLotteryRoutes } from './lotteries/admin-routes.ts';
import { gameRoutes } from './games/routes.ts';
import { lotteryRoutes } from './lotteries/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { statementRoutes } from './payments/statement-routes.ts';
import { playRoutes } from './play-safe/routes.ts';
import { purchaseRoutes } from './purchases/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { adminUserRoutes } from './users/routes.ts';
import { resultsRoutes } from './results/routes.ts';
import { messageRoutes } from './messages/routes.ts';
import { deliveryRoutes } from './notify/routes.ts';
import { pushRoutes } from './push/routes.ts';
import type { Services } from './services.ts';

export type ApiDeps = {
  db: Db;
  log: Logger;
  /** The services, built once by the app (server/services.ts); its start-up step and jobs use some of them too. */
  services: Services;
  i18n: RequestHandler;
  trustProxy: string[];
};

export type Api = {
  /** The API over HTTP, below /api (bearer JWT; docs/rules/api.md). */
  app: express.Express;
  /** The same endpoints for calls in this process: the pages' and the BFF's (server/bff/upstream.ts). */
  local: LocalApi;
};

/**
 * The lottery API (docs/decisions/027-one-in-process-path.md): every endpoint of shared/api/contract.ts is a plain
 * function of its caller and its input, registered once by its feature's routes.ts. Express is a thin adapter for
 * /api (and for /bff, server/bff/routes.ts); a page's call runs the same function in this process, with the same
 * access checks, schemas and error answers.
 */
export function createApi(d: ApiDeps): Api {
  const s = d.services;
  const served = Endpoints.of(
    accountRoutes(s.accounts),
    lotteryRoutes(s.lotteries),
    adminLotteryRoutes(s.lotteryAdmin),
    gameRoutes(s.games),
    auditRoutes(s.auditLog),
    dashboardRoutes(s.dashboard),
    purchaseRoutes(s.purchases, s.manualApprovals, d.db, s.runs),
    paymentRoutes(s.payments, s.agreements),
    statementRoutes(s.statements),
    drawRoutes(s.draws, s.withholdings),
    claimRoutes(s.claims, s.payouts),
    generatedTicketRoutes(s.generatedTickets, d.db),
    uploadRoutes(s.uploads),
    adminUserRoutes(s.userAdmin),
    identityRoutes(s.identities),
    playRoutes(s.play),
    messageRoutes(s.messages),
    deliveryRoutes(s.deliveries),
    pushRoutes(s.push),
    contactRoutes(s.contact),
    resultsRoutes(s.results),
  );
  const sessionRights = (sid: string, userId: number) => s.accounts.sessionRights(sid, userId);
  // Built on its first request, not at every start: it is zod's JSON Schema of every endpoint (docs/decisions/068-suite-toward-15-minutes.md).
  let document: object | undefined;
  const api = apiRouter(
    served.values(),
    bearer(s.tokens, sessionRights),
    d.log,
    () => (document ??= openApiDocument(contract, { version: '1' })),
  );

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', d.trustProxy);
  app.set('query parser', 'simple');
  // Language detection once: the product's server has done it already when the API is mounted there.
  app.use('/api', (req, res, next) => (req.i18n ? next() : d.i18n(req, res, next)));
  app.use('/api', api);

  const logUnexpected = (err: unknown) => d.log.error({ err }, 'unhandled error');
  /**
   * A page's own read started with its session's check rather than after it (READ_AHEAD): run as the signed token's
   * claims say, its statement goes to the database with the check's, one round trip where there were two. Its answer
   * is used only once the check has passed with the same rights; a check that fails answers its 401, and the read's
   * answer, or its failure, is dropped.
   */
  const readAhead = (s: Served, token: string, who: Who, raw: RawInput) => {
    const claims = d.services.tokens.verifyAccess(token);
    const outcome = claims.then((c) => (c?.is_active ? run(s, callerOf(c, who, undefined), raw) : Promise.reject(new Error('not active'))));
    outcome.catch(() => undefined);
    return { claims, outcome };
  };
  const local: LocalApi = {
    served,
    authenticate: (token, t) => authenticate(s.tokens, sessionRights, token, t),
    checkAlone: async (token, t) => ({ claims: await local.authenticate(token, t) }),
    authenticatePage: async (token, t) => {
      const { claims, now } = await authenticateWith(s.tokens, (sid, userId) => s.play.sessionTopBar(sid, userId), token, t);
      return { claims, topBar: now.topBar };
    },
    async call(e, input, who) {
      const s = served.get(e);
      try {
        if (!s) throw new Error(`${e.method} ${e.path} is not served`);
        const raw = rawInputOf(e, input);
        const ahead = who.token && who.check && READ_AHEAD.has(e) ? readAhead(s, who.token, who, raw) : null;
        const checked = who.token ? await (who.check ?? local.checkAlone)(who.token, who.t) : undefined;
        // A player's page read its top bar with its check (server/bff/server-api.ts): the top bar's call is answered
        // from that read, as the endpoint would answer it.
        if (e === contract.topBar && checked?.topBar !== undefined) {
          countAnswer(e, 200);
          return { status: 200, headers: {}, data: contract.topBar.reply.parse(checked.topBar), total: null };
        }
        const user = checked?.claims;
        const out =
          ahead && user && sameRights(await ahead.claims, user)
            ? await ahead.outcome
            : await run(s, callerOf(user, who, e.idempotent ? input.idempotencyKey : undefined), raw);
        countAnswer(e, out.status);
        return { status: out.status, headers: out.headers, data: out.json ?? null, total: out.total ?? null };
      } catch (err) {
        const a = errorAnswer(err, who.t, logUnexpected);
        countAnswer(e, a.status);
        return { status: a.status, headers: a.headers, data: a.body, total: null } satisfies Answered;
      }
    },
  };
  return { app, local };
}

/**
 * The reads a player's page makes that may start with its session's check (LocalApi.call): reads of the caller's own
 * data that write nothing, whose answer depends on who he is and on nothing the check changes.
 */
const READ_AHEAD = new Set<Endpoint>([contract.myLotteries, contract.myProfile]);

/** Whether the check found the rights the token gave: the same user, as active and as much staff. */
const sameRights = (token: AccessClaims | null, checked: AccessClaims) =>
  token !== null &&
  token.user_id === checked.user_id &&
  token.sid === checked.sid &&
  token.is_staff === checked.is_staff &&
  token.is_active === checked.is_active;

/** The caller of a call in this process: the checked user (or none), the visitor's texts, language and address. */
const callerOf = (user: AccessClaims | undefined, who: Who, idempotencyKey: string | undefined): Caller => ({
  user,
  t: who.t,
  lng: isLanguage(who.lng) ? who.lng : 'en',
  ip: who.ip ?? 'unknown',
  idempotencyKey,
  deviceId: who.deviceId,
  origin: who.origin ?? 'http://localhost',
});

/** Paths (below /api) of the endpoints whose body is raw bytes rather than JSON. */
const RAW_PATHS = new Set(
  Object.values(contract)
    .filter((e) => 'raw' in e)
    .map((e) => e.path.replace(/^\/api/, '')),
);

/**
 * The endpoints below a mount point, as /api and the BFF serve them: JSON only on unsafe methods (the picture upload
 * is a raw image), a bounded body, who the caller is (`identify`: the bearer token, or the BFF's session), no-store.
 */
export function apiRouter(served: Iterable<Served>, identify: RequestHandler, log: Logger, document?: () => object): express.Router {
  const api = express.Router();
  api.use((req, res, next) => {
    res.set('Cache-Control', 'no-store');
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (unsafe && hasBody && !req.is('application/json') && !RAW_PATHS.has(req.path))
      return next(ApiError.detail(415, req.t('api:unsupportedMediaType'), 'unsupported_media_type'));
    next();
  });
  api.use(express.json({ limit: '32kb', strict: true, type: 'application/json' }));
  api.use(identify);
  if (document) api.get('/openapi.json', (_req, res) => void res.json(document()));
  api.use(httpRouter(served));
  api.use((req, _res, next) => next(ApiError.detail(404, req.t('api:notFound'), 'not_found')));
  api.use(apiErrorHandler(log));
  return api;
}

/**
 * A call's input as HTTP would carry it: path parameters and query values as text (an empty query value left out, as
 * in its URL), the JSON body as it is, a raw body only when its type is one the endpoint takes.
 */
function rawInputOf(e: Endpoint, input: Parameters<LocalApi['call']>[1]): RawInput {
  const text = (o: Record<string, unknown> | undefined) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(o ?? {})) if (v !== undefined && v !== null && v !== '') out[k] = String(v);
    return out;
  };
  const raw = input.raw;
  return {
    params: text(input.params),
    query: text(input.query),
    body: raw ? (e.raw?.includes(raw.type.split(';')[0]?.trim().toLowerCase() ?? '') ? raw.body : undefined) : input.body,
  };
}
