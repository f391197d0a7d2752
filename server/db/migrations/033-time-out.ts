/**
 * A time-out (docs/rules/play-safe.md#3a-time-out): a short break of 24 hours, 7 days or 30 days, kept beside the
 * self-exclusion on the player's row (until when, asked for when), and each one in the history staff see
 * (play_limit_events kind 'time_out', its end in `until`).
 */
export const sql = /* sql */ `
ALTER TABLE play_limits ADD COLUMN timeout_until timestamptz;
ALTER TABLE play_limits ADD COLUMN timeout_at timestamptz;
ALTER TABLE play_limits ADD CONSTRAINT play_limits_timeout_pair CHECK ((timeout_until IS NULL) = (timeout_at IS NULL));
ALTER TABLE play_limit_events DROP CONSTRAINT play_limit_events_kind_check;
ALTER TABLE play_limit_events ADD CONSTRAINT play_limit_events_kind_check CHECK (kind IN ('limits', 'self_exclusion', 'time_out'));
`;
