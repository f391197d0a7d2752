import type { z } from 'zod';
import type {
  LoginBody,
  MyProfile,
  ResetBody,
  SessionUser,
  SignupBody,
  UpdateProfileBody,
  UserProfile,
  VerifyOtpBody,
} from '../../shared/accounts/schemas.ts';
import { refuse, refusal, type RefusalName } from '../../shared/api/refusals.ts';
import type { Refusal } from '../../shared/api/refusal.ts';
import type { Language } from '../../shared/i18n.ts';
import { CODE_RULES } from '../../shared/one-time-codes.ts';
import { uniqueViolation, type Db } from '../db/index.ts';
import {
  countDelayed,
  countFailure,
  delayTurn,
  FAILURE_STEPS,
  failuresCounted,
  hit,
  LIMITS,
  refuseWhileBackingOff,
  throttle,
  throttled,
  type Limit,
} from '../http/rate-limit.ts';
import type { Texts } from '../i18n.ts';
import { deliverCode } from '../notify/deliver.ts';
import { messageSettingsOf } from '../messages/service.ts';
import { NotifyError, type Notifier } from '../notify/index.ts';
import { accessChanged, sendAccountChangeNotice, type AccountChange } from '../notify/account-change.ts';
import type { ChallengeAnswer, Challenges } from './challenge.ts';
import { codeRefusal, type Codes, type Purpose } from './codes.ts';
import { deviceHash, isKnownDevice, newDeviceId, rememberDevice } from './devices.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import * as q from './queries.ts';
import type { UserRow } from './queries.ts';
import type { Tokens } from './tokens.ts';

export type { SessionState, UserRow } from './queries.ts';
/** The bearer check's statement, for a read that makes it with its own (server/play-safe/queries.ts sessionTopBarNow). */
export { SESSION_RIGHTS } from './queries.ts';

/**
 * What a rule needs of the request: the caller's address and device. A rule that sends him a code or asks him a
 * question takes his language beside it (`lng`); its refusals are worded by run() (docs/decisions/064-refusals-as-data.md).
 */
export type Ctx = {
  ip: string;
  /** A well-formed device id the request carried (login; docs/decisions/025-limits-for-shared-addresses.md). */
  deviceId?: string | null;
};

/** A new session's tokens, and the device id the client sends with its next login (docs/rules/api.md). */
export type SignedIn = { access: string; refresh: string; deviceId: string };

export type AccountsDeps = {
  db: Db;
  tokens: Tokens;
  codes: Codes;
  /** The question a new device answers behind an address with many failures (docs/rules/limits.md#1-rate-limits). */
  challenges: Challenges;
  notifier: Notifier;
  /** The app's texts: the codes and notices an account is sent, in its holder's language. */
  texts: Texts;
  /** Runs work after the answer was sent (failures are logged): codes whose sending must not show in the answer's time. */
  defer: (task: () => Promise<void>) => void;
};

/**
 * The account rules (docs/rules/accounts-and-codes.md): sign-up, verification, login, sessions, password reset.
 * Bodies arrive parsed by the schemas of shared/accounts/schemas.ts (identifiers already in their stored form).
 */
export class Accounts {
  private readonly d: AccountsDeps;
  constructor(d: AccountsDeps) {
    this.d = d;
  }

  /** The caller now: a token's name and rights may be older than the database's. */
  async me(id: number): Promise<z.input<typeof SessionUser>> {
    const u = await q.userById(this.d.db, id);
    if (!u || !u.is_active) refuse('token_not_valid');
    return { user_id: u.id, name: u.name, phone: u.phone, is_staff: u.is_staff };
  }

  /** A user's profile as the API shows it: a player his own, staff anyone's. */
  async profile(id: number, caller: { user_id: number; is_staff: boolean }): Promise<z.input<typeof UserProfile>> {
    if (id !== caller.user_id && !caller.is_staff) refuse('permission_denied');
    const user = await q.userById(this.d.db, id);
    if (!user) refuse('user_not_found');
    return publicUser(user);
  }

