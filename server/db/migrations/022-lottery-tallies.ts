/**
 * What a lottery's sales add up to, kept by the database as they change (docs/decisions/043-lottery-tallies.md,
 * docs/rules/lotteries-and-sales.md#4-when-a-lottery-can-be-bought): `held`, the combinations held (transactions
 * `pending` or `success`, generated tickets not yet activated), which says whether it is sold out; `paid`, the
 * price of its `success` tickets, which a numbers lottery's jackpot is a share of; and its transactions by status
 * (`sold`: success, `pending`, `failed`), which the staff's dashboard and transactions list count. Before, every
 * purchase, every card of a list and every row of the staff's transactions counted them again over the lottery's rows:
 * with 200,000 tickets sold that was 83 ms a purchase and 2 s a staff page on the embedded database (bench/RESULTS.md).
 *
 * Triggers keep them, whatever statement writes the rows (the app, the demo seed, a fix by hand): one tally row per
 * lottery, made with it; per statement, from its transition tables, so that a bulk insert (a batch of generated
 * tickets) changes the tally once. The existing rows are counted once here, with writes held off until this commits.
 */
export const sql = /* sql */ `
LOCK TABLE lotteries, transactions, generated_tickets IN SHARE ROW EXCLUSIVE MODE;

-- The staff's transactions list, newest first: its page is read from this end, not sorted out of every row.
CREATE INDEX transactions_newest ON transactions (created_at DESC, id DESC);

CREATE TABLE lottery_tallies (
  lottery_id bigint PRIMARY KEY REFERENCES lotteries(id) ON DELETE CASCADE,
  held       bigint NOT NULL DEFAULT 0 CHECK (held >= 0),
  paid       bigint NOT NULL DEFAULT 0 CHECK (paid >= 0),
  sold       bigint NOT NULL DEFAULT 0 CHECK (sold >= 0),
  pending    bigint NOT NULL DEFAULT 0 CHECK (pending >= 0),
  failed     bigint NOT NULL DEFAULT 0 CHECK (failed >= 0)
);

INSERT INTO lottery_tallies (lottery_id, held, paid, sold, pending, failed)
SELECT l.id, COALESCE(c.sold + c.pending, 0) + (SELECT count(*) FROM generated_tickets g WHERE g.lottery_id = l.id AND g.activated_at IS NULL),
  COALESCE(c.paid, 0), COALESCE(c.sold, 0), COALESCE(c.pending, 0), COALESCE(c.failed, 0)
FROM lotteries l
LEFT JOIN (SELECT lottery_id, COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0) AS paid,
             count(*) FILTER (WHERE status = 'success') AS sold, count(*) FILTER (WHERE status = 'pending') AS pending,
             count(*) FILTER (WHERE status = 'failed') AS failed
           FROM transactions GROUP BY lottery_id) c ON c.lottery_id = l.id;

CREATE FUNCTION lottery_tally_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lottery_tallies (lottery_id) SELECT id FROM new_rows;
  RETURN NULL;
END
$$;

CREATE TRIGGER lotteries_tally AFTER INSERT ON lotteries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_open();

-- A transaction holds its combination while pending or success, and pays into the sales when success; each row's part
-- in its lottery's tally is added for the rows a statement wrote and taken away for the rows it replaced.
CREATE FUNCTION lottery_tally_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE lottery_tallies x SET held = x.held + d.held, paid = x.paid + d.paid, sold = x.sold + d.sold, pending = x.pending + d.pending,
      failed = x.failed + d.failed
    FROM (SELECT lottery_id, count(*) FILTER (WHERE status IN ('pending', 'success')) AS held,
            COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0) AS paid, count(*) FILTER (WHERE status = 'success') AS sold,
            count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'failed') AS failed
          FROM new_rows GROUP BY lottery_id) d
    WHERE x.lottery_id = d.lottery_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE lottery_tallies x SET held = x.held - d.held, paid = x.paid - d.paid, sold = x.sold - d.sold, pending = x.pending - d.pending,
      failed = x.failed - d.failed
    FROM (SELECT lottery_id, count(*) FILTER (WHERE status IN ('pending', 'success')) AS held,
            COALESCE(sum(amount) FILTER (WHERE status = 'success'), 0) AS paid, count(*) FILTER (WHERE status = 'success') AS sold,
            count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'failed') AS failed
          FROM old_rows GROUP BY lottery_id) d
    WHERE x.lottery_id = d.lottery_id;
  ELSE
    UPDATE lottery_tallies x SET held = x.held + d.held, paid = x.paid + d.paid, sold = x.sold + d.sold, pending = x.pending + d.pending,
      failed = x.failed + d.failed
    FROM (SELECT lottery_id, sum(held) AS held, sum(paid) AS paid, sum(sold) AS sold, sum(pending) AS pending, sum(failed) AS failed
          FROM (SELECT lottery_id, (status IN ('pending', 'success'))::int AS held, CASE WHEN status = 'success' THEN amount ELSE 0 END AS paid,
                  (status = 'success')::int AS sold, (status = 'pending')::int AS pending, (status = 'failed')::int AS failed
                FROM new_rows
                UNION ALL
                SELECT lottery_id, -(status IN ('pending', 'success'))::int, CASE WHEN status = 'success' THEN -amount ELSE 0 END,
                  -(status = 'success')::int, -(status = 'pending')::int, -(status = 'failed')::int
                FROM old_rows) c
          GROUP BY lottery_id) d
    WHERE x.lottery_id = d.lottery_id AND (d.held <> 0 OR d.paid <> 0 OR d.sold <> 0 OR d.pending <> 0 OR d.failed <> 0);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER transactions_tally_insert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_transactions();
CREATE TRIGGER transactions_tally_update AFTER UPDATE ON transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_transactions();
CREATE TRIGGER transactions_tally_delete AFTER DELETE ON transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_transactions();

-- A generated ticket holds its combination until it is activated (then its transaction holds it).
CREATE FUNCTION lottery_tally_generated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE lottery_tallies x SET held = x.held + d.held
    FROM (SELECT lottery_id, count(*) FILTER (WHERE activated_at IS NULL) AS held FROM new_rows GROUP BY lottery_id) d
    WHERE x.lottery_id = d.lottery_id AND d.held <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE lottery_tallies x SET held = x.held - d.held
    FROM (SELECT lottery_id, count(*) FILTER (WHERE activated_at IS NULL) AS held FROM old_rows GROUP BY lottery_id) d
    WHERE x.lottery_id = d.lottery_id AND d.held <> 0;
  ELSE
    UPDATE lottery_tallies x SET held = x.held + d.held
    FROM (SELECT lottery_id, sum(held) AS held FROM (
            SELECT lottery_id, (activated_at IS NULL)::int AS held FROM new_rows
            UNION ALL
            SELECT lottery_id, -(activated_at IS NULL)::int FROM old_rows) c
          GROUP BY lottery_id) d
    WHERE x.lottery_id = d.lottery_id AND d.held <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER generated_tickets_tally_insert AFTER INSERT ON generated_tickets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_generated();
CREATE TRIGGER generated_tickets_tally_update AFTER UPDATE ON generated_tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_generated();
CREATE TRIGGER generated_tickets_tally_delete AFTER DELETE ON generated_tickets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lottery_tally_generated();
`;
