import type { NextFunction, Request, Response } from 'express';
import type { AccessClaims, Tokens } from '../accounts/tokens.ts';
import { ApiError } from './errors.ts';

/** What the database says of a user now: a token carries the rights of the moment it was issued. */
export type Rights = { is_active: boolean; is_staff: boolean };
export type RightsOf = (userId: number) => Promise<Rights | undefined>;

declare global {
  namespace Express {
    interface Request {
      user?: AccessClaims;
      /** The caller's rights as the database has them now (read once per request, when asked). */
      currentRights?: () => Promise<Rights | undefined>;
    }
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads the bearer token if there is one; routes decide with requireUser/requireStaff whether it is needed.
 * A token stays valid until it expires, but rights do not: every unsafe request checks the user in the database,
 * so a deactivated or deleted user, or staff who lost the right, loses it on the next such request
 * (docs/rules/security.md#1-the-api-enforces-every-permission). Staff reads check it too (requireCurrentStaff).
 */
export function bearer(tokens: Tokens, rightsOf: RightsOf) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const h = req.headers.authorization;
    if (!h?.startsWith('Bearer ')) return next();
    const claims = await tokens.verifyAccess(h.slice(7).trim());
    if (!claims) return next(ApiError.detail(401, req.t('api:tokenInvalid'), 'token_not_valid'));
    if (!claims.is_active) return next(ApiError.detail(401, req.t('api:accountNotActive'), 'account_not_active'));
    let rights: Promise<Rights | undefined> | undefined;
    req.currentRights = () => (rights ??= rightsOf(claims.user_id));
    req.user = claims;
    if (SAFE.has(req.method)) return next();
    try {
      req.user = await current(req, claims);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The claims with the rights of now; a user who is gone or deactivated is refused as his token is. */
async function current(req: Request, claims: AccessClaims): Promise<AccessClaims> {
  const now = await req.currentRights?.();
  if (!now) throw ApiError.detail(401, req.t('api:tokenInvalid'), 'token_not_valid');
  if (!now.is_active) throw ApiError.detail(401, req.t('api:accountDisabled'), 'account_disabled');
  return { ...claims, is_active: now.is_active, is_staff: now.is_staff };
}

export function requireUser(req: Request): AccessClaims {
  if (!req.user) throw ApiError.detail(401, req.t('api:notAuthenticated'), 'not_authenticated');
  return req.user;
}

/** Staff only, as the database says now (not as the token said when it was issued). */
export async function requireCurrentStaff(req: Request): Promise<AccessClaims> {
  const u = await current(req, requireUser(req));
  if (!u.is_staff) throw ApiError.detail(403, req.t('api:permissionDenied'), 'permission_denied');
  req.user = u;
  return u;
}
