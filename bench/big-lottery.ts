/**
 * `npm run bench:big-lottery`: what one lottery's sales cost the statements that read them, as a lottery grows
 * towards a Saturday's million tickets (docs/rules/limits.md#6-page-budgets; docs/decisions/043-lottery-tallies.md).
 *
 * A numbers lottery with BENCH_SALES tickets sold (BENCH_SALES / 10 of them still pending), a player holding ten of
 * them, and the statements that every purchase, every `/my-lotteries`, every lottery list and every staff
 * transactions page run, each timed alone in process against the database (the embedded one in memory, or
 * BENCH_DATABASE_URL in a schema of its own): the median of BENCH_REPEAT runs after a warm-up. No HTTP, no render:
 * the page budgets are bench/traffic.ts's; this shows what the database alone does with a big lottery. Also the staff's
 * dashboard, whose sales figures cover every lottery.
 *
 *   BENCH_SALES (200000)   BENCH_REPEAT (30)   BENCH_DATABASE_URL (optional)
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDb, type Db } from '../server/db/index.ts';
import { figures } from '../server/dashboard/queries.ts';
import { migrate } from '../server/db/migrate.ts';
import { playerTransactions, staffTransactions } from '../server/purchases/queries.ts';
import { lotteryById, publishedLotteries, saleState } from '../server/lotteries/queries.ts';
import * as bench from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 200_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
if (!(SALES >= 10 && REPEAT >= 1)) {
  console.error('BENCH_SALES ≥ 10, BENCH_REPEAT ≥ 1.');
  process.exit(2);
}
bench.hardLimit(600_000);

const schema = `bench_${randomBytes(4).toString('hex')}`;
const admin = databaseUrl ? await openDb({ databaseUrl }) : undefined;
await admin?.query(`CREATE SCHEMA ${schema}`);
const db = databaseUrl ? await openDb({ databaseUrl, schema }) : await openDb({ inMemory: true });
const started = Date.now();

async function setUp(d: Db): Promise<{ lotteryId: number; playerId: number }> {
  await migrate(d);
  const [buyer, player] = await d.query<{ id: number }>(
    `INSERT INTO users (name, phone, password_hash, is_active) VALUES ('Buyer', '01300000001', 'x', true), ('Player', '01300000002', 'x', true)
     RETURNING id`,
  );
  if (!buyer || !player) throw new Error('set-up rows not stored');
  // The player holds the first ten tickets, the buyer the rest.
  const lotteryId = await bench.storeNumbersLottery(d, {
    name: 'Saturday Mega Draw',
    name_bn: 'শনিবারের মেগা ড্র',
    sales: SALES,
    buyers: [player.id, buyer.id],
    perBuyer: 10,
  });
  return { lotteryId, playerId: player.id };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return bench.median(ms);
}

try {
  const { lotteryId, playerId } = await setUp(db);
  const stored = Date.now();
  const cases: [string, () => Promise<unknown>][] = [
    ["a purchase's sale check (saleState)", () => saleState(db, lotteryId)],
    ["/my-lotteries: the player's ten cards (playerTransactions)", () => playerTransactions(db, playerId, 10, 0)],
    ['/all-lotteries: the first page (publishedLotteries)', () => publishedLotteries(db, 12, 0)],
    ['/lotteries/:id: one lottery (lotteryById)', () => lotteryById(db, lotteryId)],
    [
      'staff transactions: the first page of 50 (staffTransactions)',
      () => staffTransactions(db, { search: null, ticket: null, phone: null, status: null, lotteryId: null }, 50, 0),
    ],
    ["the staff's dashboard: its figures (figures)", () => figures(db)],
  ];
  const rows: string[] = [];
  for (const [name, fn] of cases) {
    const ms = await time(fn);
    rows.push(`| ${name} | ${ms.toFixed(2)} |`);
    console.log(`  ${name}: ${ms.toFixed(2)} ms`);
  }
  console.log(
    `\n${bench.machine()} · ${databaseUrl ? 'PostgreSQL' : 'embedded database'} · ${SALES} tickets sold in one numbers lottery ` +
      `(stored in ${((stored - started) / 1000).toFixed(0)} s) · median of ${REPEAT}\n`,
  );
  console.log('| statement | ms |\n|---|---:|');
  console.log(rows.join('\n'));
} finally {
  await db.close();
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.close();
  bench.cleanup();
}
