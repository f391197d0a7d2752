import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { ApiResult, SessionUser } from '../../shared/api-types.ts';
import { LoginBody, VerifyOtpBody } from '../../shared/accounts/schemas.ts';
import { ApiError, zodToFieldErrors } from '../http/errors.ts';
import { PICTURE_MAX_BYTES } from '../../shared/uploads/schemas.ts';
import { apiRouter } from '../api.ts';
import type { Logger } from '../log.ts';
import { getSession, renewSession } from './session.ts';
import type { LocalApi } from './upstream.ts';
import {
  endSession,
  loginThroughServer,
  logoutThroughServer,
  upstreamFailure,
  verifyThroughServer,
  type ServerApiDeps,
} from './server-api.ts';

/**
 * JSON for the hydrated client: the session, login/logout, and a proxy to the API that adds the bearer
 * token from the signed cookie. Every unsafe request is CSRF-checked (origin + token).
 */
export function bffRoutes(d: ServerApiDeps & { log: Logger }): Router {
  const r = Router();
  r.use(d.csrf.visitor);
  r.use((req, _res, next) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(req.method) || d.csrf.check(req)) return next();
    next(ApiError.detail(403, req.t('api:csrfFailed'), 'csrf_failed'));
  });

  r.get('/session', async (req, res) => {
    const s = await getSession(req, res, d.upstream, d.session);
    res.set('Cache-Control', 'no-store').json({ user: s?.user ?? null, csrf: d.csrf.token(req, res) });
  });
  /** A session opened through the server: the tokens go to the cookie, the page gets the user. */
  const signIn =
    <S extends z.ZodType>(schema: S, open: (req: Request, res: Response, body: z.output<S>) => Promise<ApiResult<SessionUser>>) =>
    async (req: Request, res: Response) => {
      const body = schema.safeParse(req.body, { reportInput: true });
      if (!body.success) throw ApiError.fields(zodToFieldErrors(body.error, req.t));
      const result = await open(req, res, body.data);
      if (result.ok) res.json({ user: result.data });
      else res.status(result.status).json(result.error);
    };
  r.post(
    '/session',
    express.json({ limit: '8kb' }),
    signIn(LoginBody, (req, res, body) => loginThroughServer(req, res, d, body)),
  );
  // The right sign-up code signs in as a login does (docs/rules/accounts-and-codes.md#3-account-verification).
  r.post(
    '/session/verify',
    express.json({ limit: '8kb' }),
    signIn(VerifyOtpBody, (req, res, body) => verifyThroughServer(req, res, d, body)),
  );
  r.post('/session/renew', async (req, res) => {
    const s = await renewSession(req, res, d.upstream, d.session);
    res.set('Cache-Control', 'no-store').json({ user: s?.user ?? null });
  });
  r.post('/logout', async (req, res) => {
    await logoutThroughServer(req, res, d);
    res.status(204).end();
  });

  // The API in this process: its endpoints below /bff/api, the caller being the session's user (docs/decisions/027-one-in-process-path.md).
  const local = d.upstream.local;
  if (local) {
    r.use('/api', apiRouter(local.served.values(), sessionUser(d, local), d.log));
    return r;
  }

  // The API on another server (API_BASE_URL): the request goes on with the session's token.
  const raw = express.raw({ type: () => true, limit: PICTURE_MAX_BYTES });
  r.all('/api/*rest', raw, async (req: Request, res: Response) => {
    const path = req.originalUrl.replace(/^\/bff/, '');
    // The URL parser resolves %2e%2e segments: the user's token goes to API paths only, never elsewhere on that host.
    if (!new URL(path, 'http://upstream').pathname.startsWith('/api/')) throw ApiError.detail(404, req.t('api:notFound'), 'not_found');
    const s = await getSession(req, res, d.upstream, d.session);
    const body = Buffer.isBuffer(req.body) && req.body.length ? req.body : undefined;
    const send = (token: string | null) =>
      d.upstream.call(req.method, path, {
        token,
        body,
        contentType: body ? req.get('content-type') : undefined,
        lang: req.language,
        ip: req.ip,
        // The one request header of the API's own that the proxy passes on: a retried purchase stays one purchase.
        idempotencyKey: req.get('idempotency-key'),
      });
    let upstream = await send(s?.access ?? null);
    // The API refused the session's token: the session has ended, its cookie goes (docs/rules/accounts-and-codes.md#10-sessions).
    // A read is asked again as a visitor: a public list still answers, a player's own data answers 401.
    if (upstream.status === 401 && s) {
      endSession(req, res, d.session);
      if (req.method === 'GET' || req.method === 'HEAD') upstream = await send(null);
    }
    // content-disposition: a download (the generated tickets' CSV) keeps its file name.
    for (const h of ['content-type', 'x-total-count', 'retry-after', 'cache-control', 'content-disposition'] as const) {
      const v = upstream.headers[h];
      if (typeof v === 'string') res.set(h, v);
    }
    res.status(upstream.status).send(upstream.body);
  });

  r.use((err: unknown, req: Request, res: Response, next: (e?: unknown) => void) => {
    try {
      const f = upstreamFailure(err, req.t);
      res.status(f.status).json(f.body);
    } catch {
      next(err);
    }
  });
  return r;
}

/**
 * The caller of a /bff request to the API in this process: the session's user, as the API finds him now. A session
 * the API refuses has ended (logged out, all the account's sessions ended, deactivated;
 * docs/rules/accounts-and-codes.md#10-sessions): its cookie goes, and a read goes on as a visitor's (a public list
 * still answers, a player's own data answers 401).
 */
function sessionUser(d: ServerApiDeps, local: LocalApi): RequestHandler {
  return async (req, res, next) => {
    try {
      const s = await getSession(req, res, d.upstream, d.session);
      if (s) req.user = await local.authenticate(s.access, req.t);
      next();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) return next(err);
      endSession(req, res, d.session);
      next(req.method === 'GET' || req.method === 'HEAD' ? undefined : err);
    }
  };
}
