/**
 * A lottery's tally (migration 022, docs/decisions/043-lottery-tallies.md): the combinations it holds and what its
 * paid tickets add up to, kept by the database's triggers whatever statement writes the rows, and what the API shows
 * from it (`tickets_sold`, a numbers lottery's `jackpot`, sold out). Each case compares the tally with the rows
 * counted again. On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { migrate } from '../../server/db/migrate.ts';
import { account, buy, purchase, trxId, type Player, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let player: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Rahim Uddin' });
  staff = await account(t, { name: 'Desk Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM generated_tickets');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM lotteries');
  await t.db.query('DELETE FROM rate_limits');
});

/** A numbers lottery on sale: price 100, jackpot 50 % of the paid sales plus what rolled in. */
async function numbersLottery(o: { total_tickets?: number; rollover_in?: number } = {}): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, name_bn, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published,
       kind, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize, rollover_in)
     VALUES ('Weekly Numbers', 'সাপ্তাহিক সংখ্যা', '', now() - interval '1 day', now() + interval '6 days', 100, $1, 1, 1, true,
       'numbers', 50, 20000, 2000, 200, 20, $2) RETURNING id`,
    [o.total_tickets ?? 1000, o.rollover_in ?? 0],
  );
  return row!.id;
}

type Tally = { lottery_id: number; held: number; paid: number; sold?: number; pending?: number; failed?: number };

/** Every lottery's tally as the triggers keep it (`all`: with its counts by status). */
const kept = (all = false) =>
  t.db.query<Tally>(`SELECT lottery_id, held, paid${all ? ', sold, pending, failed' : ''} FROM lottery_tallies ORDER BY lottery_id`);

/** Every lottery's tally counted again from its rows. */
const counted = () =>
  t.db.query<Tally>(
    `SELECT l.id AS lottery_id,
       (SELECT count(*) FROM transactions x WHERE x.lottery_id = l.id AND x.status IN ('pending', 'success'))
         + (SELECT count(*) FROM generated_tickets g WHERE g.lottery_id = l.id AND g.activated_at IS NULL) AS held,
       (SELECT COALESCE(sum(x.amount), 0)::bigint FROM transactions x WHERE x.lottery_id = l.id AND x.status = 'success') AS paid,
       (SELECT count(*) FROM transactions x WHERE x.lottery_id = l.id AND x.status = 'success') AS sold,
       (SELECT count(*) FROM transactions x WHERE x.lottery_id = l.id AND x.status = 'pending') AS pending,
       (SELECT count(*) FROM transactions x WHERE x.lottery_id = l.id AND x.status = 'failed') AS failed
     FROM lotteries l ORDER BY l.id`,
  );

/** Stores transactions in one statement: [ticket, status, amount]. */
const insertTransactions = (lottery: number, rows: [string, string, number][]) =>
  t.db.query(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, status)
     SELECT $1, $2, x.ticket, x.amount, 'payment', 'bkash', x.status
     FROM unnest($3::text[], $4::text[], $5::bigint[]) AS x(ticket, status, amount)`,
    [player.id, lottery, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
  );

/** Two numbers lotteries, the first with four sales: pending, success, failed, success. */
async function twoLotteries(): Promise<{ one: number; two: number }> {
  const one = await numbersLottery();
  const two = await numbersLottery();
  await insertTransactions(one, [
    [ticket(1), 'pending', 100],
    [ticket(2), 'success', 100],
    [ticket(3), 'failed', 100],
    [ticket(4), 'success', 100],
  ]);
  return { one, two };
}

const ticket = (n: number) => `01-02-03-04-${String(10 + n).padStart(2, '0')}-01`;

const lotteryJson = async (id: number) => {
  const res = await to(t, api.staffLottery, { params: { id }, as: staff });
  expect(res.status).toBe(200);
  return res.body as { tickets_sold: number; jackpot: number | null; total_prize: number };
};

