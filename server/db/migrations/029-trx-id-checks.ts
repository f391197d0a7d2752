/**
 * Send Money confirmed by bKash (docs/rules/payments.md#9-send-money-confirmed-by-bkash): one row per purchase whose
 * player typed a TrxID, saying what bKash's Search Transaction answered about it.
 *
 * `state`:
 *   checking   bKash has not answered yet (unreachable): the reconciliation job asks again;
 *   confirmed  bKash's answer confirmed the purchase;
 *   refused    bKash's answer does not confirm it (`reason`, one of shared/payments/schemas.ts SEND_MONEY_REASONS);
 *   left       the purchase changed before bKash answered (`changed_meanwhile`), or its sales closed (`sales_closed`):
 *              staff and the statement decide.
 * `answer`: bKash's answer as the client normalised it (server/payments/bkash/client.ts BkashTransaction), null while
 * checking or when bKash knows no such TrxID. `lease_until`: as bkash_payments'.
 * Purchases that already carry a TrxID are checked too: the job asks about them. A check goes with its purchase.
 */
export const sql = /* sql */ `
CREATE TABLE trx_id_checks (
  transaction_id  bigint PRIMARY KEY REFERENCES transactions(id) ON DELETE CASCADE,
  trx_id          text NOT NULL,
  state           text NOT NULL DEFAULT 'checking' CHECK (state IN ('checking', 'confirmed', 'refused', 'left')),
  reason          text,
  answer          jsonb,
  checks          integer NOT NULL DEFAULT 0,
  lease_until     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trx_id_checks_open ON trx_id_checks (created_at) WHERE state = 'checking';
INSERT INTO trx_id_checks (transaction_id, trx_id)
  SELECT t.id, t.trx_id FROM transactions t
  WHERE t.status = 'pending' AND t.transaction_type = 'payment' AND t.trx_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM bkash_payments p WHERE p.trx_id = t.trx_id);
`;
