/**
 * A payment approved by hand needs two people (docs/rules/payments.md#1-who-may-do-what,
 * docs/decisions/048-approval-by-hand-needs-two.md): one staff member proposes approving a pending purchase with a
 * reason, a different one approves or rejects the proposal with a reason; the purchase becomes `success` only at the
 * approval. One pending proposal per purchase; a decided proposal stays as the record of who proposed, who decided and
 * why. `lapsed`: the lottery's sales closed before anyone approved it (refused on approval, nothing changed).
 */
export const sql = /* sql */ `
CREATE TABLE transaction_approval_proposals (
  id              bigserial PRIMARY KEY,
  transaction_id  bigint NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  -- The TrxID the receipt shows, as the purchase carried it when proposed: the approval confirms this payment only.
  trx_id          text NOT NULL,
  reason          text NOT NULL,
  proposed_by     bigint NOT NULL REFERENCES users(id),
  proposed_at     timestamptz NOT NULL DEFAULT now(),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'lapsed')),
  decided_by      bigint REFERENCES users(id),
  decided_at      timestamptz,
  decision_reason text,
  CHECK ((status = 'pending') = (decided_by IS NULL)),
  CHECK ((status = 'pending') = (decision_reason IS NULL))
);
CREATE UNIQUE INDEX transaction_approval_proposals_one_pending ON transaction_approval_proposals (transaction_id) WHERE status = 'pending';
CREATE INDEX transaction_approval_proposals_newest ON transaction_approval_proposals (status, id DESC);
`;
