/**
 * The numbers draw and its prize tiers (docs/rules/lotteries-and-sales.md#9-the-draw, docs/rules/draws.md#7-numbers-draw,
 * docs/decisions/032-numbers-draw-tiers.md). A lottery is of the kind `tickets` (winning tickets drawn, the total prize
 * split equally: every lottery made before this) or `numbers` (five main numbers and a last number drawn, prizes by
 * tier). A numbers lottery has its jackpot's share of the sales, the fixed prizes of tiers 2 to 5, what earlier draws
 * rolled into its jackpot, and the lottery its own jackpot rolls into when nobody wins it. Its `winners` and
 * `total_prize` are kept at 1 (the table's checks) and never read: the API shows the jackpot as its total prize.
 */
export const sql = /* sql */ `
ALTER TABLE lotteries
  ADD COLUMN kind text NOT NULL DEFAULT 'tickets' CHECK (kind IN ('tickets', 'numbers')),
  ADD COLUMN jackpot_share smallint CHECK (jackpot_share BETWEEN 0 AND 100),
  ADD COLUMN tier2_prize bigint CHECK (tier2_prize >= 0),
  ADD COLUMN tier3_prize bigint CHECK (tier3_prize >= 0),
  ADD COLUMN tier4_prize bigint CHECK (tier4_prize >= 0),
  ADD COLUMN tier5_prize bigint CHECK (tier5_prize >= 0),
  ADD COLUMN rollover_in bigint NOT NULL DEFAULT 0 CHECK (rollover_in >= 0),
  ADD COLUMN rollover_to bigint REFERENCES lotteries(id),
  ADD COLUMN rollover_out bigint CHECK (rollover_out >= 0);

-- A numbers lottery has all its prize settings, a winning-tickets lottery none of them; a jackpot rolls from a numbers
-- lottery into another one (the target's kind and state are checked by the server, under its lock).
ALTER TABLE lotteries ADD CONSTRAINT lotteries_kind_fields CHECK (
  (kind = 'numbers') = (jackpot_share IS NOT NULL AND tier2_prize IS NOT NULL AND tier3_prize IS NOT NULL
    AND tier4_prize IS NOT NULL AND tier5_prize IS NOT NULL)
  AND (kind = 'numbers' OR (rollover_in = 0 AND rollover_to IS NULL AND rollover_out IS NULL))
  AND (rollover_to IS NULL OR rollover_to <> id)
);

-- The tier of a numbers draw's prize: 1 the jackpot … 5; null for a winning-tickets draw.
ALTER TABLE prizes ADD COLUMN tier smallint CHECK (tier BETWEEN 1 AND 5);

-- A numbers draw's result, written as a ticket (main numbers ascending, then the last number: 05-12-23-34-45-07).
ALTER TABLE draw_commitments ADD COLUMN numbers text CHECK (numbers IS NULL OR numbers ~ '^[0-9]{2}(-[0-9]{2}){5}$');
`;
