import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { doubleCsrf } from 'csrf-csrf';

/**
 * A cookie's name in this deployment. With Secure cookies (production, HTTPS) it carries the `__Host-` prefix:
 * browsers then accept it only when it is Secure, has Path=/ and no Domain, so neither a sibling subdomain nor a
 * plain-http page can plant or overwrite it. Without Secure (plain http://localhost in development and tests)
 * browsers refuse `__Host-` cookies, so the bare name is kept there. The session, visitor and CSRF cookies use it.
 */
export const cookieName = (name: string, secure: boolean): string => (secure ? `__Host-${name}` : name);

declare global {
  namespace Express {
    interface Request {
      visitorId?: string;
      /** The token a form post carried in its body (SSR parses the body itself). */
      formCsrfToken?: string;
    }
  }
}

/** Takes back a Set-Cookie of this response for one cookie name. */
function dropCookie(res: Response, name: string): void {
  const set = res.getHeader('set-cookie');
  const all = typeof set === 'string' ? [set] : Array.isArray(set) ? set : [];
  const rest = all.filter((c) => !c.startsWith(`${name}=`));
  if (rest.length === all.length) return;
  if (rest.length) res.setHeader('Set-Cookie', rest);
  else res.removeHeader('Set-Cookie');
}

/**
 * CSRF in layers (docs/rules/security.md#4-csrf): SameSite cookies, the request's own origin checked on every unsafe
 * request, and a double-submit token (csrf-csrf) bound to a per-browser id: hidden field in forms,
 * `x-csrf-token` header from the hydrated client.
 */
export function createCsrf(secret: string, secure: boolean, publicOrigin: string | undefined) {
  const visitorCookie = cookieName('bh_vid', secure);
  const csrfCookie = cookieName('bh_csrf', secure);
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: () => `csrf:${secret}`,
    getSessionIdentifier: (req) => req.visitorId ?? '',
    cookieName: csrfCookie,
    cookieOptions: { sameSite: 'lax', secure, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req) => req.headers['x-csrf-token'] ?? req.formCsrfToken ?? null,
  });

  /** Reads the browser's stable random id (HttpOnly) that its CSRF token is bound to, when it has one. */
  const visitor = (req: Request, _res: Response, next: NextFunction) => {
    const v: unknown = req.signedCookies?.[visitorCookie];
    if (typeof v === 'string' && /^[A-Za-z0-9_-]{22}$/.test(v)) req.visitorId = v;
    next();
  };

  /**
   * A browser gets its id with its first token, i.e. with the first page that has a form (or the first /bff/session):
   * a shared page without forms sets no cookie (docs/decisions/011-shared-pages-are-whole-responses.md).
   */
  const issueVisitor = (req: Request, res: Response) => {
    req.visitorId = randomBytes(16).toString('base64url');
    res.cookie(visitorCookie, req.visitorId, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: 365 * 24 * 3600 * 1000,
    });
  };

  /** Unsafe requests must come from our own pages: Sec-Fetch-Site where the browser sends it, else Origin. */
  const sameOrigin = (req: Request): boolean => {
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string') return site === 'same-origin' || site === 'none';
    const origin = req.headers.origin;
    if (!origin) return true; // non-browser clients and old browsers: the token still decides
    const own = publicOrigin ?? `${req.protocol}://${req.get('host')}`;
    return origin === own;
  };

  // One token per request, however many loaders ask: a second one would replace the cookie of the first.
  const issued = new WeakMap<Request, string>();
  const token = (req: Request, res: Response): string => {
    let tok = issued.get(req);
    if (!tok) {
      if (!req.visitorId) issueVisitor(req, res);
      tok = generateCsrfToken(req, res, { overwrite: false, validateOnReuse: false });
      // csrf-csrf sets its cookie every time, even when it only gives back the token the browser holds (a session
      // cookie: setting it again changes nothing): it is left out.
      if ((req.cookies as Record<string, unknown> | undefined)?.[csrfCookie] === tok) dropCookie(res, csrfCookie);
      issued.set(req, tok);
    }
    return tok;
  };

  return {
    visitor,
    token,
    /** True when an unsafe request passes both the origin check and the token check (bound to a visitor id it has). */
    check: (req: Request) => req.visitorId !== undefined && sameOrigin(req) && validateRequest(req),
  };
}
export type Csrf = ReturnType<typeof createCsrf>;
