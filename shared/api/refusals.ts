/**
 * Every refusal the API may answer, each once (docs/decisions/064-refusals-as-data.md): the ones every feature meets,
 * and the union of each feature's shared/<feature>/refusals.ts. A name appears in one place only (the union would
 * silently keep the last; tests/unit/refusals.test.ts fails on a name declared twice).
 */
import { Refusal, refusals, type RefusalDetails, type RefusalSpec } from './refusal.ts';
import { accountsRefusals } from '../accounts/refusals.ts';
import { identityRefusals } from '../identity/refusals.ts';
import { playRefusals } from '../play-safe/refusals.ts';
import { usersRefusals } from '../users/refusals.ts';
import { messagesRefusals } from '../messages/refusals.ts';
import { pushRefusals } from '../push/refusals.ts';
import { lotteriesRefusals } from '../lotteries/refusals.ts';
import { gamesRefusals } from '../games/refusals.ts';
import { resultsRefusals } from '../results/refusals.ts';
import { dashboardRefusals } from '../dashboard/refusals.ts';
import { auditRefusals } from '../audit/refusals.ts';
import { drawsRefusals } from '../draws/refusals.ts';
import { purchasesRefusals } from '../purchases/refusals.ts';
import { paymentsRefusals } from '../payments/refusals.ts';
import { claimsRefusals } from '../claims/refusals.ts';
import { generatedTicketsRefusals } from '../generated-tickets/refusals.ts';
import { uploadsRefusals } from '../uploads/refusals.ts';
import { contactRefusals } from '../contact/refusals.ts';

/** Refusals any feature may answer. */
export const commonRefusals = refusals({
  permission_denied: { status: 403, text: 'api:permissionDenied', when: 'The caller may not do this.' },
  // Rate limits and back-offs of every feature (docs/rules/limits.md#1-rate-limits; server/http/rate-limit.ts).
  throttled: {
    status: 429,
    text: 'api:tooManyRequests',
    when: 'Too many requests, or too many failures: `wait` seconds, also in Retry-After.',
  },
  // A one-time code checked and refused (server/accounts/codes.ts): an account's codes and a claim's, under `otp`.
  otp_wrong: {
    status: 400,
    field: 'otp',
    text: 'api:otpWrong',
    when: 'The code is not the one sent (or no code waits under this identifier).',
  },
  otp_expired: { status: 400, field: 'otp', text: 'api:otpExpired', when: 'The code has expired.' },
  otp_exhausted: {
    status: 400,
    field: 'otp',
    text: 'api:otpExhausted',
    when: 'Too many wrong tries of this code: a new one must be asked for.',
  },
  otp_none: {
    status: 400,
    field: 'otp',
    text: 'api:otpNone',
    when: 'No valid code is waiting to be checked: a new one must be asked for.',
  },
  // A one-time code not sent (server/notify/deliver.ts): an account's codes and a claim's.
  code_send_failed: {
    status: 503,
    code: 'send_failed',
    text: 'api:sendFailed',
    when: 'The code could not be sent by SMS or e-mail now: try again in a few minutes.',
  },
});

/** Every feature's catalogue, by feature (tests/unit/refusals.test.ts reads it to find a name declared twice). */
export const catalogues: Record<string, Record<string, RefusalSpec>> = {
  common: commonRefusals,
  accounts: accountsRefusals,
  identity: identityRefusals,
  play: playRefusals,
  users: usersRefusals,
  messages: messagesRefusals,
  push: pushRefusals,
  lotteries: lotteriesRefusals,
  games: gamesRefusals,
  results: resultsRefusals,
  dashboard: dashboardRefusals,
  audit: auditRefusals,
  draws: drawsRefusals,
  purchases: purchasesRefusals,
  payments: paymentsRefusals,
  claims: claimsRefusals,
  'generated-tickets': generatedTicketsRefusals,
  uploads: uploadsRefusals,
  contact: contactRefusals,
};

export const catalogue = {
  ...commonRefusals,
  ...accountsRefusals,
  ...identityRefusals,
  ...playRefusals,
  ...usersRefusals,
  ...messagesRefusals,
  ...pushRefusals,
  ...lotteriesRefusals,
  ...gamesRefusals,
  ...resultsRefusals,
  ...dashboardRefusals,
  ...auditRefusals,
  ...drawsRefusals,
  ...purchasesRefusals,
  ...paymentsRefusals,
  ...claimsRefusals,
  ...generatedTicketsRefusals,
  ...uploadsRefusals,
  ...contactRefusals,
} as const satisfies Record<string, RefusalSpec>;

export type RefusalName = keyof typeof catalogue;

/** The rule says no: throws the refusal (run() in server/http/route.ts answers it in the caller's language). */
export function refuse(name: RefusalName, details?: RefusalDetails): never {
  throw new Refusal(name, details);
}

/** The refusal as a value, for code that hands it on before throwing (`const gone = refusal('not_found')`). */
export function refusal(name: RefusalName, details?: RefusalDetails): Refusal<RefusalName> {
  return new Refusal(name, details);
}
