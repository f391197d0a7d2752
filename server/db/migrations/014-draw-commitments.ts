/**
 * The verifiable draw's commitment (docs/rules/draws.md#2-the-seed-and-its-commitment): when a lottery is published
 * the server draws a secret seed `S` and announces `C = SHA-256(S)` and the drand round whose value will be the beacon.
 * Kept in a table of its own, apart from `lotteries`, so that no query of a lottery can carry the seed by mistake;
 * `seed` is read only by the draw and by the proof once `revealed_at` is set.
 */
export const sql = /* sql */ `
CREATE TABLE draw_commitments (
  lottery_id    bigint PRIMARY KEY REFERENCES lotteries(id) ON DELETE CASCADE,
  seed          text NOT NULL CHECK (seed ~ '^[0-9a-f]{64}$'),
  commitment    text NOT NULL CHECK (commitment ~ '^[0-9a-f]{64}$'),
  beacon_source text NOT NULL,
  beacon_round  bigint NOT NULL CHECK (beacon_round > 0),
  revealed_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
`;
