/**
 * Prize claims (docs/rules/lotteries-and-sales.md#11-prize-claims): one claim per prize, made by the owner of the winning ticket,
 * with the account the prize is paid to. A claim starts `pending` when its code is first sent and becomes
 * `payment_info_submitted` with the payout details; staff complete the transfer or mark it failed, after which the
 * player may submit details again.
 */
export const sql = /* sql */ `
CREATE TABLE prize_claims (
  id                  bigserial PRIMARY KEY,
  prize_id            bigint NOT NULL UNIQUE REFERENCES prizes(id),
  user_id             bigint NOT NULL REFERENCES users(id),
  status              text NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'payment_info_submitted', 'transfer_completed', 'transfer_failed')),
  payment_method      text CHECK (payment_method IN ('bkash', 'nagad', 'rocket', 'bank')),
  account_number      text NOT NULL DEFAULT '',
  account_holder_name text NOT NULL DEFAULT '',
  bank_name           text NOT NULL DEFAULT '',
  branch_name         text NOT NULL DEFAULT '',
  submitted_at        timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (status = 'pending' OR payment_method IS NOT NULL)
);
CREATE INDEX prize_claims_user ON prize_claims (user_id);
CREATE INDEX prize_claims_status ON prize_claims (status, updated_at DESC);

-- A player's winning tickets and the claim of a transaction are found through the prize of a transaction.
CREATE INDEX prizes_transaction ON prizes (transaction_id);
`;
