/**
 * Prizes paid by bKash (docs/rules/lotteries-and-sales.md#11-prize-claims ("Paid by bKash"), docs/decisions/081-prizes-paid-by-bkash.md).
 * A claim paid to a bKash wallet is sent by the server through bKash's B2C payout; each try is one row of
 * `prize_payouts`, with its own invoice number (`merchantInvoiceNumber`, the claim's id and the try's number):
 *   waiting   → "Pay now" was pressed, and bKash's disbursement balance did not cover it: nothing sent; the
 *               reconciliation job sends it when the balance does;
 *   sending   → written (and committed) before the call to bKash: the money may be leaving now;
 *   completed → bKash said the money arrived: `trx_id`, `fee`, `completed_at`; the claim is transfer_completed;
 *   refused   → bKash refused it (`code`, `message`): nothing was sent; the claim is transfer_failed;
 *   unknown   → sent, and no answer came (or the app died before it was recorded): the money may have left. Never
 *               sent again by itself: staff settle it with the TrxID bKash's merchant portal shows (checked with bKash),
 *               or a second staff member says it was not sent;
 *   not_sent  → an unknown one found not sent, or a waiting one given up: the claim may be paid again.
 * At most one try of a claim is waiting, sending, unknown or completed at a time (`prize_payouts_one_live`): two staff
 * pressing at once, or the job and a staff member, send one payout.
 *
 * `prize_claims.transfer_reference`: what proves the money left: bKash's TrxID of the payout, or the reference a
 * staff member recorded of a transfer made by hand (Nagad, Rocket, a bank). `transfer_failure`: bKash's refusal code.
 * `bkash_balances`: bKash's organisation balance as last read (before payouts, and by the job), for the dashboard.
 */
export const sql = /* sql */ `
CREATE TABLE prize_payouts (
  id           bigserial PRIMARY KEY,
  claim_id     bigint NOT NULL REFERENCES prize_claims(id),
  try          int NOT NULL CHECK (try > 0),
  invoice      text NOT NULL UNIQUE,
  amount       bigint NOT NULL CHECK (amount > 0),
  receiver     text NOT NULL,
  state        text NOT NULL CHECK (state IN ('waiting', 'sending', 'completed', 'refused', 'unknown', 'not_sent')),
  trx_id       text UNIQUE,
  fee          text,
  code         text,
  message      text,
  pressed_by   bigint NOT NULL REFERENCES users(id),
  settled_by   bigint REFERENCES users(id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  sent_at      timestamptz,
  completed_at timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (claim_id, try),
  CHECK (state <> 'completed' OR trx_id IS NOT NULL)
);
CREATE UNIQUE INDEX prize_payouts_one_live ON prize_payouts (claim_id) WHERE state IN ('waiting', 'sending', 'unknown', 'completed');
CREATE INDEX prize_payouts_open ON prize_payouts (created_at) WHERE state IN ('waiting', 'sending', 'unknown');

ALTER TABLE prize_claims ADD COLUMN transfer_reference text CHECK (length(transfer_reference) BETWEEN 1 AND 100);
ALTER TABLE prize_claims ADD COLUMN transfer_failure text;

CREATE TABLE bkash_balances (
  id                bigserial PRIMARY KEY,
  disbursement_paisa bigint,
  collection_paisa  bigint,
  read_at           timestamptz NOT NULL DEFAULT now()
);
`;
