/**
 * Devices that logged in before (docs/rules/limits.md#1-rate-limits, docs/decisions/025-limits-for-shared-addresses.md):
 * a device id is a random string the server issued (the browser's `bh_vid`, or the `X-Device-Id` answered to an API
 * login); after a successful login its SHA-256 is remembered for the account. A login from a remembered device is not
 * held back by the account's growing delay that failures from other devices cause. Only the hash is kept.
 */
export const sql = /* sql */ `
CREATE TABLE known_devices (
  user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  device_hash  text NOT NULL CHECK (device_hash ~ '^[0-9a-f]{64}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device_hash)
);
CREATE INDEX known_devices_last_used ON known_devices (last_used_at);
`;
