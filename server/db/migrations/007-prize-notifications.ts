/**
 * Notifying winners and choosing them at random (docs/rules/lotteries-and-sales.md#9-the-draw,
 * docs/decisions/017-draw-page-and-notify.md).
 *
 * - `prizes.notified_at`: when the winner of the prize was sent his message. Notify Winners claims a prize by
 *   setting it (`UPDATE … WHERE notified_at IS NULL RETURNING`) before sending, so pressing twice, or two staff
 *   pressing together, send one message per prize.
 * - The participants of a lottery (its `success` transactions) in id order: the participants page and the random
 *   winner's count and offset walk this index instead of the lottery's whole table.
 */
export const sql = /* sql */ `
ALTER TABLE prizes ADD COLUMN notified_at timestamptz;
CREATE INDEX transactions_lottery_success ON transactions (lottery_id, id) WHERE status = 'success';
`;