  /**
   * The caller's profile page in one read (`GET /api/v1/my-profile/`): his profile and his message settings, as their
   * own endpoints answer them.
   */
  async myProfile(id: number): Promise<z.input<typeof MyProfile>> {
    const row = await q.userWithSettings(this.d.db, id);
    if (!row) refuse('user_not_found');
    return { user: publicUser(row), messages: messageSettingsOf(row) };
  }

  /**
   * The caller changes his own name, e-mail, phone or picture (docs/rules/accounts-and-codes.md#11-profile). The
   * current password is checked first; wrong ones count like failed logins, per account (docs/rules/limits.md).
   */
  async updateProfile(caller: { user_id: number }, body: z.output<typeof UpdateProfileBody>): Promise<z.input<typeof UserProfile>> {
    const failures = `profile:fail:${caller.user_id}`;
    await refuseWhileBackingOff(this.d.db, failures);
    const user = await q.userById(this.d.db, caller.user_id);
    if (!user || !user.is_active) refuse('token_not_valid');
    if (!(await verifyPassword(body.password, user.password_hash))) {
      await countFailure(this.d.db, failures);
      refuse('profile_password_wrong');
    }
    // Only what differs from the account as stored is a change.
    const change: { name?: string; email?: string | null; phone?: string | null; picture?: string } = {};
    if (body.name !== undefined && body.name !== user.name) change.name = body.name;
    if (body.email !== undefined && body.email !== user.email) change.email = body.email;
    if (body.phone !== undefined && body.phone !== user.phone) change.phone = body.phone;
    if (body.picture !== undefined && body.picture !== user.picture_id) change.picture = body.picture;
    if (!Object.keys(change).length) refuse('profile_nothing_changed');
    const email = change.email !== undefined ? change.email : user.email;
    const phone = change.phone !== undefined ? change.phone : user.phone;
    if (!email && !phone) refuse('profile_phone_or_email_kept');

    const taken = (c: string): Refusal => refusal(c.includes('email') ? 'email_taken' : 'phone_taken');
    const held = { email: false, phone: false };
    const free: number[] = [];
    for (const u of await q.usersHolding(this.d.db, change.email ?? null, change.phone ?? null)) {
      if (u.id === user.id) continue;
      // A sign-up never verified whose code has expired holds nothing (section 2): it gives way, as to a new sign-up.
      const neverVerified = !u.is_active && !u.phone_confirmed && !u.email_confirmed;
      if (neverVerified && !(await this.d.codes.hasLiveCode(u.id, 'account'))) {
        free.push(u.id);
        continue;
      }
      if (change.email && u.email === change.email) held.email = true;
      if (change.phone && u.phone === change.phone) held.phone = true;
    }
    refuseFields([...(held.email ? [refusal('email_taken')] : []), ...(held.phone ? [refusal('phone_taken')] : [])]);
    // A new phone or e-mail is recorded, holds his claims for 72 hours and is told to his old contacts: a stolen
    // session with the password must not move his prize unseen (docs/rules/accounts-and-codes.md#11-profile).
    const access: AccountChange = { phone: change.phone !== undefined, email: change.email !== undefined, password: false };
    try {
      const { updated, at } = await this.d.db.tx(async (tx) => {
        for (const id of free) await q.deleteUser(tx, id);
        if (change.picture !== undefined && !(await q.takePicture(tx, user.id, change.picture))) refuse('picture_invalid');
        const row = await q.updateProfile(tx, user.id, change);
        return { updated: row, at: row && accessChanged(access) ? await markAccessChanged(tx, user.id, user.id) : null };
      });
      if (!updated) refuse('token_not_valid');
      if (at) await sendAccountChangeNotice(this.d.notifier, this.d.texts, user, access, { at, byStaff: false });
      return publicUser(updated);
    } catch (err) {
      // Another account took the e-mail or phone between the check and the update.
      const c = uniqueViolation(err);
      if (c !== null) throw taken(c);
      throw err;
    }
  }

