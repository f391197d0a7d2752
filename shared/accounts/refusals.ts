/** The refusals of the accounts endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const accountsRefusals = refusals({
  // Sessions (docs/rules/accounts-and-codes.md#4-login, #10-sessions).
  token_not_valid: {
    status: 401,
    text: 'api:tokenInvalid',
    when: 'The token is not valid, its session has ended, or its account is no longer active.',
  },
  no_active_account: { status: 401, text: 'api:invalidCredentials', when: 'Wrong identifier or password.' },
  account_disabled: { status: 401, text: 'api:accountDisabled', when: 'The account was verified once and is now disabled.' },
  account_not_active: {
    status: 401,
    text: 'api:accountNotActive',
    when: 'The account waits for its verification code (a new one is sent); `identifier` says where it went.',
  },
  // The question behind an address with many failures (docs/rules/limits.md#1-rate-limits, server/accounts/challenge.ts).
  challenge_required: {
    status: 428,
    text: 'api:challengeRequired',
    when: 'Many failures from this address: answer `challenge.question` with `challenge_token` and `challenge_answer`.',
  },
  challenge_expired: {
    status: 428,
    text: 'api:challengeExpired',
    when: 'The question was already answered, changed or is too old: answer the new `challenge.question`.',
  },
  challenge_wrong: { status: 428, text: 'api:challengeWrong', when: 'The answer is wrong: answer the new `challenge.question`.' },
  // Sign-up (docs/rules/accounts-and-codes.md#2-sign-up).
  email_pending: {
    status: 400,
    field: 'email',
    text: 'api:emailPending',
    when: 'A sign-up with this e-mail address waits for its code, which is still valid.',
  },
  phone_pending: {
    status: 400,
    field: 'phone',
    text: 'api:phonePending',
    when: 'A sign-up with this phone number waits for its code, which is still valid.',
  },
  picture_invalid: {
    status: 400,
    field: 'picture',
    text: 'api:pictureInvalid',
    when: "The picture is not an upload of the caller's that no account uses yet.",
  },
  // The account's one-time codes: sign-up and password reset (docs/rules/accounts-and-codes.md#3-account-verification).
  // The profile (docs/rules/accounts-and-codes.md#11-profile).
  profile_password_wrong: {
    status: 400,
    field: 'password',
    text: 'profile:api.wrongPassword',
    when: 'The current password is wrong (wrong tries count like failed logins).',
  },
  profile_nothing_changed: {
    status: 400,
    field: 'non_field_errors',
    text: 'validation:profileNothingChanged',
    when: 'Nothing given differs from the profile as stored.',
  },
  profile_phone_or_email_kept: {
    status: 400,
    field: 'non_field_errors',
    text: 'validation:phoneOrEmailKept',
    when: 'The change would leave the account with neither a phone number nor an e-mail address.',
  },
});
