/**
 * Games that run themselves on a calendar (docs/rules/games.md, docs/decisions/077-games-on-a-calendar.md). A `game` is a
 * numbers game with its ticket price, its prize table, its Lucky Chance prizes and its calendar: the Dhaka weekdays and
 * time of its draws, how long before a draw its sales close, and how many draws are on sale ahead. The server keeps
 * that many draws of every active game on sale; each draw is an ordinary numbers lottery of the game (`game_id`, and
 * `draw_at`, the instant it is drawn), made with the game's settings as they were then, so that a change of the game
 * applies only to draws not yet on sale. One draw per game and instant (the unique index): instances making the
 * calendar at once make each draw once.
 *
 * Lucky Chance's winners (docs/rules/draws.md#7a-lucky-chance): `draw_commitments.lucky`, the tickets drawn in the
 * order drawn, one per line, as the proof lists them; a winning ticket's prize says it holds Lucky Chance's
 * (`prizes.lucky_code`, its code). A ticket wins at most one prize row per draw: one that wins a tier and Lucky Chance
 * is paid both in one prize (docs/rules/games.md#5-lucky-chance), so that everything reading a ticket's prize still
 * reads one.
 *
 * `carry`: a jackpot nobody won that found no later draw of the game to roll into (the game paused): the next draw
 * made takes it. `lucky_count` and `lucky_prize` on a lottery: its Lucky Chance codes drawn and what each pays
 * (docs/rules/draws.md#7a-lucky-chance), 0 for none and for every lottery that is not a game's.
 */
export const sql = /* sql */ `
CREATE TABLE games (
  id                  bigserial PRIMARY KEY,
  name                text NOT NULL,
  name_bn             text NOT NULL DEFAULT '',
  description         text NOT NULL DEFAULT '',
  description_bn      text NOT NULL DEFAULT '',
  ticket_price        bigint NOT NULL CHECK (ticket_price >= 1),
  tickets_per_draw    integer NOT NULL CHECK (tickets_per_draw >= 1),
  jackpot_share       smallint NOT NULL CHECK (jackpot_share BETWEEN 0 AND 100),
  tier2_prize         bigint NOT NULL CHECK (tier2_prize >= 0),
  tier3_prize         bigint NOT NULL CHECK (tier3_prize >= 0),
  tier4_prize         bigint NOT NULL CHECK (tier4_prize >= 0),
  tier5_prize         bigint NOT NULL CHECK (tier5_prize >= 0),
  lucky_count         smallint NOT NULL DEFAULT 0 CHECK (lucky_count BETWEEN 0 AND 100),
  lucky_prize         bigint NOT NULL DEFAULT 0 CHECK (lucky_prize >= 0),
  -- The Dhaka weekdays of its draws, one bit each: 1 Sunday, 2 Monday … 64 Saturday.
  draw_days           smallint NOT NULL CHECK (draw_days BETWEEN 1 AND 127),
  -- The Dhaka time of its draws, in minutes after midnight (1200: 8 PM).
  draw_minute         smallint NOT NULL CHECK (draw_minute BETWEEN 0 AND 1439),
  close_minutes       integer NOT NULL CHECK (close_minutes BETWEEN 0 AND 10080),
  draws_ahead         smallint NOT NULL CHECK (draws_ahead BETWEEN 1 AND 52),
  -- No draw before this instant.
  starts_at           timestamptz NOT NULL,
  active              boolean NOT NULL DEFAULT true,
  carry               bigint NOT NULL DEFAULT 0 CHECK (carry >= 0),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((lucky_count = 0) = (lucky_prize = 0))
);

ALTER TABLE lotteries
  ADD COLUMN game_id bigint REFERENCES games(id),
  ADD COLUMN draw_at timestamptz,
  ADD COLUMN lucky_count smallint NOT NULL DEFAULT 0 CHECK (lucky_count BETWEEN 0 AND 100),
  ADD COLUMN lucky_prize bigint NOT NULL DEFAULT 0 CHECK (lucky_prize >= 0);

-- A game's draw is a numbers lottery with its draw's instant, drawn at or after its close (its rollover_to is not
-- named by staff: its draw records there the game's draw its jackpot rolled into); a one-off lottery has neither, and
-- no Lucky Chance.
ALTER TABLE lotteries ADD CONSTRAINT lotteries_game_fields CHECK (
  (game_id IS NULL) = (draw_at IS NULL)
  AND (game_id IS NULL OR (kind = 'numbers' AND draw_at >= end_date))
  AND (game_id IS NOT NULL OR (lucky_count = 0 AND lucky_prize = 0))
  AND ((lucky_count = 0) = (lucky_prize = 0))
);

CREATE UNIQUE INDEX lotteries_game_draw ON lotteries (game_id, draw_at) WHERE game_id IS NOT NULL;

ALTER TABLE draw_commitments ADD COLUMN lucky text;
ALTER TABLE prizes ADD COLUMN lucky_code text CHECK (lucky_code IS NULL OR lucky_code ~ '^BHG [0-9]{4} [0-9]{4}$');
-- "Check my numbers" reads a code's prizes (docs/rules/lotteries-and-sales.md#10-results-for-players).
CREATE INDEX prizes_lucky_code ON prizes (lucky_code) WHERE lucky_code IS NOT NULL;
`;
