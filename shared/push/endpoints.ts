/** The push endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import { PushSettings, PushSettingsBody, PushSubscriptionBody, PushUnsubscribeBody } from './schemas.ts';

export const pushEndpoints = {
  // Push notifications to the installed app (docs/rules/messages.md#6-push-notifications) ----------------------------
  pushSettings: endpoint({
    method: 'GET',
    path: '/api/v1/push-settings/',
    access: 'user',
    tag: 'messages',
    reply: PushSettings,
    refuses: [],
    summary:
      "Push to the caller's devices: the VAPID public key a browser subscribes with (null: this server sends no push), " +
      'the kinds he wants pushed (results, confirmations) and how many devices he has subscribed.',
  }),
  setPushSettings: endpoint({
    method: 'PUT',
    path: '/api/v1/push-settings/',
    access: 'user',
    tag: 'messages',
    body: PushSettingsBody,
    reply: PushSettings,
    refuses: [],
    summary: 'Sets which kinds of message are pushed to his devices: results (a prize won) and confirmations (a purchase answered).',
  }),
  subscribePush: endpoint({
    method: 'POST',
    path: '/api/v1/push-subscriptions/',
    access: 'user',
    tag: 'messages',
    body: PushSubscriptionBody,
    reply: PushSettings,
    status: 201,
    refuses: ['push_off', 'push_endpoint_invalid'],
    summary:
      "Subscribes a device of the caller to his pushes, with the browser's subscription (endpoint and keys); the same " +
      'endpoint again updates it (and moves it to the caller if it was another account on the same browser).',
  }),
  unsubscribePush: endpoint({
    method: 'POST',
    path: '/api/v1/push-subscriptions/remove/',
    access: 'user',
    tag: 'messages',
    body: PushUnsubscribeBody,
    reply: PushSettings,
    refuses: ['push_subscription_not_found'],
    summary: "Forgets one of the caller's devices: nothing more is pushed to it.",
  }),
} as const;
