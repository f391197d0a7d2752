/** The refusals of the accounts endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const accountsRefusals = refusals({
  // Rate limits and back-offs of every feature (docs/rules/limits.md#1-rate-limits; server/accounts/limits.ts).
  throttled: {
    status: 429,
    text: 'api:tooManyRequests',
    when: 'Too many requests, or too many failures: `wait` seconds, also in Retry-After.',
  },
});
