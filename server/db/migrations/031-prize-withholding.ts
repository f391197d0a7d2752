/**
 * A prize of a published draw is never deleted; it can be withheld, by two people
 * (docs/rules/lotteries-and-sales.md#9-the-draw, docs/decisions/055-withholding-by-two.md): a superuser proposes
 * withholding it with a reason, a different staff member approves or rejects the proposal with a reason; the author
 * may withdraw it. At the approval the prize is marked withheld with the proposal's reason (`withheld_at`,
 * `withheld_reason`; the approved proposal says who); its row, ticket and money stay, so the results and the proof
 * still show it. One pending proposal per prize. No code deletes a prize any more (the cascade is for tests' cleanup).
 */
export const sql = /* sql */ `
CREATE TABLE prize_withholding_proposals (
  id              bigserial PRIMARY KEY,
  prize_id        bigint NOT NULL REFERENCES prizes(id) ON DELETE CASCADE,
  reason          text NOT NULL,
  proposed_by     bigint NOT NULL REFERENCES users(id),
  proposed_at     timestamptz NOT NULL DEFAULT now(),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'withdrawn')),
  decided_by      bigint REFERENCES users(id),
  decided_at      timestamptz,
  decision_reason text,
  CHECK ((status = 'pending') = (decided_by IS NULL)),
  CHECK ((status = 'pending') = (decision_reason IS NULL))
);
CREATE UNIQUE INDEX prize_withholding_proposals_one_pending ON prize_withholding_proposals (prize_id) WHERE status = 'pending';
CREATE INDEX prize_withholding_proposals_prize ON prize_withholding_proposals (prize_id, id DESC);

ALTER TABLE prizes ADD COLUMN withheld_at timestamptz;
ALTER TABLE prizes ADD COLUMN withheld_reason text;
-- The winner is told (server/messages/outbox.ts tellWithheld).
ALTER TABLE player_messages DROP CONSTRAINT player_messages_kind_check;
ALTER TABLE player_messages ADD CONSTRAINT player_messages_kind_check CHECK (kind IN ('ticket_confirmed', 'ticket_rejected',
  'payment_refunded', 'prize_won', 'prize_withheld', 'payout_sent', 'payout_failed', 'claim_reminder', 'new_lottery'));
ALTER TABLE prizes ADD CONSTRAINT prizes_withheld_whole CHECK ((withheld_at IS NULL) = (withheld_reason IS NULL));
`;
