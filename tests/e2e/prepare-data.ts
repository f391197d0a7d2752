/**
 * Prepares the journeys' embedded database before the server starts (playwright.config.ts runs it first): the
 * migrations and the demo data as the server makes them, then the numbers lottery of tests/e2e/numbers-fixture.ts,
 * published and on sale for a week, with its draw announced under the fixture's seed; and the old sessions of the
 * reality check's journey (tests/e2e/reality-fixture.ts). The server then finds its data there and seeds nothing more.
 * The demo staff's password is hashed at the journeys' cost (PASSWORD_HASH_COST of playwright.config.ts), as the server
 * hashes every other password of the run: at production's 2^17, each of the journeys' hundreds of staff logins and
 * tokens spent 0.4 s of CPU in scrypt, seconds on a busy machine (docs/decisions/066-journeys-in-a-fraction.md).
 */
import path from 'node:path';
import { z } from 'zod';
import { setPasswordHashCost } from '../../server/accounts/passwords.ts';
import { loadConfig } from '../../server/config.ts';
import { keyringOf } from '../../server/crypto/sealed.ts';
import { openDb } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { BEACON_SOURCE, commitment, quicknetRound } from '../../server/draws/verifiable.ts';
import { createLogger } from '../../server/log.ts';
import { NUMBERS_FIXTURE as F } from './numbers-fixture.ts';
import { oldSessions } from './reality-fixture.ts';
import { runPastItsFirstDraw } from './run-fixture.ts';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is not set');
setPasswordHashCost(z.coerce.number().int().min(10).max(20).parse(process.env.PASSWORD_HASH_COST));
const db = await openDb({ dataDir: path.resolve(dataDir) });
try {
  await migrate(db);
  // The server's own keys (its SECRET_KEY, or the one it keeps in DATA_DIR): the demo game's draws on sale seal their seeds with them.
  await seedDemo(db, createLogger('silent'), { staff: true, keys: keyringOf(loadConfig(process.env)) });
  // The reality check's journey: its players' logins start long ago (tests/e2e/reality-fixture.ts).
  await oldSessions(db);
  // A run past its first draw, for runs.spec.ts (tests/e2e/run-fixture.ts).
  await runPastItsFirstDraw(db);
  if (!(await db.one('SELECT id FROM lotteries WHERE name = $1', [F.name]))) {
    const start = new Date(Date.now() - 24 * 3600 * 1000);
    const end = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const row = await db.one<{ id: number }>(
      `INSERT INTO lotteries (name, name_bn, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize,
         published, kind, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize)
       VALUES ($1, $2, '', $3, $4, $5, 10000, 1, 1, true, 'numbers', $6, $7, $8, $9, $10) RETURNING id`,
      [F.name, F.name_bn, start.toISOString(), end.toISOString(), F.ticketPrice, F.jackpotShare, ...F.tierPrizes],
    );
    await db.query(`INSERT INTO draw_commitments (lottery_id, seed, commitment, beacon_source, beacon_round) VALUES ($1, $2, $3, $4, $5)`, [
      row!.id,
      F.seed,
      commitment(F.seed),
      BEACON_SOURCE,
      quicknetRound(end),
    ]);
  }
} finally {
  await db.close();
}
