/**
 * The verifiable draw's commitment (docs/rules/draws.md#2-the-seed-and-its-commitment): when a lottery is published
 * the server draws a secret seed `S` and announces `C = SHA-256(S)` and the drand round whose value will be the beacon.
 * Kept in a table of its own, apart from `lotteries`, so that no query of a lottery can carry the seed by mistake;
 * `seed` is read only by the draw and by the proof once `revealed_at` is set (the draw by the procedure).
 */
export const sql = /* sql */ `
CREATE TABLE draw_commitments (
  lottery_id    bigint PRIMARY KEY REFERENCES lotteries(id) ON DELETE CASCADE,
  seed          text NOT NULL CHECK (seed ~ '^[0-9a-f]{64}$'),
  commitment    text NOT NULL CHECK (commitment ~ '^[0-9a-f]{64}$'),
  beacon_source text NOT NULL,
  beacon_round  bigint NOT NULL CHECK (beacon_round > 0),
  -- The beacon value P of the round, and who entered it (null: fetched from drand).
  beacon_value      text CHECK (beacon_value IS NULL OR beacon_value ~ '^[0-9a-f]{64}$'),
  beacon_entered_by bigint REFERENCES users(id),
  beacon_entered_at timestamptz,
  -- The draw by the procedure: the frozen tickets (canonical, sorted, one per line), their digest T, the lottery's
  -- winners count and the winners in the order drawn (one per line). Set with revealed_at, in the draw's transaction.
  tickets           text,
  tickets_digest    text CHECK (tickets_digest IS NULL OR tickets_digest ~ '^[0-9a-f]{64}$'),
  max_winners       integer,
  winners           text,
  revealed_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
`;
