import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { LoginBody, VerifyOtpBody } from '../../shared/accounts/schemas.ts';
import type { ApiClient } from '../../shared/api-client.ts';
import { api as contract } from '../../shared/api/contract.ts';
import type { ApiErrorBody, ApiResult, SessionUser } from '../../shared/api-types.ts';
import type { Csrf } from '../http/csrf.ts';
import {
  getSession,
  renewSession,
  sessionFromTokens,
  setRequestSession,
  writeSession,
  type Session,
  type SessionOptions,
} from './session.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { isStaffPath } from '../../shared/paths.ts';
import { Upstream, UpstreamError, type Answered, type Checked, type LocalApi, type LocalInput, type Who } from './upstream.ts';

export type ServerApiDeps = { upstream: Upstream; session: SessionOptions; csrf: Csrf };

/** A failed upstream call as the client sees it: a timeout is a clear 504, not a hang. */
export function upstreamFailure(err: unknown, t: Request['t']): { status: number; body: ApiErrorBody } {
  if (err instanceof UpstreamError) {
    return err.kind === 'timeout'
      ? { status: 504, body: { detail: t('api:upstreamTimeout'), code: 'timeout' } }
      : { status: 502, body: { detail: t('api:upstreamUnreachable'), code: 'unreachable' } };
  }
  throw err;
}

export function toResult<T>(r: Answered): ApiResult<T> {
  const data = r.data;
  if (r.status >= 200 && r.status < 300) return { ok: true, status: r.status, data: data as T, total: r.total };
  return { ok: false, status: r.status, error: (data && typeof data === 'object' ? data : { detail: String(r.status) }) as ApiErrorBody };
}

/** Logs in against the API and keeps the tokens in the signed HttpOnly cookie; shared by SSR actions and /bff. */
export const loginThroughServer = (req: Request, res: Response, d: ServerApiDeps, credentials: z.input<typeof LoginBody>) =>
  signInThroughServer(req, res, d, contract.login, credentials);

/**
 * Checks the sign-up code against the API: the right one signs in as a login does, the tokens kept in the same cookie
 * (docs/rules/accounts-and-codes.md#3-account-verification); shared by SSR actions and /bff.
 */
export const verifyThroughServer = (req: Request, res: Response, d: ServerApiDeps, body: z.input<typeof VerifyOtpBody>) =>
  signInThroughServer(req, res, d, contract.verifyAccount, body);

async function signInThroughServer<E extends typeof contract.login | typeof contract.verifyAccount>(
  req: Request,
  res: Response,
  d: ServerApiDeps,
  e: E,
  body: z.input<E['body']>,
): Promise<ApiResult<SessionUser>> {
  // The browser's signed id is its device id: a browser that logged in before is not held back by failures from
  // elsewhere (docs/decisions/025-limits-for-shared-addresses.md).
  const r = await d.upstream.endpoint(e, { body } as LocalInput, { ...whoOf(req, null), deviceId: req.visitorId });
  const tokens = r.data as { access?: unknown; refresh?: unknown } | null;
  if (r.status === 200 && typeof tokens?.access === 'string' && typeof tokens.refresh === 'string') {
    const s = sessionFromTokens(tokens.access, tokens.refresh);
    if (s) {
      writeSession(res, { access: s.access, refresh: s.refresh }, d.session);
      setRequestSession(req, s);
      return { ok: true, status: 200, data: s.user, total: null };
    }
  }
  return toResult<SessionUser>({ ...r, status: r.status === 200 ? 502 : r.status });
}

export async function logoutThroughServer(req: Request, res: Response, d: ServerApiDeps): Promise<void> {
  const s = await getSession(req, res, d.upstream, d.session);
  if (s) await d.upstream.endpoint(contract.logout, { body: { refresh: s.refresh } }, whoOf(req, null)).catch(() => undefined);
  writeSession(res, null, d.session);
  setRequestSession(req, null);
}

/**
 * The API refused the session's token (401): the session has ended (logged out, all the account's sessions ended,
 * the account deactivated; docs/rules/accounts-and-codes.md#10-sessions). The cookie goes, and the rest of this
 * request sees no session.
 */
export function endSession(req: Request, res: Response, o: ServerApiDeps['session']): void {
  if (sessionsEnded.has(req)) return;
  writeSession(res, null, o);
  setRequestSession(req, null);
  sessionsEnded.add(req);
}

const sessionsEnded = new WeakSet<Request>();

/** Whether an API call of this request found its session ended (endSession). */
export const sessionEndedIn = (req: Request): boolean => sessionsEnded.has(req);

