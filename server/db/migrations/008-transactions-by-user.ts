/**
 * A player's transactions in the order My Lotteries pages them (newest first, then by id), so that a page stops after
 * its rows (docs/decisions/013-logged-in-pages.md). Replaces the index of 001 without the id.
 */
export const sql = /* sql */ `
CREATE INDEX transactions_user_page ON transactions (user_id, created_at DESC, id DESC);
DROP INDEX transactions_user;
`;
