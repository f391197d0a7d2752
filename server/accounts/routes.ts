import { Router, type Request } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import { deviceIdOf } from './devices.ts';
import type { Accounts, Ctx } from './service.ts';

export const ctxOf = (req: Request): Ctx => ({ t: req.t, ip: req.ip ?? 'unknown', lng: req.language ?? 'en' });

/** Sessions and accounts: HTTP only; the rules live in Accounts. */
export function accountRoutes(accounts: Accounts): Router {
  const r = Router();
  // The device id (docs/rules/api.md): sent back on every successful login, for the client to send on its next one.
  route(r, api.login, async ({ body, req, res }) => {
    const { deviceId, ...tokens } = await accounts.login(body, { ...ctxOf(req), deviceId: deviceIdOf(req.get('x-device-id')) });
    res.set('X-Device-Id', deviceId);
    return tokens;
  });
  route(r, api.refresh, ({ body, req }) => accounts.refresh(body.refresh, req.t));
  route(r, api.logout, ({ body }) => accounts.revoke(body.refresh));
  route(r, api.logoutEverywhere, ({ user }) => accounts.endAllSessions(user.user_id));
  route(r, api.signup, async ({ body, req }) => ({ ...(await accounts.signup(body, ctxOf(req))), detail: req.t('api:registered') }));
  route(r, api.verifyAccount, async ({ body, req }) => {
    await accounts.verifyAccount(body, ctxOf(req));
    return { detail: req.t('api:accountVerified') };
  });
  route(r, api.resendAccountCode, async ({ body, req }) => ({
    ...(await accounts.resend(body.identifier, 'account', ctxOf(req))),
    detail: req.t('api:resendSent'),
  }));
  route(r, api.forgotPassword, async ({ body, req }) => ({
    ...(await accounts.resend(body.identifier, 'reset', ctxOf(req))),
    detail: req.t('api:resetCodeSent'),
  }));
  route(r, api.resendResetCode, async ({ body, req }) => ({
    ...(await accounts.resend(body.identifier, 'reset', ctxOf(req))),
    detail: req.t('api:resetCodeSent'),
  }));
  route(r, api.resetPassword, async ({ body, req }) => {
    await accounts.resetPassword(body, ctxOf(req));
    return { detail: req.t('api:passwordReset') };
  });
  route(r, api.me, ({ user, req }) => accounts.me(user.user_id, req.t));
  route(r, api.getUser, ({ params, user, req }) => accounts.profile(params.id, user, req.t));
  route(r, api.updateProfile, async ({ body, user, req }) => ({
    ...(await accounts.updateProfile(user, body, ctxOf(req))),
    detail: req.t('profile:api.updated'),
  }));
  return r;
}