const unavailable = new WeakSet<Request>();

/**
 * Whether an API call of this request found the database out of reach (503 `unavailable`): the page that shows the
 * message is answered 503 too (docs/rules/operations.md#5-when-the-database-goes-away).
 */
export const unavailableIn = (req: Request): boolean => unavailable.has(req);

/** The server transport of ApiClient: SSR loaders and actions call the API with the user's token. */
/** The visitor as the API sees him: the session's token, his language and address. */
export const whoOf = (req: Request, token: string | null): Who => ({
  token,
  t: req.t,
  lng: req.language,
  ip: req.ip,
  origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
});

/**
 * The token check of a page's API calls, once per page request rather than once per call: the session's liveness and
 * the user's rights as the database has them when the request's first call is made. On a player's page the check reads
 * the top bar in the same statement, and the root loader's call for it is answered from there
 * (LocalApi.authenticatePage): a page makes one statement fewer. A call that writes is checked on its own and forgets
 * the kept check, so a call after a write (a logout, the end of every session, a change of rights, "Continue
 * playing") is checked, and the top bar read, again.
 */
const checks = new WeakMap<Request, { token: string; checked: Promise<Checked> }>();

function checkOnce(req: Request, local: LocalApi): NonNullable<Who['check']> {
  return (token, t) => {
    const kept = checks.get(req);
    if (kept?.token === token) return kept.checked;
    // The back office's pages show no reality check (views/components/reality-check.tsx topBarFor).
    const checked = isStaffPath(req.path) ? local.checkAlone(token, t) : local.authenticatePage(token, t);
    checks.set(req, { token, checked });
    return checked;
  };
}

/** An upstream failure (timeout, unreachable) as an error result, not a throw. */
async function orFailure<T>(req: Request, call: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  try {
    return await call();
  } catch (err) {
    const f = upstreamFailure(err, req.t);
    return { ok: false, status: f.status, error: f.body };
  }
}

export function serverApi(req: Request, res: Response, d: ServerApiDeps): ApiClient {
  const local = d.upstream.local;
  /** Who makes a call: a read shares the request's token check, a write is checked alone and forgets it. */
  const who = (e: Endpoint, s: Session | null): Who => {
    if (e.method === 'GET' && local) return { ...whoOf(req, s?.access ?? null), check: checkOnce(req, local) };
    checks.delete(req);
    return whoOf(req, s?.access ?? null);
  };
  const written = (e: Endpoint) => {
    if (e.method !== 'GET') checks.delete(req);
  };
  /**
   * One API call with the user's token: an upstream failure (timeout, unreachable) is an error result, not a throw.
   * A token refused with 401 ends the session here too (endSession); a read is then asked again as a visitor, so that
   * a public page still shows and a player's page gets its own 401.
   */
  const send = async <T>(request: (s: Session | null) => Promise<Answered>, read: boolean): Promise<ApiResult<T>> => {
    const s = await getSession(req, res, d.upstream, d.session);
    try {
      let r = await request(s);
      if (r.status === 503) unavailable.add(req);
      if (r.status === 401 && s) {
        endSession(req, res, d.session);
        if (read) r = await request(null);
      }
      return toResult<T>(r);
    } catch (err) {
      const f = upstreamFailure(err, req.t);
      return { ok: false, status: f.status, error: f.body };
    }
  };
  return {
    call: (e, ...[input]) =>
      send((s) => d.upstream.endpoint(e, (input ?? {}) as LocalInput, who(e, s)).finally(() => written(e)), e.method === 'GET'),
    upload: async (e, file, query) => {
      const raw = { body: Buffer.from(await file.arrayBuffer()), type: file.type };
      return send((s) => d.upstream.endpoint(e, { raw, ...(query ? { query } : {}) }, who(e, s)).finally(() => written(e)), false);
    },
    login: (body) => orFailure(req, () => loginThroughServer(req, res, d, body)),
    verifyAccount: (body) => orFailure(req, () => verifyThroughServer(req, res, d, body)),
    logout: () => logoutThroughServer(req, res, d),
    sessionEnded: () => sessionEndedIn(req),
    session: async () => ({ user: (await getSession(req, res, d.upstream, d.session))?.user ?? null, csrf: d.csrf.token(req, res) }),
    renewSession: async () => {
      try {
        await renewSession(req, res, d.upstream, d.session);
      } catch {
        // The change is made; the old name shows until the token renews on its own.
      }
    },
  };
}
