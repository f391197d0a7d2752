/**
 * SMS through real gateways (docs/rules/messages.md#7-sms-gateways). Each row of `outbox` is one live send (an SMS or
 * an e-mail, a one-time code or a message) and now says what became of it: which gateway took it (or was tried last),
 * our reference for it (SSL Wireless's `csms_id`), the gateway's own reference (what a delivery report is asked by),
 * its state — sending, sent (the gateway accepted it), delivered or failed (its delivery report, or a refusal), or
 * unknown (the request went out and no answer came: it may have been sent) — and why it was not sent. The back
 * office lists them for staff. A player's message keeps one reference for all its tries (`sms_reference`), so that a
 * gateway that refuses a reference it has already taken (SSL Wireless) turns a repeated try into "already sent".
 */
export const sql = /* sql */ `
ALTER TABLE outbox ADD COLUMN gateway text;
ALTER TABLE outbox ADD COLUMN reference text;
ALTER TABLE outbox ADD COLUMN gateway_ref text;
ALTER TABLE outbox ADD COLUMN state text NOT NULL DEFAULT 'sending'
  CHECK (state IN ('sending', 'sent', 'delivered', 'failed', 'unknown'));
ALTER TABLE outbox ADD COLUMN state_at timestamptz;
ALTER TABLE outbox ADD COLUMN error text;
-- When its delivery report was last asked for (server/notify/reports.ts).
ALTER TABLE outbox ADD COLUMN checked_at timestamptz;
UPDATE outbox SET state = CASE WHEN sent_at IS NULL THEN 'failed' ELSE 'sent' END, state_at = COALESCE(sent_at, created_at);
CREATE INDEX outbox_reference ON outbox (reference) WHERE reference IS NOT NULL;
CREATE INDEX outbox_awaiting_report ON outbox (sent_at) WHERE state = 'sent' AND gateway_ref IS NOT NULL;
ALTER TABLE player_messages ADD COLUMN sms_reference text NOT NULL
  DEFAULT ('pm' || substr(md5(random()::text || clock_timestamp()::text), 1, 18));
`;
