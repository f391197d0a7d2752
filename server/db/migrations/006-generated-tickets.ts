/**
 * Generated tickets (docs/rules/tickets.md#6-generated-tickets, #7-activating-a-generated-ticket): staff make them
 * for a lottery to be sold offline; a player activates one with its secret number, which turns it into a `success`
 * transaction of type `activation` (docs/decisions/015-generated-tickets.md). Until then its combination is held in
 * its lottery like a sold one: purchases refuse it and the sold count includes it.
 */
export const sql = /* sql */ `
CREATE TABLE generated_tickets (
  id             bigserial PRIMARY KEY,
  lottery_id     bigint NOT NULL REFERENCES lotteries(id),
  ticket_number  text NOT NULL CHECK (ticket_number ~ '^[0-9]{2}(-[0-9]{2}){5}$'),
  secret_number  text NOT NULL CHECK (secret_number ~ '^[0-9]{16}$'),
  activated_by   bigint REFERENCES users(id),
  activated_at   timestamptz,
  transaction_id bigint UNIQUE REFERENCES transactions(id),
  created_by     bigint REFERENCES users(id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (lottery_id, ticket_number),
  CHECK ((activated_by IS NULL) = (activated_at IS NULL) AND (activated_at IS NULL) = (transaction_id IS NULL))
);
-- Activation looks a ticket up by its number; the sold count of a lottery counts its non-activated ones.
CREATE INDEX generated_tickets_number ON generated_tickets (ticket_number);
CREATE INDEX generated_tickets_open ON generated_tickets (lottery_id) WHERE activated_at IS NULL;
CREATE INDEX generated_tickets_created ON generated_tickets (created_at DESC, id DESC);

-- A purchase is a 'payment'; an activated generated ticket an 'activation'.
ALTER TABLE transactions ADD CONSTRAINT transactions_type_known CHECK (transaction_type IN ('payment', 'activation'));
`;
