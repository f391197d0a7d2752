/**
 * Messages to players (docs/rules/messages.md). `player_messages` is the notifications page and the outbox of their
 * SMS at once: a row is written in the transaction of the event it tells of, under a key unique to that event, so an
 * event makes one message however many instances see it; its SMS is then taken by one instance (a lease) and sent.
 * `message_settings` keeps the kinds a player switched off or on (no row: the defaults); `users.language` the
 * language his messages are written in (set at registration, changed in the settings).
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'bn' CHECK (language IN ('en', 'bn'));

CREATE TABLE player_messages (
  id              bigserial PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('ticket_confirmed', 'ticket_rejected', 'payment_refunded', 'prize_won',
                    'payout_sent', 'payout_failed', 'claim_reminder', 'new_lottery')),
  -- One event, one message: e.g. 'ticket_confirmed:42', 'claim_reminder:7:13'.
  event_key       text NOT NULL UNIQUE,
  params          jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  read_at         timestamptz,
  -- Its SMS (or e-mail without a phone): queued, being sent (leased), sent, failed for good, over the day's cap,
  -- or none (staff send it, or the player has no contact).
  sms_state       text NOT NULL DEFAULT 'queued' CHECK (sms_state IN ('queued', 'sending', 'sent', 'failed', 'capped', 'none')),
  sms_lease_until timestamptz,
  sms_tries       integer NOT NULL DEFAULT 0,
  sms_sent_at     timestamptz
);
CREATE INDEX player_messages_user ON player_messages (user_id, id DESC);
CREATE INDEX player_messages_unread ON player_messages (user_id) WHERE read_at IS NULL;
CREATE INDEX player_messages_to_send ON player_messages (id) WHERE sms_state IN ('queued', 'sending');
CREATE INDEX player_messages_sent_today ON player_messages (user_id, sms_sent_at) WHERE sms_sent_at IS NOT NULL;

CREATE TABLE message_settings (
  user_id        bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  claim_reminder boolean NOT NULL DEFAULT true,
  new_lottery    boolean NOT NULL DEFAULT false,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
`;
