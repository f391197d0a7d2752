/**
 * The tickets frozen at the end of sales (docs/rules/draws.md#3-the-tickets, docs/decisions/045-tickets-freeze-at-the-close.md):
 * one row per lottery, written once, under the lottery's lock, by the freeze job or by the draw itself, in the
 * transaction that rejected the tickets still pending. `tickets_digest` is T of the `success` tickets then and
 * `tickets_count` their number n; the draw refuses when its tickets no longer give this T.
 */
export const sql = /* sql */ `
CREATE TABLE ticket_freezes (
  lottery_id     bigint PRIMARY KEY REFERENCES lotteries(id) ON DELETE CASCADE,
  frozen_at      timestamptz NOT NULL,
  tickets_digest text NOT NULL CHECK (tickets_digest ~ '^[0-9a-f]{64}$'),
  tickets_count  integer NOT NULL CHECK (tickets_count >= 0),
  rejected       integer NOT NULL DEFAULT 0 CHECK (rejected >= 0)
);
`;
