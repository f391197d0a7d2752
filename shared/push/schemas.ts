/**
 * Push notifications (docs/rules/messages.md#6-push-notifications): a device's subscription as the browser gives it
 * (`PushSubscription.toJSON()`), and the player's push settings, as the API takes and sends them. Validation messages
 * are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { hiddenCharacter, v } from '../fields.ts';

/** The longest endpoint a push service gives (they are a few hundred characters). */
export const PUSH_ENDPOINT_MAX = 1000;
/** The longest name of a device (its browser, as the page reads it). */
export const PUSH_LABEL_MAX = 100;

/**
 * A push service's address: https; outside production also http://127.0.0.1 or http://localhost (a local push
 * service in tests), which the server refuses in production (server/push/service.ts).
 */
export function isPushEndpoint(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  return u.protocol === 'https:' || (u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost'));
}
export const isLocalPushEndpoint = (raw: string): boolean => raw.startsWith('http:');

/** base64url of exactly `bytes` bytes, with or without its `=` padding; read without it. */
const base64url = (bytes: number, key: 'pushKeyInvalid') => {
  const chars = Math.ceil((bytes * 4) / 3);
  const pad = (4 - (chars % 4)) % 4;
  return (
    z
      .string({ error: () => v(key) })
      .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}={0,${pad}}$`), { error: () => v(key) })
      .transform((s) => s.replace(/=+$/, ''))
      // A 65-byte key is an uncompressed point: its first byte 0x04, whose first six bits are base64url's `B`.
      .refine((s) => bytes !== 65 || s.startsWith('B'), { error: () => v(key) })
  );
};

const endpoint = z
  .string({ error: () => v('pushEndpointInvalid') })
  .max(PUSH_ENDPOINT_MAX, { error: () => v('pushEndpointInvalid') })
  .refine(isPushEndpoint, { error: () => v('pushEndpointInvalid') });

/**
 * `POST /api/v1/push-subscriptions/`: the browser's subscription (`endpoint`, `keys.p256dh` the 65-byte P-256 point,
 * `keys.auth` the 16-byte secret) and the device's name.
 */
export const PushSubscriptionBody = z.strictObject({
  endpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject(
    {
      p256dh: base64url(65, 'pushKeyInvalid'),
      auth: base64url(16, 'pushKeyInvalid'),
    },
    { error: () => v('pushKeyInvalid') },
  ),
  label: z
    .string({ error: () => v('pushLabelInvalid') })
    .max(PUSH_LABEL_MAX, { error: () => v('pushLabelInvalid') })
    // A NUL reached the database and was a 500 (tests/api/control-characters.test.ts).
    .refine((s) => hiddenCharacter(s) !== 'control', { error: () => v('controlCharacters') })
    .optional(),
});

/** `POST /api/v1/push-subscriptions/remove/`: the device's subscription to forget (the caller's own). */
export const PushUnsubscribeBody = z.strictObject({ endpoint });

const flag = z.boolean({ error: () => v('messageSettingInvalid') });

/**
 * `GET`/`PUT /api/v1/push-settings/`: whether the server sends pushes at all (`public_key`, the VAPID key a browser
 * subscribes with, null when push is off), the kinds he wants pushed, and how many devices he has subscribed.
 */
export const PushSettings = z.object({
  public_key: z.string().nullable(),
  results: z.boolean(),
  confirmations: z.boolean(),
  devices: z.number().int(),
});
export const PushSettingsBody = z.strictObject({ results: flag, confirmations: flag });

/** The notifications page's form of the same: two checkboxes, which a browser sends only when ticked (as `on`). */
export const PushSettingsForm = z
  .object({ results: z.unknown().optional(), confirmations: z.unknown().optional() })
  .transform((f) => ({ results: f.results === 'on', confirmations: f.confirmations === 'on' }));
