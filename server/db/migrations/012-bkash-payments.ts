/**
 * Payments through bKash's checkout (docs/rules/payments.md): one row per payment bKash created for one of our
 * transactions (a player may start the checkout of one purchase more than once; each start is another payment).
 *
 * `state` (docs/rules/payments.md#2-the-states-of-a-checkout-payment):
 *   created     bKash made the payment; the player has not finished, or we do not know yet how it ended;
 *   completed   bKash took the money and the ticket is confirmed;
 *   failed / cancelled / expired   no money moved;
 *   refund_due  bKash took the money but no ticket could be sold for it: it goes back;
 *   refunded    it went back (refund_trx_id).
 * `lease_until`: the reconciliation job of one instance has taken the row until then (several instances run it).
 */
export const sql = /* sql */ `
CREATE TABLE bkash_payments (
  payment_id      text PRIMARY KEY CHECK (length(payment_id) BETWEEN 1 AND 100),
  transaction_id  bigint NOT NULL REFERENCES transactions(id),
  amount          bigint NOT NULL CHECK (amount > 0),
  state           text NOT NULL DEFAULT 'created'
                  CHECK (state IN ('created', 'completed', 'failed', 'cancelled', 'expired', 'refund_due', 'refunded')),
  bkash_status    text,
  trx_id          text UNIQUE,
  reason          text,
  refund_trx_id   text,
  refunded_at     timestamptz,
  settled_at      timestamptz,
  checks          integer NOT NULL DEFAULT 0,
  lease_until     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bkash_payments_transaction ON bkash_payments (transaction_id, created_at DESC);
-- The reconciliation job's work: payments whose outcome is open, oldest first.
CREATE INDEX bkash_payments_open ON bkash_payments (created_at) WHERE state IN ('created', 'refund_due');
`;