  /**
   * Limits (docs/rules/limits.md#1-rate-limits, docs/decisions/050-login-question.md): every
   * attempt from one address only against floods; failures per device, per address and identifier, and per identifier
   * from anywhere (a growing delay) may refuse. An address's failures never refuse: past them a device the account
   * does not know answers a challenge first (many players share one address). A device that logged in to the account
   * before (`ctx.deviceId`) is held back only by its own failures, so a botnet guessing the password never locks the
   * owner out of it. Answers the device id to send next time.
   */
  async login(body: z.output<typeof LoginBody>, ctx: Ctx, lng: Language): Promise<SignedIn> {
    await throttle(this.d.db, [[`login:ip:${ctx.ip}`, LIMITS.loginFloodPerIp]]);
    const user = await q.userByIdentifier(this.d.db, body.phone);
    const device = ctx.deviceId ?? null;
    const known = user !== undefined && device !== null && (await isKnownDevice(this.d.db, user.id, device));
    const account = `login:account:${body.phone}`;
    const address = `login:fail:ip:${ctx.ip}`;
    // A device's own failures, and (a device the account does not know) those from this address at this account.
    const failures = [
      ...(device !== null ? [`login:fail:device:${deviceHash(device)}`] : []),
      ...(known ? [] : [`login:fail:${ctx.ip}:${body.phone}`]),
    ];
    for (const key of failures) await refuseWhileBackingOff(this.d.db, key);
    if (!known) {
      if ((await failuresCounted(this.d.db, address, [LIMITS.loginFailuresPerIp])) >= LIMITS.loginFailuresPerIp.max)
        await this.d.challenges.pass(body, lng);
      const wait = await delayTurn(this.d.db, account);
      if (wait) throw throttled(wait);
    }
    const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyHash()));
    if (!user || !ok) {
      for (const key of failures) await countFailure(this.d.db, key);
      if (!known) await countFailure(this.d.db, address, [LIMITS.loginFailuresPerIp]);
      await countDelayed(this.d.db, account);
      refuse('no_active_account');
    }
    if (!user.is_active) {
      if (user.phone_confirmed || user.email_confirmed) refuse('account_disabled');
      // Never verified: send a code now if the wait allows, so the verification page has one to check.
      // The code's own resend wait keeps it to one SMS; no wait per identifier starts (see resend).
      if ((await this.d.codes.waitBeforeResend(user.id, 'account')) === 0) await this.sendCode(user, 'account', lng);
      refuse('account_not_active', { extra: { identifier: user.phone ?? user.email } });
    }
    if (needsRehash(user.password_hash)) await q.rehashPassword(this.d.db, user.id, user.password_hash, await hashPassword(body.password));
    return this.signIn(user, device);
  }

  /**
   * The player is signed in (a login, or the right sign-up code: docs/rules/accounts-and-codes.md#3-account-verification):
   * a new session, and the device remembered as one that logged in to the account. Answers the device id to send next time.
   */
  private async signIn(user: UserRow, device: string | null): Promise<SignedIn> {
    const tokens = await this.issueTokens(user);
    const deviceId = device ?? newDeviceId();
    await rememberDevice(this.d.db, user.id, deviceId);
    return { ...tokens, deviceId };
  }

  /**
   * A new session (docs/rules/accounts-and-codes.md#10-sessions): its refresh token is stored with the user's session
   * version as it was read with the password, and its access tokens name it (`sid`).
   */
  async issueTokens(user: UserRow): Promise<{ access: string; refresh: string }> {
    const refresh = await this.d.tokens.signRefresh(user.id);
    const access = await this.d.tokens.signAccess(user, refresh.jti);
    await q.insertRefreshToken(this.d.db, refresh.jti, user, refresh.expiresAt);
    return { access, refresh: refresh.token };
  }

  /**
   * A new access token of a live session. The refresh token is not rotated: parallel requests of one browser may
   * refresh at the same moment, and rotation would log them out; logout and the end of all sessions revoke it.
   */
  async refresh(token: string): Promise<{ access: string; refresh: string }> {
    const claims = await this.d.tokens.verifyRefresh(token);
    if (!claims) refuse('token_not_valid');
    const user = await q.liveSessionUser(this.d.db, claims.jti, claims.user_id);
    if (!user || !user.is_active) refuse('token_not_valid');
    return { access: await this.d.tokens.signAccess(user, claims.jti), refresh: token };
  }

  /** Logout: ends the session of this refresh token, its access tokens with it. */
  async revoke(token: string): Promise<void> {
    const claims = await this.d.tokens.verifyRefresh(token);
    if (claims) await q.revokeRefreshToken(this.d.db, claims.jti);
  }

  /** Whether the session `sid` is live and what the user's rights are now (the bearer check, server/http/auth.ts). */
  sessionRights(sid: string, userId: number) {
    return q.liveSessionRights(this.d.db, sid, userId);
  }

  /** "Log out everywhere": every session of the caller ends, this one too (docs/rules/accounts-and-codes.md#10-sessions). */
  async endAllSessions(userId: number): Promise<void> {
    await q.revokeAllRefreshTokens(this.d.db, userId);
  }

  async signup(body: z.output<typeof SignupBody>, ctx: Ctx, lng: Language): Promise<{ user_id: number; identifier: string }> {
    const { email, phone } = body;
    // Counted per identifier: the code goes to the phone (or else the e-mail), so sign-up obeys that address's sending
    // limit; per address only a flood ceiling, as many players share one (docs/rules/limits.md#1-rate-limits).
    await throttle(this.d.db, [
      [`signup:ip:${ctx.ip}`, LIMITS.signupFloodPerIp],
      [`send:id:${phone ?? email}`, LIMITS.codePerIdentifier],
    ]);
    const pendingFor = { email: false, phone: false };
    const known: UserRow[] = [];
    const clash = await q.usersHolding(this.d.db, email, phone);
    // A sign-up that was never verified holds its phone and e-mail while its code is valid: replacing it would let a
    // stranger who knows the number own the account its owner then verifies. Once the code expired, it holds nothing.
    const free: UserRow[] = [];
    for (const u of clash) {
      const neverVerified = !u.is_active && !u.phone_confirmed && !u.email_confirmed;
      if (neverVerified && !(await this.d.codes.hasLiveCode(u.id, 'account'))) {
        free.push(u);
        continue;
      }
      if (!neverVerified) {
        known.push(u);
        continue;
      }
      if (email && u.email === email) pendingFor.email = true;
      if (phone && u.phone === phone) pendingFor.phone = true;
    }
    refuseFields([...(pendingFor.email ? [refusal('email_pending')] : []), ...(pendingFor.phone ? [refusal('phone_pending')] : [])]);
    const pending = free;

    const hash = await hashPassword(body.password);
    // A phone or e-mail of an account: answered as a new sign-up, and its owner told instead
    // (docs/rules/accounts-and-codes.md#2-sign-up), so that sign-up never says which phones have accounts.
    if (known.length) return this.signupOfKnown(known, { email, phone });
    try {
      const user = await this.d.db.tx(async (tx) => {
        for (const u of pending) await q.deleteUser(tx, u.id);
        // His messages are written in the language he registered in (docs/rules/messages.md), until he chooses another.
        const created = await q.insertUser(tx, {
          name: body.name,
          email,
          phone,
          hash,
          location: body.location ?? '',
          language: lng,
          dateOfBirth: body.date_of_birth,
        });
        // Only an unclaimed profile upload can become the picture.
        if (body.picture && !(await q.claimPicture(tx, created.id, body.picture))) refuse('picture_invalid');
        return created;
      });
      // No resend wait per identifier starts here: resend-otp then answers as for a phone without an account, and the
      // code's own resend wait keeps a resend from sending a second SMS meanwhile (see resend).
      await this.sendCode(user, 'account', lng);
      return { user_id: user.id, identifier: (user.phone ?? user.email) as string };
    } catch (err) {
      // Another sign-up took the phone or e-mail between the check and the insert: answered as a new one too.
      if (uniqueViolation(err) !== null) return { user_id: await q.nextUserId(this.d.db), identifier: (phone ?? email) as string };
      throw err;
    }
  }

  /**
   * A sign-up with the phone or e-mail of an account (docs/rules/accounts-and-codes.md#2-sign-up): nothing is made,
   * the answer is a new sign-up's (an unused user id from the same sequence), and the account's owner is told on the
   * phone or e-mail that was typed, in his language: someone tried to register with it, log in or reset the password.
   * At most one notice per account and day (LIMITS.signupNoticePerAccount), so that it cannot flood his phone.
   */
  private async signupOfKnown(
    known: UserRow[],
    typed: { email: string | null; phone: string | null },
  ): Promise<{ user_id: number; identifier: string }> {
    for (const u of known) {
      if (await hit(this.d.db, `signup-notice:user:${u.id}`, LIMITS.signupNoticePerAccount)) continue;
      const lng = u.language;
      const to = [
        ...(typed.phone && u.phone === typed.phone ? [{ channel: 'sms' as const, to: u.phone, what: 'phone' }] : []),
        ...(typed.email && u.email === typed.email ? [{ channel: 'email' as const, to: u.email, what: 'email' }] : []),
      ];
      for (const r of to) {
        const vars = { lng, what: this.d.texts(`api:accountNotice.${r.what}`, { lng }) };
        try {
          await this.d.notifier.send({
            channel: r.channel,
            to: r.to,
            purpose: 'signup_attempt',
            subject: this.d.texts('api:signupAttempt.subject', vars),
            text: this.d.texts('api:signupAttempt.text', vars),
          });
        } catch (err) {
          if (!(err instanceof NotifyError)) throw err;
        }
      }
    }
    return { user_id: await q.nextUserId(this.d.db), identifier: (typed.phone ?? typed.email) as string };
  }

  /** Sends the account a code, worded in the caller's language `lng`. */
  private async sendCode(user: UserRow, purpose: Purpose, lng: Language): Promise<void> {
    const code = await this.d.codes.issue(user.id, purpose);
    await deliverCode(this.d.notifier, user, purpose, code, this.d.texts, lng);
  }

  /**
   * Failed code checks count per address and identifier, and per address alone (docs/rules/limits.md#1-rate-limits);
   * successful ones count nowhere. Refuses while the first asks to wait; past the address's count, the check must
   * answer a question first, never a refusal (many players share one address). Returns the keys for countCodeFailure.
   */
  private async beforeCodeCheck(identifier: string, ctx: Ctx, sent: ChallengeAnswer, lng: Language): Promise<[string, readonly Limit[]][]> {
    const address: [string, readonly Limit[]] = [`code:fail:ip:${ctx.ip}`, [LIMITS.codeCheckFailuresPerIp]];
    const own: [string, readonly Limit[]] = [`code:fail:${ctx.ip}:${identifier}`, FAILURE_STEPS];
    await refuseWhileBackingOff(this.d.db, own[0], own[1]);
    if ((await failuresCounted(this.d.db, ...address)) >= LIMITS.codeCheckFailuresPerIp.max) await this.d.challenges.pass(sent, lng);
    return [own, address];
  }

  private async countCodeFailure(failures: readonly [string, readonly Limit[]][]): Promise<void> {
    for (const [key, steps] of failures) await countFailure(this.d.db, key, steps);
  }

  /**
   * Activates a new account with its code and signs the player in, as a login does: he proved the phone (or e-mail)
   * and chose the password minutes ago (docs/rules/accounts-and-codes.md#3-account-verification). An unknown account and
   * an active one get the answer of a wrong code (nothing tells which phones have accounts); failures count per address
   * and account (docs/rules/limits.md). The code is single use: of two checks with it at once, one signs in.
   */
  async verifyAccount(body: z.output<typeof VerifyOtpBody>, ctx: Ctx, lng: Language): Promise<SignedIn> {
    const failures = await this.beforeCodeCheck(body.identifier, ctx, body, lng);
    const user = await q.userByIdentifier(this.d.db, body.identifier);
    const result = user && !user.is_active ? await this.d.codes.check(user.id, 'account', body.otp) : 'wrong';
    if (result !== 'ok' || !user) {
      await this.countCodeFailure(failures);
      throw codeRefusal(result === 'ok' ? 'wrong' : result);
    }
    // The code proves the channel it was sent to (the phone when there is one, see sendCode), not the identifier typed here.
    const active = await q.activateUser(this.d.db, user);
    if (!active) throw codeRefusal('wrong');
    return this.signIn(active, ctx.deviceId ?? null);
  }

  /** Sends (or resends) a code; `wait` is how long the page should count down before offering resend. */
  async resend(identifier: string, purpose: 'account' | 'reset', ctx: Ctx, lng: Language): Promise<{ wait: number }> {
    await throttle(this.d.db, [
      [`send:ip:${ctx.ip}`, LIMITS.codeFloodPerIp],
      [`send:id:${identifier}`, LIMITS.codePerIdentifier],
    ]);
    const wait = CODE_RULES[purpose].resendAfterSec;
    // The answer is the same whether the account exists, waits for verification or is active (no account probing),
    // the resend wait included: it is kept per identifier and started only here, never by a sign-up or login, so a
    // 429 tells neither that an account is there nor that one was just made. The code is sent after the answer, so
    // that the time to answer does not tell it either; the code's own resend wait keeps it to one SMS.
    const left = await hit(this.d.db, `${purpose}-wait:${identifier}`, { max: 1, windowSec: wait });
    if (left) throw throttled(left);
    this.d.defer(async () => {
      const user = await q.userByIdentifier(this.d.db, identifier);
      if (!user) return;
      const neverVerified = !user.is_active && !user.phone_confirmed && !user.email_confirmed;
      // A verification code only for an account that waits for one; a reset code only for one that was verified.
      if (purpose === 'account' ? !neverVerified : neverVerified) return;
      if ((await this.d.codes.waitBeforeResend(user.id, purpose)) > 0) return;
      await this.sendCode(user, purpose, lng);
    });
    return { wait };
  }

  async resetPassword(body: z.output<typeof ResetBody>, ctx: Ctx, lng: Language): Promise<void> {
    const failures = await this.beforeCodeCheck(body.identifier, ctx, body, lng);
    const user = await q.userByIdentifier(this.d.db, body.identifier);
    const result = user ? await this.d.codes.check(user.id, 'reset', body.otp) : 'wrong';
    if (result !== 'ok' || !user) {
      await this.countCodeFailure(failures);
      throw codeRefusal(result === 'ok' ? 'wrong' : result);
    }
    const hash = await hashPassword(body.new_password);
    await this.d.db.tx(async (tx) => {
      await q.setPassword(tx, user.id, hash);
      // A new password ends every session of the account at once, access tokens too (docs/rules/accounts-and-codes.md#10-sessions).
      await q.revokeAllRefreshTokens(tx, user.id);
    });
  }

  /** The staff account named by ADMIN_PHONE/ADMIN_PASSWORD exists, is active and is a superuser. */
  async ensureSuperuser(phone: string, password: string): Promise<void> {
    await q.upsertSuperuser(this.d.db, phone, await hashPassword(password));
  }
}

