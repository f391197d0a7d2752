/**
 * Consecutive draws paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips, docs/decisions/078-runs-paid-once.md):
 * a **slip** is one purchase of a game's lines (1–10 combinations) for a run of its next draws (1, 3, 5, 12 or 25),
 * paid by one payment of its whole amount. Each line of each draw is its own transaction (`slip_id`), frozen, drawn and
 * paid like any ticket; the slip's first entry (`lead_id`, the earliest draw's first line) carries the slip's bKash
 * checkout, so that the payments' paths (callback, reconciliation, refund) stay those of one transaction.
 *
 * A paid run whose draws are all drawn but one tells its player once (`run_last_draw`, docs/rules/messages.md).
 *
 * `status`: pending until its payment settles; paid when every entry was confirmed at once; failed when its payment
 * failed or it could no longer be paid (its first draw closed): then none of its entries stays held.
 */
export const sql = /* sql */ `
CREATE TABLE slips (
  id              bigserial PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users(id),
  game_id         bigint NOT NULL REFERENCES games(id),
  lines           smallint NOT NULL CHECK (lines BETWEEN 1 AND 10),
  draws           smallint NOT NULL CHECK (draws BETWEEN 1 AND 25),
  amount          bigint NOT NULL CHECK (amount > 0),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed')),
  lead_id         bigint UNIQUE,
  trx_id          text UNIQUE,
  idempotency_key text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);
CREATE INDEX slips_user ON slips (user_id, created_at DESC);

ALTER TABLE transactions ADD COLUMN slip_id bigint REFERENCES slips(id);
CREATE INDEX transactions_slip ON transactions (slip_id) WHERE slip_id IS NOT NULL;
ALTER TABLE slips ADD CONSTRAINT slips_lead FOREIGN KEY (lead_id) REFERENCES transactions(id);

-- A paid run with one draw left tells its player (server/messages/outbox.ts tellRunsLastDraw).
ALTER TABLE player_messages DROP CONSTRAINT player_messages_kind_check;
ALTER TABLE player_messages ADD CONSTRAINT player_messages_kind_check CHECK (kind IN ('ticket_confirmed', 'ticket_rejected',
  'payment_refunded', 'prize_won', 'prize_withheld', 'payout_sent', 'payout_failed', 'claim_reminder', 'new_lottery', 'run_last_draw'));
`;
