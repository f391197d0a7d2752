/**
 * Keeping play safe (docs/rules/play-safe.md): a player's spend limits per day, week and month (whole taka; null: none),
 * a raise waiting for its time (docs/rules/play-safe.md#2-changing-a-limit: the three limits asked for and when they
 * take effect), and his self-exclusion (until when, asked for when). One row per player who set anything; no row is
 * no limit and no exclusion. Every request is kept in play_limit_events, so that staff see what was set and when.
 */
export const sql = /* sql */ `
CREATE TABLE play_limits (
  user_id         bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  day_limit       bigint CHECK (day_limit > 0),
  week_limit      bigint CHECK (week_limit > 0),
  month_limit     bigint CHECK (month_limit > 0),
  pending_day     bigint CHECK (pending_day > 0),
  pending_week    bigint CHECK (pending_week > 0),
  pending_month   bigint CHECK (pending_month > 0),
  -- When the pending limits take effect; null: nothing waiting (the pending columns are then null too).
  pending_at      timestamptz,
  excluded_until  timestamptz,
  excluded_at     timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (pending_at IS NOT NULL OR (pending_day IS NULL AND pending_week IS NULL AND pending_month IS NULL)),
  CHECK ((excluded_until IS NULL) = (excluded_at IS NULL))
);
CREATE TABLE play_limit_events (
  id            bigserial PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('limits', 'self_exclusion')),
  -- kind 'limits': the three limits asked for, and when they take effect (now, or 24 hours later for a raise).
  day_limit     bigint,
  week_limit    bigint,
  month_limit   bigint,
  effective_at  timestamptz,
  -- kind 'self_exclusion': until when.
  until         timestamptz,
  at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX play_limit_events_user ON play_limit_events (user_id, at DESC, id DESC);
`;
