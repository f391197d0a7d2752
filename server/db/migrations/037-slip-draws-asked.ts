/**
 * A slip remembers the run its player asked for (docs/rules/games.md#6-consecutive-draws-and-play-slips): `draws` is
 * what was on sale and paid for, `draws_asked` what he chose (1, 3, 5, 12 or 25), so that the run's page can say that
 * it was shortened, and say it again later, not only in the answer that made it. Slips made before keep `draws`.
 */
export const sql = /* sql */ `
ALTER TABLE slips ADD COLUMN draws_asked smallint;
UPDATE slips SET draws_asked = draws;
ALTER TABLE slips ALTER COLUMN draws_asked SET NOT NULL;
ALTER TABLE slips ADD CONSTRAINT slips_draws_asked CHECK (draws_asked BETWEEN draws AND 25);
`;
