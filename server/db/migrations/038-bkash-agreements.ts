/**
 * bKash agreements (docs/rules/payments.md#11-remembered-bkash-agreements, docs/decisions/079-bkash-agreements.md): a
 * player who asked to be remembered approved once, on bKash's page, with his wallet, code and PIN; later payments
 * take his PIN only.
 *
 * One row per approval asked for (`payment_id`: the creation's paymentID at bKash):
 *   created   → bKash's page was opened; the player has not come back yet;
 *   executing → his success callback claimed it, and the agreement is being made at bKash (one callback at a time);
 *   active    → in force: `agreement_id` and the `wallet` it pays from; at most one per player;
 *   failed    → not made (cancelled, failed on bKash's page, or bKash refused or did not answer the execute);
 *   cancelled → ended: by the player on his profile (`ended_by` 'player'), found cancelled at bKash ('bkash'), or
 *               replaced by a newer one ('replaced').
 * `transaction_id`: the purchase the player was paying when he asked, paid with the agreement once it is in force.
 *
 * `bkash_payments.agreement_id`: the agreement a payment was made with (mode 0001); null for one without.
 */
export const sql = /* sql */ `
CREATE TABLE bkash_agreements (
  id              bigserial PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users(id),
  payment_id      text NOT NULL UNIQUE CHECK (length(payment_id) BETWEEN 1 AND 100),
  agreement_id    text UNIQUE CHECK (length(agreement_id) BETWEEN 1 AND 100),
  wallet          text,
  state           text NOT NULL DEFAULT 'created' CHECK (state IN ('created', 'executing', 'active', 'failed', 'cancelled')),
  transaction_id  bigint REFERENCES transactions(id),
  reason          text,
  ended_by        text CHECK (ended_by IN ('player', 'bkash', 'replaced')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  activated_at    timestamptz,
  ended_at        timestamptz,
  CHECK (state <> 'active' OR agreement_id IS NOT NULL)
);
CREATE UNIQUE INDEX bkash_agreements_one_active ON bkash_agreements (user_id) WHERE state = 'active';
CREATE INDEX bkash_agreements_user ON bkash_agreements (user_id, created_at DESC);

ALTER TABLE bkash_payments ADD COLUMN agreement_id text;
`;
