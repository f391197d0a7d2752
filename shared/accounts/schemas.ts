/**
 * Account requests and answers, one schema each, used by the API handler, the page action (no-JS post) and the
 * hydrated form alike (docs/rules/accounts-and-codes.md). Field names are the API's.
 */
import { z } from 'zod';
import {
  code,
  currentPassword,
  dateOfBirth,
  email,
  identifier,
  NAME_MAX,
  newPassword,
  optional,
  passwordGiven,
  phone,
  requirePhoneOrEmail,
  text,
  v,
} from '../fields.ts';
import { toAsciiDigits } from '../dates.ts';
import { MessageSettings } from '../messages/schemas.ts';

/**
 * The answer to a challenge (docs/rules/limits.md#1-rate-limits): the token its question came with, and the answer as
 * typed (Bengali digits read as ASCII). Absent or blank: no answer; only checked when a challenge is asked for.
 */
export const ChallengeFields = {
  challenge_token: text(200).optional(),
  challenge_answer: text(20).transform(toAsciiDigits).optional(),
};

/** Log in with phone number or e-mail (the API calls the field `phone`, whichever it is); a challenge's answer when asked. */
export const LoginBody = z.strictObject({ phone: identifier, password: currentPassword, ...ChallengeFields });

/** A refresh token as issued: a JWT (base64url parts joined by dots). */
export const RefreshBody = z.strictObject({
  refresh: z
    .string()
    .min(1)
    .max(2000)
    .regex(/^[\w-]+(\.[\w-]+)*$/),
});

/** The registration form of the page: first and last name, a picture file beside it (uploaded first). */
export const RegisterForm = z
  .strictObject({
    firstName: text(NAME_MAX, 'fillRequired'),
    lastName: text(NAME_MAX, 'fillRequired'),
    phone: optional(phone),
    email: optional(email),
    password: z
      .string()
      .refine((p) => p.length > 0, v('fillRequired'))
      .pipe(newPassword),
    date_of_birth: dateOfBirth,
    location: text(NAME_MAX).optional(),
  })
  .superRefine((x, ctx) => requirePhoneOrEmail(x, ctx, { markFields: true }));

/**
 * Sign-up through the API: one name, phone or e-mail (or both), a password, the date of birth (18 or older today in
 * Dhaka), optionally a picture uploaded before.
 */
export const SignupBody = z
  .strictObject({
    name: text(NAME_MAX, 'fieldRequired'),
    email: optional(email),
    phone: optional(phone),
    password: newPassword,
    date_of_birth: dateOfBirth,
    location: text(NAME_MAX).optional(),
    picture: z.uuid().nullish(),
  })
  .superRefine((x, ctx) => requirePhoneOrEmail(x, ctx, { markFields: false }));

/** Resend a verification code, or ask for a password reset code. */
export const IdentifierBody = z.strictObject({ identifier });

export const VerifyOtpBody = z.strictObject({ identifier, otp: code('account'), ...ChallengeFields });

export const ResetBody = z
  .strictObject({
    identifier,
    otp: code('reset'),
    new_password: newPassword,
    confirm_password: z.string().max(128),
    ...ChallengeFields,
  })
  .refine((x) => x.new_password === x.confirm_password, { message: v('passwordsMismatch'), path: ['confirm_password'] });

/**
 * `PATCH /api/v1/update-profile/` (docs/rules/accounts-and-codes.md#11-profile): the current password, always, and
 * the fields that change. A field left out stays as it is; an e-mail or phone sent blank or null is removed (the
 * account keeps at least one of them); `picture` names a profile picture uploaded before.
 */
export const UpdateProfileBody = z
  .strictObject({
    password: passwordGiven('currentPasswordRequired'),
    name: text(NAME_MAX, 'fieldRequired').optional(),
    email: optional(email).optional(),
    phone: optional(phone).optional(),
    picture: z.uuid().optional(),
  })
  .superRefine((x, ctx) => {
    if (x.name === undefined && x.email === undefined && x.phone === undefined && x.picture === undefined)
      ctx.addIssue({ code: 'custom', message: v('profileNothingChanged'), path: [] });
    else if (x.email === null && x.phone === null) ctx.addIssue({ code: 'custom', message: v('phoneOrEmailKept'), path: [] });
  });

// Answers ---------------------------------------------------------------------------------------------

export const Detail = z.object({ detail: z.string() });
export const TokenPair = z.object({ access: z.string(), refresh: z.string() });
/** The right sign-up code: the account is active and its new session's tokens, as a login answers them. */
export const VerifyOtpReply = Detail.extend(TokenPair.shape);
export const SignupReply = z.object({ user_id: z.number().int(), identifier: z.string(), detail: z.string() });
/** A code was sent (or, for a reset, would have been): `wait` is the seconds before another may be asked for. */
export const CodeSent = z.object({ detail: z.string(), wait: z.number().int() });

/** What the root loader and the top bar know of the logged-in user (from the access token). */
export const SessionUser = z.object({ user_id: z.number().int(), name: z.string(), phone: z.string().nullable(), is_staff: z.boolean() });

export const UserProfile = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  location: z.string(),
  date_joined: z.string(),
  is_staff: z.boolean(),
  is_active: z.boolean(),
  picture_url: z.string().nullable(),
});

/**
 * `GET /api/v1/my-profile/`: what the caller's profile page shows, in one read: his profile (as `GET /api/v1/users/{id}/`
 * answers it) and his message settings (as `GET /api/v1/message-settings/`).
 */
export const MyProfile = z.object({ user: UserProfile, messages: MessageSettings });

/** The answer to a profile update: the profile as it is now, and a confirmation in the caller's language. */
export const UpdateProfileReply = UserProfile.extend({ detail: z.string() });
