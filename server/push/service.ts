/**
 * Push notifications to the installed app (docs/rules/messages.md#6-push-notifications): a player's devices and the
 * kinds he wants pushed, and the sending of each message's push once per device, on whichever instance takes it first.
 */
import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import { pushPayload } from '../../shared/push/kinds.ts';
import { isLocalPushEndpoint, type PushSettings, type PushSettingsBody, type PushSubscriptionBody } from '../../shared/push/schemas.ts';
import type { PushConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Texts } from '../i18n.ts';
import type { Logger } from '../log.ts';
import { renderMessage } from '../messages/texts.ts';
import * as q from './queries.ts';
import { webPushTransport, type PushTransport } from './transport.ts';

/** A push the push service refused is tried this many times in all (a run every few seconds, like an SMS), then failed. */
export const MAX_PUSH_TRIES = 5;

/**
 * The pushes of messages just written, in their own transaction (server/messages/outbox.ts): once per message and
 * subscribed device, for the kinds the player wants pushed.
 */
export const queuePush = (tx: Db, messageIds: readonly number[]): Promise<void> => q.queuePush(tx, messageIds);

/** The push services' answers that mean the subscription is gone for good: it is deleted. */
const GONE = new Set([404, 410]);

/** What the push service uses. */
type PushDeps = {
  db: Db;
  log: Logger;
  /** The app's texts, for each push in its player's language. */
  t: Texts;
  /** null: this server sends no push (no VAPID keys). */
  config: PushConfig | null;
  production: boolean;
  timeoutMs: number;
  /** Another way to send (tests); by default web-push with the configured keys. */
  transport?: PushTransport;
};

export class Push {
  private readonly transport: PushTransport | null;
  private readonly d: PushDeps;
  constructor(d: PushDeps) {
    this.d = d;
    this.transport = d.config ? (d.transport ?? webPushTransport(d.config, d.timeoutMs)) : null;
  }

  /** Whether this server sends pushes (the page shows its switch only then). */
  get enabled(): boolean {
    return this.transport !== null;
  }

  /** `GET /api/v1/push-settings/`. */
  async settings(userId: number): Promise<z.input<typeof PushSettings>> {
    const s = await q.settings(this.d.db, userId);
    return {
      public_key: this.d.config?.publicKey ?? null,
      results: s?.results ?? true,
      confirmations: s?.confirmations ?? true,
      devices: s?.devices ?? 0,
    };
  }

  /** `PUT /api/v1/push-settings/`. */
  async saveSettings(userId: number, body: z.output<typeof PushSettingsBody>): Promise<z.input<typeof PushSettings>> {
    await q.saveSettings(this.d.db, userId, body);
    return this.settings(userId);
  }

  /**
   * `POST /api/v1/push-subscriptions/`: refused (409) by a server without push; a local push service (http) only
   * outside production.
   */
  async subscribe(userId: number, body: z.output<typeof PushSubscriptionBody>): Promise<z.input<typeof PushSettings>> {
    if (!this.enabled) refuse('push_off');
    if (this.d.production && isLocalPushEndpoint(body.endpoint)) refuse('push_endpoint_invalid');
    await q.subscribe(this.d.db, userId, {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      label: body.label ?? '',
    });
    return this.settings(userId);
  }

  /** `POST /api/v1/push-subscriptions/remove/`: only the caller's own device (404 for any other endpoint). */
  async unsubscribe(userId: number, endpoint: string): Promise<z.input<typeof PushSettings>> {
    if (!(await q.unsubscribe(this.d.db, userId, endpoint))) refuse('push_subscription_not_found');
    return this.settings(userId);
  }

  /**
   * One run of the sender: up to `limit` waiting pushes taken (leased) and sent, each in its player's language. A
   * subscription the push service says is gone (404/410) is deleted; another refusal is tried again by a later run,
   * MAX_PUSH_TRIES in all. Answers how many were taken.
   */
  async dispatch(limit = 20): Promise<number> {
    if (!this.transport) return 0;
    const taken = await q.lease(this.d.db, limit, MAX_PUSH_TRIES);
    for (const p of taken) await this.deliver(this.transport, p);
    return taken.length;
  }

  private async deliver(transport: PushTransport, p: q.OutgoingPush): Promise<void> {
    const m = renderMessage(this.d.t, p.kind, p.params, p.language);
    if (!m) {
      await q.dropped(this.d.db, p);
      return;
    }
    const payload = JSON.stringify(pushPayload(p.message_id, m));
    const { status } = await transport({ endpoint: p.endpoint, p256dh: p.p256dh, auth: p.auth }, payload);
    if (status >= 200 && status < 300) await q.sent(this.d.db, p);
    else if (GONE.has(status)) await q.forget(this.d.db, p.subscription_id);
    else {
      // The endpoint is a capability: only its host is logged.
      this.d.log.warn({ status, host: hostOf(p.endpoint), tries: p.tries }, 'a push was refused');
      await q.failed(this.d.db, p, p.tries >= MAX_PUSH_TRIES);
    }
  }
}

const hostOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
};
