import type { NextFunction, Request, Response } from 'express';
import type { TFunction } from 'i18next';
import type { AccessClaims, Tokens } from '../accounts/tokens.ts';
import { ApiError } from './errors.ts';

/** What the database says of a user now: a token carries the rights of the moment it was issued. */
export type Rights = { is_active: boolean; is_staff: boolean };
/**
 * The user's rights now, and whether his session `sid` is live (not logged out, expired or ended with all his
 * sessions); undefined when he is gone. One indexed query (server/accounts/queries.ts liveSessionRights).
 */
export type SessionRights = (sid: string, userId: number) => Promise<(Rights & { live: boolean }) | undefined>;

declare global {
  namespace Express {
    interface Request {
      /** The caller, with his rights as the database has them now (not as his token said). */
      user?: AccessClaims;
    }
  }
}

/**
 * The user an access token stands for, on every call that carries one, GET too: the database is asked once whether
 * the token's session is still live and what the user's rights are now (docs/rules/accounts-and-codes.md#10-sessions,
 * docs/rules/security.md#1-the-api-enforces-every-permission). A session that was logged out, or ended with all the
 * account's sessions (a password change or reset, a deactivation, "log out everywhere"), is refused at once on every
 * instance, as is a deactivated or deleted user; staff who lost the right have lost it. Throws the 401 to answer.
 */
export async function authenticate(tokens: Tokens, sessionRights: SessionRights, token: string, t: TFunction): Promise<AccessClaims> {
  return (await authenticateWith(tokens, sessionRights, token, t)).claims;
}

/**
 * authenticate, with the session read by `read`, which may read more in the same statement (a player's page reads its
 * top bar with it: server/bff/server-api.ts); what it read comes back as `now`, and only for a session that passed.
 */
export async function authenticateWith<S extends Rights & { live: boolean }>(
  tokens: Tokens,
  read: (sid: string, userId: number) => Promise<S | undefined>,
  token: string,
  t: TFunction,
): Promise<{ claims: AccessClaims; now: S }> {
  const claims = await tokens.verifyAccess(token);
  if (!claims) throw ApiError.detail(401, t('api:tokenInvalid'), 'token_not_valid');
  if (!claims.is_active) throw ApiError.detail(401, t('api:accountNotActive'), 'account_not_active');
  const now = await read(claims.sid, claims.user_id);
  if (!now) throw ApiError.detail(401, t('api:tokenInvalid'), 'token_not_valid');
  if (!now.is_active) throw ApiError.detail(401, t('api:accountDisabled'), 'account_disabled');
  if (!now.live) throw ApiError.detail(401, t('api:tokenInvalid'), 'token_not_valid');
  return { claims: { ...claims, is_active: now.is_active, is_staff: now.is_staff }, now };
}

/** Reads the bearer token if there is one (authenticate); each endpoint's access decides whether it is needed. */
export function bearer(tokens: Tokens, sessionRights: SessionRights) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const h = req.headers.authorization;
    if (!h?.startsWith('Bearer ')) return next();
    try {
      req.user = await authenticate(tokens, sessionRights, h.slice(7).trim(), req.t);
      next();
    } catch (err) {
      next(err);
    }
  };
}
