import { Router } from 'express';
import { parseBody } from '../http/validate.ts';
import type { Accounts } from './service.ts';
import { IdentifierBody, LoginBody, RefreshBody, ResetBody, SignupBody, VerifyOtpBody } from './schemas.ts';
import type { Request } from 'express';

export const ctxOf = (req: Request) => ({ t: req.t, ip: req.ip ?? 'unknown', lng: req.language ?? 'en' });

/** Token and account endpoints (player-side spec §7), thin: rules live in Accounts. */
export function accountRoutes(accounts: Accounts): Router {
  const r = Router();
  r.post('/token/', async (req, res) => {
    res.json(await accounts.login(parseBody(req, LoginBody), ctxOf(req)));
  });
  r.post('/token/refresh/', async (req, res) => {
    res.json(await accounts.refresh(parseBody(req, RefreshBody).refresh, req.t));
  });
  r.post('/token/blacklist/', async (req, res) => {
    await accounts.revoke(parseBody(req, RefreshBody).refresh);
    res.status(204).end();
  });
  r.post('/v1/signup/', async (req, res) => {
    const out = await accounts.signup(parseBody(req, SignupBody), ctxOf(req));
    res.status(201).json({ ...out, detail: req.t('api:registered') });
  });
  r.post('/v1/verify-otp/', async (req, res) => {
    await accounts.verifyAccount(parseBody(req, VerifyOtpBody), ctxOf(req));
    res.json({ detail: req.t('api:accountVerified') });
  });
  r.post('/v1/resend-otp/', async (req, res) => {
    const { wait } = await accounts.resend(parseBody(req, IdentifierBody).identifier, 'account', ctxOf(req));
    res.json({ detail: req.t('api:codeSent'), wait });
  });
  r.post('/v1/forgot-password/', async (req, res) => {
    const { wait } = await accounts.resend(parseBody(req, IdentifierBody).identifier, 'reset', ctxOf(req));
    res.json({ detail: req.t('api:resetCodeSent'), wait });
  });
  r.post('/v1/resend-password-reset-otp/', async (req, res) => {
    const { wait } = await accounts.resend(parseBody(req, IdentifierBody).identifier, 'reset', ctxOf(req));
    res.json({ detail: req.t('api:resetCodeSent'), wait });
  });
  r.post('/v1/reset-password/', async (req, res) => {
    await accounts.resetPassword(parseBody(req, ResetBody), ctxOf(req));
    res.json({ detail: req.t('api:passwordReset') });
  });
  return r;
}