/** Refuses the fields refused, if any: the first refusal's code, the others' texts under their fields beside it. */
function refuseFields([first, ...more]: Refusal<RefusalName>[]): void {
  if (first) throw more.length ? refusal(first.refusal, { with: more }) : first;
}

/** The profile fields anyone allowed to see a user may see (never the password hash). */
export function publicUser(u: UserRow): z.input<typeof UserProfile> {
  return {
    id: u.id,
    user_id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    location: u.location,
    date_joined: u.date_joined,
    is_staff: u.is_staff,
    is_active: u.is_active,
    picture_url: u.picture_id ? `/api/v1/uploads/${u.picture_id}/` : null,
  };
}

// For the other features: what they may do with an account, without reaching into accounts/queries.ts -------------

/** The account as stored, or undefined: for a feature that sends its owner a code (claims). */
export const accountById = (db: Db, id: number): Promise<UserRow | undefined> => q.userById(db, id);

/**
 * Ends every session of the account at once, access tokens too (docs/rules/accounts-and-codes.md#10-sessions); in the
 * transaction `db` of the change that ends them (staff deactivating the account or setting its password).
 */
export async function endAllSessions(db: Db, id: number): Promise<void> {
  await q.revokeAllRefreshTokens(db, id);
}

/**
 * Records that the account's phone, e-mail or password changed, and who changed it (the account itself or staff),
 * which holds its claims (docs/rules/lotteries-and-sales.md#11-prize-claims); returns when, in ISO form.
 */
export const markAccessChanged = (db: Db, id: number, by: number): Promise<string> => q.markAccessChanged(db, id, by);
