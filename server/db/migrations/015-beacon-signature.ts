/**
 * The beacon's signature (docs/rules/draws.md#4-the-beacon): drand quicknet's BLS signature of the announced round,
 * whose SHA-256 is the beacon value. Kept when the server fetched and verified the value, or staff entered the
 * signature, so that anyone can check the value against drand's public key without asking drand.
 */
export const sql = /* sql */ `
ALTER TABLE draw_commitments ADD COLUMN beacon_signature text
  CHECK (beacon_signature IS NULL OR beacon_signature ~ '^[0-9a-f]{96}$');
`;
