/**
 * Push notifications to the installed app (docs/rules/messages.md#6-push-notifications). `push_subscriptions`: a
 * player's devices, as their browsers' push services gave them (the endpoint and its keys), deleted when the push
 * service says the subscription is gone (404/410). `push_settings`: which kinds of message he wants pushed (no row: all
 * of them, once a device is subscribed). `push_deliveries`: one row per message and device, written in the message's
 * own transaction, the outbox of its push: leased by one instance, sent once, tried again like an SMS.
 */
export const sql = /* sql */ `
CREATE TABLE push_subscriptions (
  id              bigserial PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint        text NOT NULL UNIQUE,
  p256dh          text NOT NULL,
  auth            text NOT NULL,
  label           text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_success_at timestamptz,
  failure_count   integer NOT NULL DEFAULT 0
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

CREATE TABLE push_settings (
  user_id       bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  results       boolean NOT NULL DEFAULT true,
  confirmations boolean NOT NULL DEFAULT true,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE push_deliveries (
  message_id      bigint NOT NULL REFERENCES player_messages(id) ON DELETE CASCADE,
  subscription_id bigint NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
  lease_until     timestamptz,
  tries           integer NOT NULL DEFAULT 0,
  sent_at         timestamptz,
  PRIMARY KEY (message_id, subscription_id)
);
CREATE INDEX push_deliveries_to_send ON push_deliveries (message_id) WHERE state IN ('queued', 'sending');
CREATE INDEX push_deliveries_subscription ON push_deliveries (subscription_id);
`;
