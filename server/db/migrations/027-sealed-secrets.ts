/**
 * Secrets at rest (docs/rules/security.md#6-secrets-and-configuration, docs/decisions/049-secrets-sealed-at-rest.md):
 * the seed of an undrawn lottery and a generated ticket's secret are kept sealed (AES-256-GCM under a key derived from
 * SECRET_KEY, server/crypto/sealed.ts), never in clear, so that a dump or a backup alone reveals neither.
 *
 * - `draw_commitments.seed_sealed`: the seed while it is secret. Exactly one of `seed` and `seed_sealed` is set: the
 *   draw writes the seed in clear as it reveals it (it is public in the proof from then on) and empties the sealed one.
 * - `generated_tickets.secret_sealed`, and `secret_lookup`, HMAC-SHA256 of the secret under another derived key, by
 *   which activation and the staff's search find a ticket. `secret_number` stays only for rows not sealed yet.
 *
 * SQL cannot seal: the rows kept in clear before are sealed by the start-up step that follows the migrations
 * (server/crypto/seal-at-start.ts), which empties their clear columns.
 */
export const sql = /* sql */ `
ALTER TABLE draw_commitments ALTER COLUMN seed DROP NOT NULL;
ALTER TABLE draw_commitments ADD COLUMN seed_sealed text CHECK (seed_sealed IS NULL OR seed_sealed ~ '^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$');
ALTER TABLE draw_commitments ADD CONSTRAINT draw_commitments_one_seed CHECK ((seed IS NULL) <> (seed_sealed IS NULL));
ALTER TABLE draw_commitments ADD CONSTRAINT draw_commitments_revealed_seed CHECK (revealed_at IS NULL OR seed IS NOT NULL);

ALTER TABLE generated_tickets ALTER COLUMN secret_number DROP NOT NULL;
ALTER TABLE generated_tickets ADD COLUMN secret_sealed text CHECK (secret_sealed IS NULL OR secret_sealed ~ '^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$');
ALTER TABLE generated_tickets ADD COLUMN secret_lookup text CHECK (secret_lookup IS NULL OR secret_lookup ~ '^[0-9a-f]{64}$');
ALTER TABLE generated_tickets ADD CONSTRAINT generated_tickets_one_secret
  CHECK ((secret_number IS NULL) <> (secret_sealed IS NULL) AND (secret_sealed IS NULL) = (secret_lookup IS NULL));
-- The staff's search by a whole secret finds its ticket by this hash.
CREATE INDEX generated_tickets_secret_lookup ON generated_tickets (secret_lookup);
`;
