/**
 * A player's purchases awaiting payment (no TrxID yet), newest first, found by an index of their own
 * (docs/decisions/092-my-lotteries-joins-its-lotteries-once.md): My Lotteries lists at most ten of them on every view,
 * and by the index of all the player's transactions it read every row he ever bought to find that he has none. Only
 * the rows awaiting payment are in it; a purchase leaves it when its TrxID is given or it ends.
 */
export const sql = /* sql */ `
CREATE INDEX transactions_user_unfinished ON transactions (user_id, created_at DESC, id DESC)
  WHERE status = 'pending' AND trx_id IS NULL;
`;
