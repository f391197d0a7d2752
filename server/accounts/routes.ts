import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Answer, Caller } from '../http/route.ts';
import { deviceIdOf } from './devices.ts';
import type { Accounts, Ctx, SignedIn } from './service.ts';

/** A new session's tokens; the device id goes in its header (docs/rules/api.md), for the client's next login. */
function signedIn(answer: Answer, { deviceId, ...tokens }: SignedIn): { access: string; refresh: string } {
  answer.headers['X-Device-Id'] = deviceId;
  return tokens;
}

/** What the rules need of the request: its address, and the device id it carried when well formed. */
const ctxOf = ({ ip, deviceId }: Caller): Ctx => ({ ip, deviceId: deviceIdOf(deviceId) });

/**
 * Sessions and accounts: HTTP only; the rules live in Accounts. The caller's language reaches them only for what
 * they send him (a code) or ask him (a challenge); a success's words are worded here, refusals by run()
 * (docs/decisions/064-refusals-as-data.md).
 */
export function accountRoutes(accounts: Accounts): Endpoints {
  const r = new Endpoints();
  // The device id (docs/rules/api.md): sent back on every successful login, for the client to send on its next one.
  route(r, api.login, async ({ body, caller, answer }) => {
    const { lng } = caller;
    return signedIn(answer, await accounts.login(body, ctxOf(caller), lng));
  });
  route(r, api.refresh, ({ body }) => accounts.refresh(body.refresh));
  route(r, api.logout, ({ body }) => accounts.revoke(body.refresh));
  route(r, api.logoutEverywhere, ({ user }) => accounts.endAllSessions(user.user_id));
  route(r, api.signup, async ({ body, caller }) => {
    const { t, lng } = caller;
    return { ...(await accounts.signup(body, ctxOf(caller), lng)), detail: t('api:registered') };
  });
  // The right code signs the new player in, as a login does (docs/rules/accounts-and-codes.md#3-account-verification).
  route(r, api.verifyAccount, async ({ body, caller, answer }) => {
    const { t, lng } = caller;
    return { ...signedIn(answer, await accounts.verifyAccount(body, ctxOf(caller), lng)), detail: t('api:accountVerified') };
  });
  route(r, api.resendAccountCode, async ({ body, caller }) => {
    const { t, lng } = caller;
    return { ...(await accounts.resend(body.identifier, 'account', ctxOf(caller), lng)), detail: t('api:resendSent') };
  });
  route(r, api.forgotPassword, async ({ body, caller }) => {
    const { t, lng } = caller;
    return { ...(await accounts.resend(body.identifier, 'reset', ctxOf(caller), lng)), detail: t('api:resetCodeSent') };
  });
  route(r, api.resendResetCode, async ({ body, caller }) => {
    const { t, lng } = caller;
    return { ...(await accounts.resend(body.identifier, 'reset', ctxOf(caller), lng)), detail: t('api:resetCodeSent') };
  });
  route(r, api.resetPassword, async ({ body, caller }) => {
    const { t, lng } = caller;
    await accounts.resetPassword(body, ctxOf(caller), lng);
    return { detail: t('api:passwordReset') };
  });
  route(r, api.me, ({ user }) => accounts.me(user.user_id));
  route(r, api.getUser, ({ params, user }) => accounts.profile(params.id, user));
  route(r, api.myProfile, ({ user }) => accounts.myProfile(user.user_id));
  route(r, api.updateProfile, async ({ body, user, caller: { t } }) => ({
    ...(await accounts.updateProfile(user, body)),
    detail: t('profile:api.updated'),
  }));
  return r;
}
