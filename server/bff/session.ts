import type { Request, Response } from 'express';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import type { SessionUser } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { cookieName } from '../http/csrf.ts';
import type { Upstream } from './upstream.ts';

export const SESSION_COOKIE = 'bh_session';
const Stored = z.object({ a: z.string(), r: z.string() });
const Claims = z.object({ user_id: z.number(), name: z.string(), phone: z.string().nullable(), is_staff: z.boolean(), exp: z.number() });

export type Session = { access: string; refresh: string; user: SessionUser };

export type SessionOptions = { secure: boolean; maxAgeMs: number };

/** The session cookie's name: `__Host-bh_session` with Secure cookies (production), `bh_session` on plain http. */
export const sessionCookieName = (o: Pick<SessionOptions, 'secure'>): string => cookieName(SESSION_COOKIE, o.secure);

/** Whether the request carries a session cookie at all, signed or not (valid or not): such a page is never shared. */
export const hasSessionCookie = (req: Request, o: Pick<SessionOptions, 'secure'>): boolean =>
  req.signedCookies?.[sessionCookieName(o)] !== undefined || req.cookies?.[sessionCookieName(o)] !== undefined;

function userOf(access: string): (SessionUser & { exp: number }) | null {
  try {
    const c = Claims.safeParse(decodeJwt(access));
    return c.success
      ? { user_id: c.data.user_id, name: c.data.name, phone: c.data.phone, is_staff: c.data.is_staff, exp: c.data.exp }
      : null;
  } catch {
    return null;
  }
}

export function writeSession(res: Response, tokens: { access: string; refresh: string } | null, o: SessionOptions): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: o.secure, path: '/' };
  if (!tokens) res.clearCookie(sessionCookieName(o), base);
  else
    res.cookie(sessionCookieName(o), JSON.stringify({ a: tokens.access, r: tokens.refresh }), {
      ...base,
      signed: true,
      maxAge: o.maxAgeMs,
    });
}

/** An access token this close to its expiry is refreshed before it is used. */
const REFRESH_AHEAD_MS = 30_000;

const resolved = new WeakMap<Request, Promise<Session | null>>();

/**
 * The session of this request, from the signed cookie. An access token about to expire is refreshed
 * through the API (once per request, however many loaders ask) and the cookie rewritten.
 */
export function getSession(req: Request, res: Response, upstream: Upstream, o: SessionOptions): Promise<Session | null> {
  let p = resolved.get(req);
  if (!p) {
    p = resolve(req, res, upstream, o);
    resolved.set(req, p);
  }
  return p;
}

/** After login or logout within the same request, later loaders must see the new state. */
export function setRequestSession(req: Request, s: Session | null): void {
  resolved.set(req, Promise.resolve(s));
}

export function sessionFromTokens(access: string, refresh: string): Session | null {
  const u = userOf(access);
  if (!u) return null;
  return { access, refresh, user: { user_id: u.user_id, name: u.name, phone: u.phone, is_staff: u.is_staff } };
}

async function resolve(req: Request, res: Response, upstream: Upstream, o: SessionOptions): Promise<Session | null> {
  if (req.signedCookies?.[sessionCookieName(o)] === undefined) return null;
  const stored = storedTokens(req, o);
  const u = stored ? userOf(stored.a) : null;
  if (!stored || !u) {
    writeSession(res, null, o);
    return null;
  }
  if (u.exp * 1000 - REFRESH_AHEAD_MS > Date.now()) return sessionFromTokens(stored.a, stored.r);
  return refreshed(stored.r, req, res, upstream, o);
}

/** The cookie's tokens, or null when there is no valid session cookie. */
function storedTokens(req: Request, o: SessionOptions): z.infer<typeof Stored> | null {
  const raw: unknown = req.signedCookies?.[sessionCookieName(o)];
  if (raw === undefined) return null;
  try {
    const parsed = Stored.safeParse(typeof raw === 'string' ? JSON.parse(raw) : null);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A new access token for the session now, whatever the old one's expiry: after the player changed his name or phone
 * the session shows the new ones (the token carries them). Later loaders of this request see the new session.
 */
export async function renewSession(req: Request, res: Response, upstream: Upstream, o: SessionOptions): Promise<Session | null> {
  const stored = storedTokens(req, o);
  const s = stored ? await refreshed(stored.r, req, res, upstream, o) : null;
  setRequestSession(req, s);
  return s;
}

/** Trades the refresh token for a new access token and writes the cookie; a refused refresh logs out. */
async function refreshed(
  refreshToken: string,
  req: Request,
  res: Response,
  upstream: Upstream,
  o: SessionOptions,
): Promise<Session | null> {
  const r = await upstream.endpoint(
    contract.refresh,
    { body: { refresh: refreshToken } },
    { token: null, t: req.t, lng: req.language, ip: req.ip },
  );
  const body = r.data as { access?: unknown; refresh?: unknown } | null;
  if (r.status === 200 && typeof body?.access === 'string') {
    const refresh = typeof body.refresh === 'string' ? body.refresh : refreshToken;
    writeSession(res, { access: body.access, refresh }, o);
    return sessionFromTokens(body.access, refresh);
  }
  if (r.status === 401 || r.status === 400) writeSession(res, null, o); // refresh refused: logged out
  return null;
}