describe('the tally follows the rows', () => {
  test('a new lottery has a tally of nothing', async () => {
    const id = await numbersLottery();
    expect(await kept()).toEqual([{ lottery_id: id, held: 0, paid: 0 }]);
  });

  test('inserts, status changes, a changed amount and deletes, one row and many at a time, in two lotteries', async () => {
    const { one, two } = await twoLotteries();
    await insertTransactions(two, [[ticket(1), 'success', 250]]);
    expect(await kept()).toEqual([
      { lottery_id: one, held: 3, paid: 200 },
      { lottery_id: two, held: 1, paid: 250 },
    ]);

    await t.db.query(`UPDATE transactions SET status = 'success' WHERE lottery_id = $1 AND status = 'pending'`, [one]);
    await t.db.query(`UPDATE transactions SET status = 'pending' WHERE lottery_id = $1 AND status = 'failed'`, [one]);
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE lottery_id = $1 AND ticket = $2`, [one, ticket(2)]);
    await t.db.query(`UPDATE transactions SET amount = 300 WHERE lottery_id = $1`, [two]);
    await t.db.query(`UPDATE transactions SET trx_id = 'TRX0000001' WHERE lottery_id = $1`, [two]);
    expect(await kept(true)).toEqual(await counted());
    expect(await kept()).toEqual([
      { lottery_id: one, held: 3, paid: 200 },
      { lottery_id: two, held: 1, paid: 300 },
    ]);

    await t.db.query(`DELETE FROM transactions WHERE lottery_id = $1 AND status = 'success'`, [one]);
    expect(await kept(true)).toEqual(await counted());
    expect((await kept())[0]).toEqual({ lottery_id: one, held: 1, paid: 0 });
  });

  test('generated tickets hold their combination until activated, a batch counted at once', async () => {
    const id = await numbersLottery();
    await t.db.query(
      `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number)
       SELECT $1, '02-03-04-05-' || lpad(n::text, 2, '0') || '-01', lpad(n::text, 16, '0') FROM generate_series(10, 59) AS n`,
      [id],
    );
    expect(await kept()).toEqual([{ lottery_id: id, held: 50, paid: 0 }]);
    // Activation: the ticket stops holding, its transaction holds and pays.
    const tx = await t.db.one<{ id: number }>(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, status)
       VALUES ($1, $2, '02-03-04-05-10-01', 100, 'activation', 'generated', 'success') RETURNING id`,
      [player.id, id],
    );
    await t.db.query(
      `UPDATE generated_tickets SET activated_by = $1, activated_at = now(), transaction_id = $2 WHERE lottery_id = $3 AND ticket_number = '02-03-04-05-10-01'`,
      [player.id, tx!.id, id],
    );
    await t.db.query(`DELETE FROM generated_tickets WHERE activated_at IS NULL AND ticket_number LIKE '%-5_-01'`);
    expect(await kept(true)).toEqual(await counted());
    expect(await kept()).toEqual([{ lottery_id: id, held: 40, paid: 100 }]);
  });

  test('a lottery deleted takes its tally with it', async () => {
    const id = await numbersLottery();
    await t.db.query('DELETE FROM lotteries WHERE id = $1', [id]);
    expect(await t.db.query('SELECT * FROM lottery_tallies WHERE lottery_id = $1', [id])).toEqual([]);
  });
});

