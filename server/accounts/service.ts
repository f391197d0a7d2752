import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { uniqueViolation, type Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { hit, LIMITS } from '../http/rate-limit.ts';
import { NotifyError, type Notifier } from '../notify/index.ts';
import { identifierKind, isEmail, normalisePhone } from '../../shared/validation.ts';
import { CODE_RULES, isCodeFormat } from '../../shared/one-time-codes.ts';
import type { Codes, Purpose } from './codes.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import type { LoginBody, ResetBody, SignupBody, VerifyOtpBody } from './schemas.ts';
import type { Tokens } from './tokens.ts';

export type UserRow = {
  id: number; name: string; email: string | null; phone: string | null; password_hash: string; location: string;
  picture_id: string | null; is_active: boolean; is_staff: boolean; is_superuser: boolean;
  phone_confirmed: boolean; email_confirmed: boolean; date_joined: string;
};

type Ctx = { t: TFunction; ip: string; lng: string };

export type AccountsDeps = { db: Db; tokens: Tokens; codes: Codes; notifier: Notifier };

/** Identifier (phone or e-mail) → the canonical key stored on users; null when it is neither. */
export function canonicalIdentifier(raw: string): { kind: 'phone' | 'email'; value: string } | null {
  const kind = identifierKind(raw.trim());
  if (kind === 'phone') {
    const p = normalisePhone(raw.trim());
    return p ? { kind, value: p } : null;
  }
  if (kind === 'email') return { kind, value: raw.trim().toLowerCase() };
  return null;
}

const tooMany = (t: TFunction, wait: number) =>
  new ApiError(429, { detail: t('api:tooManyRequests', { seconds: wait }), code: 'throttled', wait }, { 'Retry-After': String(wait) });

export class Accounts {
  constructor(private readonly d: AccountsDeps) {}

  async findByIdentifier(raw: string): Promise<UserRow | undefined> {
    const id = canonicalIdentifier(raw);
    if (!id) return undefined;
    return this.d.db.one<UserRow>(`SELECT * FROM users WHERE ${id.kind === 'phone' ? 'phone' : 'email'} = $1`, [id.value]);
  }

  async findById(id: number): Promise<UserRow | undefined> {
    return this.d.db.one<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  }

  private async throttle(keys: [string, { max: number; windowSec: number }][], t: TFunction) {
    for (const [key, limit] of keys) {
      const wait = await hit(this.d.db, key, limit);
      if (wait) throw tooMany(t, wait);
    }
  }

  async login(body: z.infer<typeof LoginBody>, ctx: Ctx): Promise<{ access: string; refresh: string }> {
    const id = canonicalIdentifier(body.phone);
    await this.throttle([[`login:ip:${ctx.ip}`, LIMITS.loginPerIp], [`login:id:${id?.value ?? body.phone.toLowerCase()}`, LIMITS.loginPerIdentifier]], ctx.t);
    const user = id ? await this.findByIdentifier(body.phone) : undefined;
    const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyHash()));
    if (!user || !ok) throw ApiError.detail(401, ctx.t('api:invalidCredentials'), 'no_active_account');
    if (!user.is_active) {
      if (user.phone_confirmed || user.email_confirmed) throw ApiError.detail(401, ctx.t('api:accountDisabled'), 'account_disabled');
      // Never verified: send a code now if the wait allows, so the verification page has one to check.
      if ((await this.d.codes.waitBeforeResend(user.id, 'account')) === 0) await this.sendCode(user, 'account', ctx);
      throw ApiError.detail(401, ctx.t('api:accountNotActive'), 'account_not_active', { identifier: user.phone ?? user.email });
    }
    return this.issueTokens(user);
  }

  async issueTokens(user: UserRow): Promise<{ access: string; refresh: string }> {
    const access = await this.d.tokens.signAccess(user);
    const refresh = await this.d.tokens.signRefresh(user.id);
    await this.d.db.query('INSERT INTO refresh_tokens (jti, user_id, expires_at) VALUES ($1, $2, $3)', [refresh.jti, user.id, refresh.expiresAt.toISOString()]);
    return { access, refresh: refresh.token };
  }

  /**
   * A new access token for a valid refresh token. The refresh token is not rotated: parallel requests of one
   * browser may refresh at the same moment, and rotation would log them out; logout and a password reset revoke it.
   */
  async refresh(token: string, t: TFunction): Promise<{ access: string; refresh: string }> {
    const invalid = () => ApiError.detail(401, t('api:tokenInvalid'), 'token_not_valid');
    const claims = await this.d.tokens.verifyRefresh(token);
    if (!claims) throw invalid();
    const live = await this.d.db.one('SELECT jti FROM refresh_tokens WHERE jti = $1 AND revoked_at IS NULL AND expires_at > now()', [claims.jti]);
    const user = live ? await this.findById(claims.user_id) : undefined;
    if (!user || !user.is_active) throw invalid();
    return { access: await this.d.tokens.signAccess(user), refresh: token };
  }

  async revoke(token: string): Promise<void> {
    const claims = await this.d.tokens.verifyRefresh(token);
    if (claims) await this.d.db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL', [claims.jti]);
  }

  async signup(body: z.infer<typeof SignupBody>, ctx: Ctx): Promise<{ user_id: number; identifier: string }> {
    await this.throttle([[`signup:ip:${ctx.ip}`, LIMITS.signupPerIp]], ctx.t);
    const errors: Record<string, string[]> = {};
    const emailRaw = body.email?.trim() || null;
    const phoneRaw = body.phone?.trim() || null;
    const email = emailRaw ? emailRaw.toLowerCase() : null;
    const phone = phoneRaw ? normalisePhone(phoneRaw) : null;
    if (!email && !phoneRaw) errors.non_field_errors = [ctx.t('api:phoneOrEmail')];
    if (emailRaw && !isEmail(emailRaw)) errors.email = [ctx.t('api:emailInvalid')];
    if (phoneRaw && !phone) errors.phone = [ctx.t('api:phoneInvalid')];
    if (Object.keys(errors).length) throw ApiError.fields(errors);

    const clash = await this.d.db.query<UserRow>('SELECT * FROM users WHERE (email = $1 AND $1 IS NOT NULL) OR (phone = $2 AND $2 IS NOT NULL)', [email, phone]);
    // An account that was never verified does not hold its phone or e-mail: signing up again takes it over.
    const pending = clash.filter((u) => !u.is_active && !u.phone_confirmed && !u.email_confirmed);
    const taken = clash.filter((u) => !pending.includes(u));
    for (const u of taken) {
      if (email && u.email === email) (errors.email ??= []).push(ctx.t('api:emailTaken'));
      if (phone && u.phone === phone) (errors.phone ??= []).push(ctx.t('api:phoneTaken'));
    }
    if (Object.keys(errors).length) throw ApiError.fields(errors);

    const hash = await hashPassword(body.password);
    try {
      const user = await this.d.db.tx(async (tx) => {
        for (const u of pending) await tx.query('DELETE FROM users WHERE id = $1', [u.id]);
        const created = await tx.one<UserRow>(
          `INSERT INTO users (name, email, phone, password_hash, location) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [body.name, email, phone, hash, body.location ?? ''],
        );
        if (!created) throw new Error('insert returned nothing');
        if (body.picture) {
          // Only an unclaimed profile upload can become the picture.
          const pic = await tx.one('UPDATE uploads SET owner_id = $1 WHERE id = $2 AND owner_id IS NULL AND kind = $3 RETURNING id', [created.id, body.picture, 'profile']);
          if (!pic) throw ApiError.fields({ picture: [ctx.t('api:pictureInvalid')] });
          await tx.query('UPDATE users SET picture_id = $1 WHERE id = $2', [body.picture, created.id]);
        }
        return created;
      });
      await this.sendCode(user, 'account', ctx);
      return { user_id: user.id, identifier: (user.phone ?? user.email) as string };
    } catch (err) {
      const c = uniqueViolation(err);
      if (c !== null) throw ApiError.fields(c.includes('email') ? { email: [ctx.t('api:emailTaken')] } : { phone: [ctx.t('api:phoneTaken')] });
      throw err;
    }
  }

  private async sendCode(user: UserRow, purpose: Purpose, ctx: Ctx): Promise<void> {
    const code = await this.d.codes.issue(user.id, purpose);
    const channel = user.phone ? 'sms' : 'email';
    const to = (user.phone ?? user.email) as string;
    const minutes = 10;
    const text = ctx.t(purpose === 'account' ? 'api:codeTextAccount' : 'api:codeTextReset', { code, minutes, lng: ctx.lng });
    const subject = ctx.t(purpose === 'account' ? 'api:codeSubjectAccount' : 'api:codeSubjectReset', { lng: ctx.lng });
    try {
      await this.d.notifier.sendCode({ channel, to, purpose, code, subject, text });
    } catch (err) {
      if (err instanceof NotifyError) throw ApiError.detail(503, ctx.t('api:sendFailed'), 'send_failed');
      throw err;
    }
  }

  private codeError(result: Exclude<Awaited<ReturnType<Codes['check']>>, 'ok'>, t: TFunction): ApiError {
    const key = result === 'expired' ? 'api:otpExpired' : result === 'exhausted' ? 'api:otpExhausted' : result === 'none' ? 'api:otpNone' : 'api:otpWrong';
    return ApiError.fields({ otp: [t(key)] });
  }

  async verifyAccount(body: z.infer<typeof VerifyOtpBody>, ctx: Ctx): Promise<void> {
    if (!isCodeFormat('account', body.otp)) throw ApiError.fields({ otp: [ctx.t('api:otpFiveDigits')] });
    const id = canonicalIdentifier(body.identifier);
    await this.throttle([[`code:ip:${ctx.ip}`, LIMITS.codePerIp], [`code:id:${id?.value ?? body.identifier}`, LIMITS.codePerIdentifier]], ctx.t);
    const user = await this.findByIdentifier(body.identifier);
    if (!user) throw ApiError.fields({ otp: [ctx.t('api:otpWrong')] });
    if (user.is_active) throw ApiError.detail(400, ctx.t('api:alreadyVerified'), 'already_verified');
    const result = await this.d.codes.check(user.id, 'account', body.otp);
    if (result !== 'ok') throw this.codeError(result, ctx.t);
    // The code proves the channel it was sent to (the phone when there is one, see sendCode), not the identifier typed here.
    await this.d.db.query(
      `UPDATE users SET is_active = true, phone_confirmed = phone_confirmed OR $2, email_confirmed = email_confirmed OR $3, updated_at = now() WHERE id = $1`,
      [user.id, user.phone !== null, user.phone === null],
    );
  }

  /** Sends (or resends) a code; `wait` is how long the page should count down before offering resend. */
  async resend(identifier: string, purpose: 'account' | 'reset', ctx: Ctx): Promise<{ wait: number }> {
    const id = canonicalIdentifier(identifier);
    if (!id) throw ApiError.fields({ identifier: [ctx.t('api:identifierInvalid')] });
    await this.throttle([[`send:ip:${ctx.ip}`, LIMITS.codePerIp], [`send:id:${id.value}`, LIMITS.codePerIdentifier]], ctx.t);
    const user = await this.findByIdentifier(identifier);
    const wait = CODE_RULES[purpose].resendAfterSec;
    if (purpose === 'account') {
      if (!user) throw ApiError.detail(404, ctx.t('api:accountNotFound'), 'not_found');
      if (user.is_active) throw ApiError.detail(400, ctx.t('api:alreadyVerified'), 'already_verified');
    }
    // For password reset the answer is the same whether or not the account exists (no account probing),
    // the resend wait included: it is kept per identifier, so a 429 does not tell that an account is there.
    if (purpose === 'reset') {
      const left = await hit(this.d.db, `reset-wait:${id.value}`, { max: 1, windowSec: wait });
      if (left) throw tooMany(ctx.t, left);
    }
    if (!user || (purpose === 'reset' && !user.is_active && !user.phone_confirmed && !user.email_confirmed)) return { wait };
    const left = await this.d.codes.waitBeforeResend(user.id, purpose);
    if (left > 0) throw tooMany(ctx.t, left);
    await this.sendCode(user, purpose, ctx);
    return { wait };
  }

  async resetPassword(body: z.infer<typeof ResetBody>, ctx: Ctx): Promise<void> {
    if (body.new_password !== body.confirm_password) throw ApiError.fields({ confirm_password: [ctx.t('api:passwordsMismatch')] });
    if (!isCodeFormat('reset', body.otp)) throw ApiError.fields({ otp: [ctx.t('api:otpWrong')] });
    const id = canonicalIdentifier(body.identifier);
    await this.throttle([[`code:ip:${ctx.ip}`, LIMITS.codePerIp], [`code:id:${id?.value ?? body.identifier}`, LIMITS.codePerIdentifier]], ctx.t);
    const user = await this.findByIdentifier(body.identifier);
    if (!user) throw ApiError.fields({ otp: [ctx.t('api:otpWrong')] });
    const result = await this.d.codes.check(user.id, 'reset', body.otp);
    if (result !== 'ok') throw this.codeError(result, ctx.t);
    const hash = await hashPassword(body.new_password);
    await this.d.db.tx(async (tx) => {
      await tx.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [user.id, hash]);
      // A new password ends every session that the old one opened.
      await tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [user.id]);
    });
  }

  /** The staff account named by ADMIN_PHONE/ADMIN_PASSWORD exists, is active and is a superuser. */
  async ensureSuperuser(phone: string, password: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.d.db.query(
      `INSERT INTO users (name, phone, password_hash, is_active, is_staff, is_superuser, phone_confirmed)
       VALUES ('Administrator', $1, $2, true, true, true, true)
       ON CONFLICT (phone) DO UPDATE SET password_hash = EXCLUDED.password_hash, is_active = true, is_staff = true, is_superuser = true, phone_confirmed = true`,
      [phone, hash],
    );
  }
}

export function publicUser(u: UserRow) {
  return {
    id: u.id, user_id: u.id, name: u.name, email: u.email, phone: u.phone, location: u.location,
    date_joined: u.date_joined, is_staff: u.is_staff, is_active: u.is_active,
    picture_url: u.picture_id ? `/api/v1/uploads/${u.picture_id}/` : null,
  };
}
