/**
 * The demo data's draws use a sample beacon value, not drand's (docs/rules/draws.md#12-where-it-stands): marked so
 * that the proof and the page say so.
 *
 * Winners chosen by staff (docs/rules/lotteries-and-sales.md#9-the-draw): an unverifiable draw is first proposed by one
 * staff member and finished only when a second one approves it, so no single insider can name a winner. One pending
 * proposal per lottery; a decided proposal stays as the record of who proposed, who decided and why.
 */
export const sql = /* sql */ `
CREATE TABLE draw_proposals (
  id          bigserial PRIMARY KEY,
  lottery_id  bigint NOT NULL REFERENCES lotteries(id) ON DELETE CASCADE,
  -- The proposed winning tickets, canonical, in the order chosen, one per line.
  tickets     text NOT NULL,
  reason      text NOT NULL,
  proposed_by bigint NOT NULL REFERENCES users(id),
  proposed_at timestamptz NOT NULL DEFAULT now(),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by  bigint REFERENCES users(id),
  decided_at  timestamptz,
  CHECK ((status = 'pending') = (decided_by IS NULL))
);
CREATE UNIQUE INDEX draw_proposals_one_pending ON draw_proposals (lottery_id) WHERE status = 'pending';
ALTER TABLE draw_commitments ADD COLUMN beacon_sample boolean NOT NULL DEFAULT false;
`;
