import type { NextFunction, Request, Response } from 'express';
import type { AccessClaims, Tokens } from '../accounts/tokens.ts';
import { ApiError } from './errors.ts';

declare global {
  namespace Express {
    interface Request {
      user?: AccessClaims;
    }
  }
}

/** Reads the bearer token if there is one; routes decide with requireUser/requireStaff whether it is needed. */
export function bearer(tokens: Tokens) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const h = req.headers.authorization;
    if (h?.startsWith('Bearer ')) {
      const claims = await tokens.verifyAccess(h.slice(7).trim());
      if (!claims) return next(ApiError.detail(401, req.t('api:tokenInvalid'), 'token_not_valid'));
      if (!claims.is_active) return next(ApiError.detail(401, req.t('api:accountNotActive'), 'account_not_active'));
      req.user = claims;
    }
    next();
  };
}

export function requireUser(req: Request): AccessClaims {
  if (!req.user) throw ApiError.detail(401, req.t('api:notAuthenticated'), 'not_authenticated');
  return req.user;
}

export function requireStaff(req: Request): AccessClaims {
  const u = requireUser(req);
  if (!u.is_staff) throw ApiError.detail(403, req.t('api:permissionDenied'), 'permission_denied');
  return u;
}
