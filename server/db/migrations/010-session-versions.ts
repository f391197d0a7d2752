/**
 * Sessions end at once (docs/rules/accounts-and-codes.md#10-sessions, docs/decisions/024-sessions-end-at-once.md).
 * A user's session version is raised when all his sessions end (a password change or reset, a deactivation, "log
 * out everywhere"); a session (a refresh token, and every access token issued for it) records the version of its
 * login and is live only while the two are equal. Sessions from before this migration keep version 0.
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN session_version integer NOT NULL DEFAULT 0;
ALTER TABLE refresh_tokens ADD COLUMN session_version integer NOT NULL DEFAULT 0;
`;
