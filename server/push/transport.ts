/**
 * Sending one push (docs/rules/messages.md#6-push-notifications): the payload encrypted for the device (RFC 8291,
 * aes128gcm) and the request signed with our VAPID key (RFC 8292) by the `web-push` library, and posted with fetch
 * (the library's own request is https only; a local push service in tests is http, which production refuses before
 * a device is stored, server/push/service.ts). The private key stays here; nothing of it, nor a device's endpoint (a
 * capability), is logged.
 */
import webpush from 'web-push';
import type { PushConfig } from '../config.ts';

/** A device's subscription as the browser gave it. */
export type Device = { endpoint: string; p256dh: string; auth: string };

/** The push service's answer: its HTTP status (201 taken; 404/410 the subscription is gone), 0 when it was not reached. */
export type PushTransport = (device: Device, payload: string) => Promise<{ status: number }>;

/** How long a push service keeps a push for a device that is off: a day, then the notifications page has it. */
export const PUSH_TTL_SECONDS = 24 * 3600;

/** The transport of a configured server: web-push with our VAPID details, a day's TTL, a timeout per request. */
export function webPushTransport(config: PushConfig, timeoutMs: number): PushTransport {
  const vapidDetails = { subject: config.subject, publicKey: config.publicKey, privateKey: config.privateKey };
  return async (device, payload) => {
    try {
      const r = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, payload, {
        vapidDetails,
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      });
      const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
      const res = await fetch(r.endpoint, {
        method: r.method,
        headers,
        body: r.body ? new Uint8Array(r.body) : null,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      return { status: res.status };
    } catch {
      // Not reached (network, timeout) or a subscription web-push cannot encrypt for: tried again later.
      return { status: 0 };
    }
  };
}
