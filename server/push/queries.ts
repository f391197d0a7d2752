/** SQL of push notifications (docs/rules/messages.md#6-push-notifications); the rules live in server/push/service.ts. */
import type { Db } from '../db/index.ts';
import type { Language } from '../../shared/i18n.ts';
import type { MessageKind } from '../../shared/messages/kinds.ts';
import { PUSHED } from '../../shared/push/kinds.ts';

/** A device may be subscribed by one player at a time; a player keeps at most this many (the oldest goes). */
export const MAX_DEVICES = 10;

/**
 * The pushes of messages just written, in the messages' own transaction: one row per message and subscribed device
 * of its player, for the kinds he wants pushed (no settings row: every kind). A device subscribed later gets none.
 */
export async function queuePush(tx: Db, messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.query(
    `INSERT INTO push_deliveries (message_id, subscription_id)
     SELECT m.id, s.id FROM player_messages m
     JOIN push_subscriptions s ON s.user_id = m.user_id
     LEFT JOIN push_settings p ON p.user_id = m.user_id
     WHERE m.id = ANY($1::bigint[])
       AND ((m.kind = ANY($2::text[]) AND coalesce(p.results, true)) OR (m.kind = ANY($3::text[]) AND coalesce(p.confirmations, true)))
     ON CONFLICT DO NOTHING`,
    [messageIds, PUSHED.results, PUSHED.confirmations],
  );
}

export const settings = (db: Db, userId: number) =>
  db.one<{ results: boolean | null; confirmations: boolean | null; devices: number }>(
    `SELECT p.results, p.confirmations, (SELECT count(*)::int FROM push_subscriptions s WHERE s.user_id = $1) AS devices
     FROM (SELECT $1::bigint AS user_id) u LEFT JOIN push_settings p ON p.user_id = u.user_id`,
    [userId],
  );

export const saveSettings = (db: Db, userId: number, s: { results: boolean; confirmations: boolean }) =>
  db.query(
    `INSERT INTO push_settings (user_id, results, confirmations) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET results = $2, confirmations = $3, updated_at = now()`,
    [userId, s.results, s.confirmations],
  );

export type NewSubscription = { endpoint: string; p256dh: string; auth: string; label: string };

/**
 * A device subscribed: a new row, or the same endpoint's row renewed (its keys, its failures forgotten). A device
 * another account of the same browser had subscribed becomes this player's, and the pushes still waiting for the other
 * account's messages to it are dropped. Beyond MAX_DEVICES, his oldest subscription goes.
 */
export async function subscribe(db: Db, userId: number, s: NewSubscription): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`push:${userId}`]);
    const row = await tx.one<{ id: number; moved: boolean }>(
      `WITH old AS (SELECT id, user_id FROM push_subscriptions WHERE endpoint = $2)
       INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, label) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = $1, p256dh = $3, auth = $4, label = $5, failure_count = 0
       RETURNING id, coalesce((SELECT user_id FROM old), $1) <> $1 AS moved`,
      [userId, s.endpoint, s.p256dh, s.auth, s.label],
    );
    if (row?.moved) await tx.query(`DELETE FROM push_deliveries WHERE subscription_id = $1 AND state <> 'sent'`, [row.id]);
    await tx.query(
      `DELETE FROM push_subscriptions WHERE id IN (
         SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2)`,
      [userId, MAX_DEVICES],
    );
  });
}

/** Forgets one device of the player's; answers whether it was his. */
export const unsubscribe = async (db: Db, userId: number, endpoint: string): Promise<boolean> =>
  (await db.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2 RETURNING id', [userId, endpoint])).length > 0;

export type OutgoingPush = {
  message_id: number;
  subscription_id: number;
  tries: number;
  kind: MessageKind;
  params: unknown;
  language: Language;
  endpoint: string;
  p256dh: string;
  auth: string;
};

/** Takes up to `limit` waiting pushes (or those whose sender's lease ran out) for this instance, each for a minute. */
export const lease = (db: Db, limit: number, maxTries: number) =>
  db.query<OutgoingPush>(
    `WITH taken AS (
       SELECT message_id, subscription_id FROM push_deliveries
       WHERE (state = 'queued' OR (state = 'sending' AND lease_until < now())) AND tries < $2
       ORDER BY message_id LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     UPDATE push_deliveries d SET state = 'sending', lease_until = now() + interval '1 minute', tries = d.tries + 1
     FROM taken, player_messages m, push_subscriptions s, users u
     WHERE d.message_id = taken.message_id AND d.subscription_id = taken.subscription_id
       AND m.id = d.message_id AND s.id = d.subscription_id AND u.id = m.user_id
     RETURNING d.message_id, d.subscription_id, d.tries, m.kind, m.params, u.language, s.endpoint, s.p256dh, s.auth`,
    [limit, maxTries],
  );

/** A push the push service took: done, and the device known to work. */
export async function sent(db: Db, p: OutgoingPush): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(
      `UPDATE push_deliveries SET state = 'sent', lease_until = NULL, sent_at = now() WHERE message_id = $1 AND subscription_id = $2`,
      [p.message_id, p.subscription_id],
    );
    await tx.query('UPDATE push_subscriptions SET last_success_at = now(), failure_count = 0 WHERE id = $1', [p.subscription_id]);
  });
}

/** A push the push service refused for now: tried again by a later run, or failed for good after the last try. */
export async function failed(db: Db, p: OutgoingPush, final: boolean): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(`UPDATE push_deliveries SET state = $3, lease_until = NULL WHERE message_id = $1 AND subscription_id = $2`, [
      p.message_id,
      p.subscription_id,
      final ? 'failed' : 'queued',
    ]);
    await tx.query('UPDATE push_subscriptions SET failure_count = failure_count + 1 WHERE id = $1', [p.subscription_id]);
  });
}

/** A subscription the push service says is gone (404, 410): deleted, with every push still waiting for it. */
export const forget = (db: Db, subscriptionId: number) => db.query('DELETE FROM push_subscriptions WHERE id = $1', [subscriptionId]);

/** A push whose message no longer renders (never expected): nothing to send. */
export const dropped = (db: Db, p: OutgoingPush) =>
  db.query(`UPDATE push_deliveries SET state = 'failed', lease_until = NULL WHERE message_id = $1 AND subscription_id = $2`, [
    p.message_id,
    p.subscription_id,
  ]);
