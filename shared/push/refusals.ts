/** The refusals of the push endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const pushRefusals = refusals({
  push_off: { status: 409, text: 'messages:push.api.off', when: 'This server sends no push (no VAPID keys configured).' },
  push_endpoint_invalid: {
    status: 400,
    field: 'endpoint',
    text: 'validation:pushEndpointInvalid',
    when: 'In production, a push service on a local address (http) is not taken.',
  },
  push_subscription_not_found: {
    status: 404,
    text: 'messages:push.api.notFound',
    when: 'No subscription of the caller has this endpoint.',
  },
});
