/**
 * The version of what a player's card shows of its lottery (docs/decisions/100-lottery-facts-kept-by-version.md):
 * `lottery_tallies.facts`, a fresh number from `lottery_facts_seq` whenever the lottery's row or its draw's commitment
 * changes, in the transaction that changes them. My Lotteries keeps each lottery's part of a card (names, dates, kind,
 * results, Lucky Chance key) in memory with the version it was read at, and uses it only while the tally it reads with
 * the player's rows still carries that version: the database says when it is current, on every instance and worker.
 * The numbers come from one sequence and are never given twice, so a version also tells one lottery from another.
 *
 * The tally row is the one My Lotteries joins already (for the jackpot's sales). A lottery's row is always locked
 * before its tally's (a purchase holds its lottery, then its sales add to the tally; an edit or a draw locks the
 * lottery, then its trigger writes the tally; a commitment is announced in the transaction that publishes its lottery,
 * or alone), so the version adds no new order of locks. Lotteries change seldom
 * (an edit, a draw, a rollover); a sale changes only the tally's sums, not the version.
 */
export const sql = /* sql */ `
CREATE SEQUENCE lottery_facts_seq;

ALTER TABLE lottery_tallies ADD COLUMN facts bigint NOT NULL DEFAULT nextval('lottery_facts_seq');

CREATE FUNCTION lottery_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'lotteries' THEN
    UPDATE lottery_tallies x SET facts = nextval('lottery_facts_seq') WHERE x.lottery_id IN (SELECT id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE lottery_tallies x SET facts = nextval('lottery_facts_seq') WHERE x.lottery_id IN (SELECT lottery_id FROM old_rows);
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE lottery_tallies x SET facts = nextval('lottery_facts_seq') WHERE x.lottery_id IN (SELECT lottery_id FROM new_rows);
  ELSE
    -- Only the commitment and the drawn numbers are a card's; a beacon entered or a seed sealed leaves the tally alone.
    UPDATE lottery_tallies x SET facts = nextval('lottery_facts_seq') WHERE x.lottery_id IN (
      SELECT n.lottery_id FROM new_rows n JOIN old_rows o ON o.lottery_id = n.lottery_id
      WHERE n.numbers IS DISTINCT FROM o.numbers OR n.commitment IS DISTINCT FROM o.commitment);
  END IF;
  RETURN NULL;
END
$$;

-- A new lottery's tally is made with a fresh version (lotteries_tally); every later change of its row gives another.
CREATE TRIGGER lotteries_facts_update AFTER UPDATE ON lotteries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_facts_changed();
CREATE TRIGGER draw_commitments_facts_insert AFTER INSERT ON draw_commitments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_facts_changed();
CREATE TRIGGER draw_commitments_facts_update AFTER UPDATE ON draw_commitments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_facts_changed();
CREATE TRIGGER draw_commitments_facts_delete AFTER DELETE ON draw_commitments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_facts_changed();
`;
