/**
 * The tallies of migration 022 also count each lottery's transactions by status (`sold`: success, `pending`,
 * `failed`), so that the staff's dashboard and the total of their unsearched transactions list read a few tally rows
 * instead of every transaction (docs/decisions/043-lottery-tallies.md). The existing rows are counted once here, with
 * writes held off until this commits; the transactions' trigger function is replaced by one that keeps all of them.
 */
export const sql = /* sql */ `
LOCK TABLE transactions IN SHARE ROW EXCLUSIVE MODE;

ALTER TABLE lottery_tallies
  ADD COLUMN sold bigint NOT NULL DEFAULT 0 CHECK (sold >= 0),
  ADD COLUMN pending bigint NOT NULL DEFAULT 0 CHECK (pending >= 0),
  ADD COLUMN failed bigint NOT NULL DEFAULT 0 CHECK (failed >= 0);

UPDATE lottery_tallies x SET sold = c.sold, pending = c.pending, failed = c.failed
FROM (SELECT lottery_id, count(*) FILTER (WHERE status = 'success') AS sold, count(*) FILTER (WHERE status = 'pending') AS pending,
        count(*) FILTER (WHERE status = 'failed') AS failed
      FROM transactions GROUP BY lottery_id) c
WHERE x.lottery_id = c.lottery_id;

-- Each row's part in its lottery's tally, added for the rows a statement wrote and taken away for the rows it replaced.
CREATE OR REPLACE FUNCTION lottery_tally_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
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
`;
