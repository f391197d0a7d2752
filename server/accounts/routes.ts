import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Answer } from '../http/route.ts';
import { deviceIdOf } from './devices.ts';
import type { Accounts, SignedIn } from './service.ts';

/** A new session's tokens; the device id goes in its header (docs/rules/api.md), for the client's next login. */
function signedIn(answer: Answer, { deviceId, ...tokens }: SignedIn): { access: string; refresh: string } {
  answer.headers['X-Device-Id'] = deviceId;
  return tokens;
}

/** Sessions and accounts: HTTP only; the rules live in Accounts. */
export function accountRoutes(accounts: Accounts): Endpoints {
  const r = new Endpoints();
  // The device id (docs/rules/api.md): sent back on every successful login, for the client to send on its next one.
  route(r, api.login, async ({ body, caller, answer }) =>
    signedIn(answer, await accounts.login(body, { ...caller, deviceId: deviceIdOf(caller.deviceId) })),
  );
  route(r, api.refresh, ({ body, caller }) => accounts.refresh(body.refresh, caller.t));
  route(r, api.logout, ({ body }) => accounts.revoke(body.refresh));
  route(r, api.logoutEverywhere, ({ user }) => accounts.endAllSessions(user.user_id));
  route(r, api.signup, async ({ body, caller }) => ({ ...(await accounts.signup(body, caller)), detail: caller.t('api:registered') }));
  // The right code signs the new player in, as a login does (docs/rules/accounts-and-codes.md#3-account-verification).
  route(r, api.verifyAccount, async ({ body, caller, answer }) => ({
    ...signedIn(answer, await accounts.verifyAccount(body, { ...caller, deviceId: deviceIdOf(caller.deviceId) })),
    detail: caller.t('api:accountVerified'),
  }));
  route(r, api.resendAccountCode, async ({ body, caller }) => ({
    ...(await accounts.resend(body.identifier, 'account', caller)),
    detail: caller.t('api:resendSent'),
  }));
  route(r, api.forgotPassword, async ({ body, caller }) => ({
    ...(await accounts.resend(body.identifier, 'reset', caller)),
    detail: caller.t('api:resetCodeSent'),
  }));
  route(r, api.resendResetCode, async ({ body, caller }) => ({
    ...(await accounts.resend(body.identifier, 'reset', caller)),
    detail: caller.t('api:resetCodeSent'),
  }));
  route(r, api.resetPassword, async ({ body, caller }) => {
    await accounts.resetPassword(body, caller);
    return { detail: caller.t('api:passwordReset') };
  });
  route(r, api.me, ({ user, caller }) => accounts.me(user.user_id, caller.t));
  route(r, api.getUser, ({ params, user, caller }) => accounts.profile(params.id, user, caller.t));
  route(r, api.updateProfile, async ({ body, user, caller }) => ({
    ...(await accounts.updateProfile(user, body, caller)),
    detail: caller.t('profile:api.updated'),
  }));
  return r;
}
