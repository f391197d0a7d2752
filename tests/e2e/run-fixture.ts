/**
 * A run of consecutive draws past its first draw, for the journey that looks at one in the browser (runs.spec.ts). A
 * journey cannot move a game's draw into the past nor draw it (a game's draws keep their time; the calendar draws them
 * when drand's round has come), so, in the journeys' database only (tests/e2e/prepare-data.ts): a player who can log
 * in bought RUN.lines in the demo game's next RUN.draws draws, paid; then the first of them is moved to where a real
 * quicknet round is (REAL_BEACONS[0]) and drawn by the procedure, with that round's value, as the calendar would. Every
 * paid entry of that draw is the run's, so each wins a Lucky Chance code (the game has three).
 */
import { hashPassword } from '../../server/accounts/passwords.ts';
import type { Db } from '../../server/db/index.ts';
import { numbersDraw, numbersLottery } from '../../server/draws/numbers-draw.ts';
import { commitment, roundTime } from '../../server/draws/verifiable.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';

export const RUN = {
  name: 'Run Player',
  phone: '01799000011',
  password: 'run-player-pass-1',
  lines: ['04-15-26-37-48-11'],
  draws: 3,
  trxId: 'RUNE2E0001',
} as const;

const SEED = 'a3'.repeat(32);

/** The player, his run and its first draw drawn (again is harmless: nothing is made twice). */
export async function runPastItsFirstDraw(db: Db): Promise<void> {
  if (await db.one('SELECT id FROM users WHERE phone = $1', [RUN.phone])) return;
  const game = await db.one<{ id: number }>("SELECT id FROM games WHERE name = 'Bhagya Lotto'");
  if (!game) throw new Error('no demo game: the run fixture needs the demo data');
  const draws = await db.query<{ id: number; ticket_price: number }>(
    `SELECT id, ticket_price FROM lotteries WHERE game_id = $1 AND NOT is_result_published AND end_date > now() ORDER BY draw_at LIMIT $2`,
    [game.id, RUN.draws],
  );
  if (draws.length < RUN.draws) throw new Error('the demo game has too few draws on sale for the run fixture');
  const user = await db.one<{ id: number }>(
    `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed) VALUES ($1, $2, $3, true, true) RETURNING id`,
    [RUN.name, RUN.phone, await hashPassword(RUN.password)],
  );
  const amount = draws.reduce((sum, d) => sum + Number(d.ticket_price), 0) * RUN.lines.length;
  const slip = await db.one<{ id: number }>(
    `INSERT INTO slips (user_id, game_id, lines, draws, draws_asked, amount, status, trx_id) VALUES ($1, $2, $3, $4, $4, $5, 'paid', $6) RETURNING id`,
    [user!.id, game.id, RUN.lines.length, RUN.draws, amount, RUN.trxId],
  );
  let lead: number | null = null;
  for (const d of draws)
    for (const ticket of RUN.lines) {
      const row: { id: number } | undefined = await db.one<{ id: number }>(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, payment_number, status, slip_id, trx_id, created_at)
         VALUES ($1, $2, $3, $4, 'payment', 'bkash', '', 'success', $5, $6, now() - interval '1 hour') RETURNING id`,
        [user!.id, d.id, ticket, d.ticket_price, slip!.id, lead === null ? RUN.trxId : null],
      );
      lead ??= row!.id;
    }
  await db.query('UPDATE slips SET lead_id = $2 WHERE id = $1', [slip!.id, lead]);

  // The first draw: its sales closed and its time come where a real quicknet round is, drawn on that round's value.
  const [first] = draws;
  const beacon = REAL_BEACONS[0]!;
  const end = roundTime(beacon.round - 1);
  await db.tx(async (tx) => {
    await tx.query(`UPDATE lotteries SET start_date = $2::timestamptz - interval '7 days', end_date = $2, draw_at = $2 WHERE id = $1`, [
      first!.id,
      end.toISOString(),
    ]);
    await tx.query(`UPDATE transactions SET created_at = $2::timestamptz - interval '1 day' WHERE lottery_id = $1`, [
      first!.id,
      end.toISOString(),
    ]);
    await tx.query(
      `UPDATE draw_commitments SET seed = $2, seed_sealed = NULL, commitment = $3, beacon_round = $4, beacon_value = $5, beacon_signature = $6
       WHERE lottery_id = $1`,
      [first!.id, SEED, commitment(SEED), beacon.round, beacon.randomness, beacon.signature],
    );
    const lottery = await numbersLottery(tx, first!.id);
    if (!lottery) throw new Error('the run fixture lost its first draw');
    await numbersDraw(tx, null, lottery, { seed: SEED, beacon_value: beacon.randomness, beacon_round: beacon.round });
  });
}
