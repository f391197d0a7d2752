/**
 * One staff member must not be able to take a player's prize (docs/rules/lotteries-and-sales.md#11-prize-claims,
 * docs/decisions/023-four-eyes-on-money-out.md):
 * - when a player's phone, e-mail or (by staff) password last changed, and who changed it: his claims and payouts
 *   are held for 72 hours after, and the one who changed it never completes his transfer;
 * - the second staff member who approved a large transfer, and when (cleared when new payout details arrive).
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN contact_changed_at timestamptz;
ALTER TABLE users ADD COLUMN contact_changed_by bigint REFERENCES users(id) ON DELETE SET NULL;

ALTER TABLE prize_claims ADD COLUMN transfer_approved_by bigint REFERENCES users(id);
ALTER TABLE prize_claims ADD COLUMN transfer_approved_at timestamptz;
ALTER TABLE prize_claims ADD CONSTRAINT prize_claims_approval_whole
  CHECK ((transfer_approved_by IS NULL) = (transfer_approved_at IS NULL));
`;