describe('what the API shows from it', () => {
  test('a purchase holds a combination; its approval pays into the jackpot until taken back; a refused sale releases it', async () => {
    const id = await numbersLottery({ rollover_in: 7 });
    expect(await lotteryJson(id)).toMatchObject({ tickets_sold: 0, jackpot: 7, total_prize: 7 });

    const bought = await buy(t, player, purchase(id, ticket(1), { trx_id: trxId() }));
    expect(bought.status).toBe(201);
    expect(await lotteryJson(id)).toMatchObject({ tickets_sold: 1, jackpot: 7 });

    const approve = (status: string) =>
      to(t, api.updateTransaction, { params: { id: bought.body.id as number }, as: staff }).send({ status });
    expect((await approveByHand(t, bought.body.id as number)).status).toBe(200);
    // ⌊100 × 50 / 100⌋ + 7
    expect(await lotteryJson(id)).toMatchObject({ tickets_sold: 1, jackpot: 57, total_prize: 57 });

    // The approval taken back: still held, no longer paid; then refused: released.
    expect((await approve('pending')).status).toBe(200);
    expect(await lotteryJson(id)).toMatchObject({ tickets_sold: 1, jackpot: 7 });
    expect((await approve('failed')).status).toBe(200);
    expect(await lotteryJson(id)).toMatchObject({ tickets_sold: 0, jackpot: 7 });
    expect(await kept(true)).toEqual(await counted());
  });

  test('a purchase is answered with the jackpot the lottery shows after it, as its retry is', async () => {
    const { one } = await twoLotteries(); // paid 200: ⌊200 × 50 / 100⌋
    const bought = await buy(t, player, purchase(one, ticket(5)), 'jackpot-1');
    expect(bought.status).toBe(201);
    // The answer is read by the purchase's insert (server/purchases/queries.ts insertPurchase), the retry after it.
    expect(bought.body.lottery).toMatchObject({ id: one, kind: 'numbers', total_prize: 100 });
    expect(bought.body.lottery.total_prize).toBe((await lotteryJson(one)).jackpot);
    const again = await buy(t, player, purchase(one, ticket(5)), 'jackpot-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(bought.body);
  });

  test('the last combination held: the next buyer is told it is sold out, and nothing is stored', async () => {
    const id = await numbersLottery({ total_tickets: 2 });
    await insertTransactions(id, [
      [ticket(1), 'pending', 100],
      [ticket(2), 'success', 100],
    ]);
    const res = await buy(t, player, purchase(id, ticket(3)));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('sold_out');
    expect(await t.db.query('SELECT id FROM transactions WHERE ticket = $1', [ticket(3)])).toEqual([]);

    // One released: the combination is on sale again.
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE ticket = $1`, [ticket(1)]);
    expect((await buy(t, player, purchase(id, ticket(3)))).status).toBe(201);
    expect(await kept(true)).toEqual(await counted());
  });
});

describe('what staff see from it', () => {
  test('the transactions list’s total without a search, by status and lottery, and the dashboard’s sales', async () => {
    const { one, two } = await twoLotteries();
    await insertTransactions(two, [
      [ticket(1), 'success', 250],
      [ticket(2), 'pending', 250],
    ]);
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE lottery_id = $1 AND status = 'pending'`, [two]);
    const total = async (query: Record<string, unknown>) => {
      const res = await to(t, api.transactions, { query, as: staff });
      expect(res.status).toBe(200);
      return Number(res.headers['x-total-count']);
    };
    expect(await total({})).toBe(6);
    expect(await total({ status: 'success' })).toBe(3);
    expect(await total({ status: 'failed' })).toBe(2);
    expect(await total({ lottery_id: one })).toBe(4);
    expect(await total({ lottery_id: two, status: 'failed' })).toBe(1);
    expect(await total({ lottery_id: one, status: 'pending' })).toBe(1);
    // A search still counts the rows it matches.
    expect(await total({ search: ticket(1) })).toBe(2);
    const dash = await to(t, api.dashboard, { as: staff });
    expect(dash.status).toBe(200);
    expect(dash.body).toMatchObject({ total_revenue: 450, tickets_sold: 3, pending_transactions: 1 });
  });
});

describe('migration 022 on a database that already has sales', () => {
  test('counts the rows that were there, then keeps counting', async () => {
    const id = await numbersLottery();
    await insertTransactions(id, [
      [ticket(1), 'pending', 100],
      [ticket(2), 'success', 100],
      [ticket(3), 'failed', 100],
    ]);
    // The database as it was before 022: no tallies, no triggers, the migration not yet applied.
    await t.db.query('DROP TABLE lottery_tallies CASCADE');
    for (const fn of ['lottery_tally_open', 'lottery_tally_transactions', 'lottery_tally_generated'])
      await t.db.query(`DROP FUNCTION ${fn}() CASCADE`);
    await t.db.query('DROP INDEX transactions_newest');
    await t.db.query(`DELETE FROM schema_migrations WHERE id = '022-lottery-tallies'`);
    await insertTransactions(id, [[ticket(4), 'success', 100]]);

    expect(await migrate(t.db)).toEqual(['022-lottery-tallies']);
    expect(await kept(true)).toEqual([{ lottery_id: id, held: 3, paid: 200, sold: 2, pending: 1, failed: 1 }]);
    await insertTransactions(id, [[ticket(5), 'success', 100]]);
    expect(await kept(true)).toEqual([{ lottery_id: id, held: 4, paid: 300, sold: 3, pending: 1, failed: 1 }]);
  });
});
