/**
 * The reality check (docs/rules/play-safe.md#7-reality-check): how often the player wants to be reminded, in minutes
 * (0: off; null: he never chose, the default of shared/play-safe/reality.ts applies, every 60 minutes), kept beside his
 * spend limits; and, on each session (a refresh token's row: its start is the row's created_at), when its last reminder
 * was acknowledged (null: none yet).
 */
export const sql = /* sql */ `
ALTER TABLE play_limits ADD COLUMN reality_minutes integer CHECK (reality_minutes IN (0, 15, 30, 60, 120));
ALTER TABLE refresh_tokens ADD COLUMN reality_acknowledged_at timestamptz;
`;
