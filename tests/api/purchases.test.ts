/**
 * Buying a ticket (docs/rules/lotteries-and-sales.md#7-buying-a-ticket): POST /api/v1/transactions-create/, the
 * TrxID given later (PATCH /api/v1/transactions/{id}/trx-id/) and the player's own list (GET /api/v1/my-transactions/).
 * The money rules: the stored amount is the lottery's price, a retried purchase never makes a second transaction,
 * a combination and a TrxID are held once, and the last ticket goes to one buyer only. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';
import { PURCHASE_LIMIT } from '../../server/purchases/service.ts';
import { account, buy, insertLottery, purchase, rows, type Player } from './purchase-fixtures.ts';
import { messagesOf, runsOf, transactionsLocking } from '../helpers/db-messages.ts';
import { queriesOf } from '../helpers/pg-queries.ts';
import { until } from '../helpers/wait.ts';
import { insertPurchase, lockTransaction, type NewTransaction } from '../../server/purchases/queries.ts';
import { lockLotteryForSale } from '../../server/lotteries/service.ts';

let t: TestApp;
let a: Player, b: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM prizes');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM lotteries');
  await t.db.query('DELETE FROM rate_limits');
});

const TICKET = '05-12-23-34-45-07';

/** Whether a statement starting with this text waits for a lock, on a connection of this test's pool. */
const waitingAt = async (start: string) =>
  (
    await t.db.query(
      `SELECT 1 FROM pg_stat_activity WHERE application_name = current_setting('application_name')
         AND wait_event_type = 'Lock' AND query LIKE $1`,
      [`${start}%`],
    )
  ).length === 1;

/** The transactions a test holds open, ended after it whatever it found, so that the next test's data is free. */
const open: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((release) => release()));
});

/**
 * Runs `hold` in a database transaction kept open until `release` is called, then committed (or rolled back, as
 * told); resolves once `hold` is done. For PostgreSQL's tests: the embedded database's one connection would wait for it.
 */
async function holding(hold: (tx: TestApp['db']) => Promise<unknown>, end: 'commit' | 'rollback' = 'commit') {
  let free = () => undefined as void;
  const freed = new Promise<void>((r) => (free = r));
  let held = () => undefined as void;
  const heldNow = new Promise<void>((r) => (held = r));
  const rolledBack = new Error('rolled back');
  const done = t.db
    .tx(async (tx) => {
      await hold(tx);
      held();
      await freed;
      if (end === 'rollback') throw rolledBack;
    })
    .catch((err: unknown) => {
      if (err !== rolledBack) throw err;
    });
  await Promise.race([heldNow, done]);
  let ended: Promise<unknown> | undefined;
  const release = () => (ended ??= (free(), done));
  open.push(release);
  return { release };
}

/** A purchase's row as the app inserts it (server/purchases/queries.ts insertPurchase), pending, with no TrxID. */
const newPurchase = (userId: number, lottery: number, ticket: string): NewTransaction => ({
  user_id: userId,
  lottery_id: lottery,
  ticket,
  amount: 100,
  payment_method: 'bkash',
  payment_number: '',
  trx_id: null,
  nid: '',
  idempotency_key: null,
});

/**
 * Another sale of the lottery in progress: `sale` runs in a database transaction holding the lottery's row lock; the
 * request sent meanwhile must still be waiting 500 ms later (the lock), and is answered once that sale commits.
 */
async function whileSaleOpen<T>(
  lottery: number,
  sale: (tx: TestApp['db']) => Promise<T>,
  send: () => Promise<request.Response>,
): Promise<{ made: T; res: request.Response }> {
  let answer: request.Response | undefined;
  let pending: Promise<request.Response> | undefined;
  const made = await t.db.tx(async (tx) => {
    await tx.query('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE', [lottery]);
    const done = await sale(tx);
    pending = send().then((r) => (answer = r));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answer).toBeUndefined();
    return done;
  });
  return { made, res: await pending! };
}

describe('POST /api/v1/transactions-create/', () => {
  test('a purchase: 201, a pending bKash payment of the lottery’s price for the canonical ticket, with where to pay', async () => {
    const lottery = await insertLottery(t, { name: 'Saturday Mega Draw', name_bn: 'শনিবারের মেগা ড্র', price: 100 });
    const res = await buy(
      t,
      a,
      purchase(lottery, ' 45-12-23-34- 5-7', {
        user_id: a.id,
        trx_id: ' abc12345xy ',
        payment_number: '+880 1712-345678',
        nid: '1234567890',
      }),
      'submit-1',
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      // Bought alone, not as one draw of a run (docs/rules/games.md#6-consecutive-draws-and-play-slips).
      slip_id: null,
      transaction_type: 'payment',
      amount: 100,
      status: 'pending',
      payment_method: 'bkash',
      payment_number: '01712345678',
      trx_id: 'ABC12345XY',
      ticket: TICKET,
      created_at: expect.any(String),
      lottery: {
        id: lottery,
        name: 'Saturday Mega Draw',
        name_bn: 'শনিবারের মেগা ড্র',
        end_date: expect.any(String),
        total_prize: 100000,
        is_result_published: false,
        drawn_at: null,
        kind: 'tickets',
        draw_at: null,
      },
      // A numbers draw's result once published (docs/rules/lotteries-and-sales.md#10-results-for-players): none here.
      numbers: null,
      matched: null,
      tier: null,
      is_winning_ticket: false,
      prize: null,
      // Not a game's draw: no Lucky Chance code (docs/rules/draws.md#7a-lucky-chance).
      lucky_code: null,
      has_claimed: false,
      claim_status: null,
      bkash_receiver_number: '01700000000',
      amount_to_pay: 100,
      run: null,
      checkout: null,
      // bKash is asked about the TrxID after the commit (docs/rules/payments.md#9-send-money-confirmed-by-bkash): this app's bKash does not answer.
      bkash_check: { trx_id: 'ABC12345XY', state: 'checking', reason: null, checks: 1, updated_at: expect.any(String) },
    });
    expect(Math.abs(Date.parse(res.body.created_at) - Date.now())).toBeLessThan(60_000);
    const stored = await t.db.one('SELECT * FROM transactions WHERE id = $1', [res.body.id]);
    expect(stored).toMatchObject({
      user_id: a.id,
      lottery_id: lottery,
      ticket: TICKET,
      amount: 100,
      transaction_type: 'payment',
      payment_method: 'bkash',
      status: 'pending',
      trx_id: 'ABC12345XY',
      nid: '1234567890',
      idempotency_key: 'submit-1',
    });
    // The lottery now counts the ticket as sold.
    const l = await to(t, api.getLottery, { params: { id: lottery } });
    expect(l.body.tickets_sold).toBe(1);
  });

  test('the smallest purchase: no user_id, TrxID, bKash number or NID, no Idempotency-Key; the amount as "100.00"', async () => {
    const lottery = await insertLottery(t);
    const { nid: _n, payment_number: _p, ...body } = purchase(lottery, TICKET, { amount: '100.00' });
    const res = await buy(t, a, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 100, trx_id: null, payment_number: '', ticket: TICKET });
  });

  test('the amount in the body never sets the stored amount: another amount is refused with the price', async () => {
    const lottery = await insertLottery(t, { price: 150 });
    for (const amount of [100, 1, 1_000_000]) {
      const res = await buy(t, a, purchase(lottery, TICKET, { amount }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        amount: ['The ticket price of this lottery is TK. 150. Please reload the page and try again.'],
        code: 'amount_mismatch',
      });
    }
    const bn = await buy(t, a, purchase(lottery, TICKET, { amount: 100 })).set('Accept-Language', 'bn');
    expect(bn.body).toEqual({ amount: ['এই লটারির টিকিটের দাম ৳১৫০। অনুগ্রহ করে পাতাটি আবার লোড করে চেষ্টা করুন।'], code: 'amount_mismatch' });
    expect(await rows(t)).toEqual([]);
    const ok = await buy(t, a, purchase(lottery, TICKET, { amount: 150 }));
    expect(ok.status).toBe(201);
    expect((await rows(t)).map((r) => r.amount)).toEqual([150]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['no lottery', { lottery_id: undefined }, { lottery_id: ['This field is required.'] }],
    ['a lottery id that is not a number', { lottery_id: 'abc' }, { lottery_id: ['Invalid value.'] }],
    ['no ticket', { ticket: undefined }, { ticket: ['This field is required.'] }],
    ['a word for a ticket', { ticket: 'lucky' }, { ticket: [expect.stringMatching(/^A ticket is 5 different numbers/)] }],
    ['a main number twice', { ticket: '05-05-23-34-45-07' }, { ticket: [expect.stringMatching(/^A ticket is/)] }],
    ['a last number above 15', { ticket: '05-12-23-34-45-16' }, { ticket: [expect.stringMatching(/^A ticket is/)] }],
    ['a ticket as a number', { ticket: 51223344507 }, { ticket: ['Expected a string.'] }],
    ['no amount', { amount: undefined }, { amount: ['This field is required.'] }],
    ['a fraction of a taka', { amount: 99.5 }, { amount: ['Enter the amount in whole taka.'] }],
    ['an amount of 0', { amount: 0 }, { amount: ['Enter the amount in whole taka.'] }],
    ['a negative amount', { amount: -100 }, { amount: ['Enter the amount in whole taka.'] }],
    ['an amount in words', { amount: 'hundred' }, { amount: ['Enter the amount in whole taka.'] }],
    ['a refund', { transaction_type: 'refund' }, { transaction_type: ['Invalid value.'] }],
    ['Nagad', { payment_method: 'nagad' }, { payment_method: ['Nagad and Rocket are not available yet. Please pay with bKash.'] }],
    ['Rocket', { payment_method: 'Rocket' }, { payment_method: ['Nagad and Rocket are not available yet. Please pay with bKash.'] }],
    ['a card', { payment_method: 'visa' }, { payment_method: ['Please choose bKash as the payment method.'] }],
    ['no payment method', { payment_method: undefined }, { payment_method: ['This field is required.'] }],
    ['a short NID', { nid: '12345' }, { nid: ['The NID number has 10, 13 or 17 digits.'] }],
    [
      'a bKash number that is not a phone',
      { payment_number: '12345' },
      { payment_number: ['Phone number must be 11 digits (e.g., 01712345678)'] },
    ],
    ['a short TrxID', { trx_id: 'AB12' }, { trx_id: [expect.stringMatching(/^The bKash transaction ID \(TrxID\) is 8 to 20/)] }],
    ['a TrxID with dashes', { trx_id: 'AB12-CD34-EF' }, { trx_id: [expect.stringMatching(/^The bKash transaction ID/)] }],
    ['a TrxID of 21 characters', { trx_id: 'A'.repeat(21) }, { trx_id: [expect.stringMatching(/^The bKash transaction ID/)] }],
    ['an unknown field', { coupon: 'FREE' }, { coupon: ['Unknown field.'] }],
  ])('%s: 400 naming the field, nothing stored', async (_name, change, errors) => {
    const lottery = await insertLottery(t);
    const body: Record<string, unknown> = { ...purchase(lottery, TICKET), ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
    const res = await buy(t, a, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
    expect(await rows(t)).toEqual([]);
  });

  test('messages in Bengali', async () => {
    const lottery = await insertLottery(t);
    const res = await buy(t, a, purchase(lottery, 'lucky', { payment_method: 'nagad' })).set('Accept-Language', 'bn');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      ticket: ['একটি টিকিটে থাকে ১ থেকে ৫৫-এর মধ্যে ৫টি আলাদা সংখ্যা এবং ১ থেকে ১৫-এর মধ্যে একটি শেষ সংখ্যা, যেমন ০৫-১২-২৩-৩৪-৪৫-০৭।'],
      payment_method: ['নগদ ও রকেট দিয়ে এখনো পেমেন্ট করা যাচ্ছে না। অনুগ্রহ করে বিকাশ দিয়ে পেমেন্ট করুন।'],
    });
  });

  test('a NUL or other control character in any field: 400, nothing stored', async () => {
    const lottery = await insertLottery(t);
    for (const field of ['ticket', 'payment_method', 'nid', 'payment_number', 'trx_id', 'amount', 'transaction_type', 'lottery_id']) {
      for (const bad of ['\u0000', 'a\u0000b', '\u001b[31m']) {
        const res = await buy(t, a, { ...purchase(lottery, TICKET), [field]: bad });
        expect({ field, bad, status: res.status }).toEqual({ field, bad, status: 400 });
        expect(Object.keys(res.body)).toEqual([field]);
      }
    }
    expect(await rows(t)).toEqual([]);
  });

  test('an unknown or unpublished lottery: 400 on lottery_id, "Lottery not found"', async () => {
    const hidden = await insertLottery(t, { published: false });
    for (const id of [hidden, 987654]) {
      const res = await buy(t, a, purchase(id, TICKET));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ lottery_id: ['Lottery not found'], code: 'lottery_not_found' });
    }
  });

  test.each<[string, Parameters<typeof insertLottery>[1], string, string]>([
    ['ended', { start: -10, end: -1 }, 'lottery_ended', 'This lottery has ended, or the results have been published.'],
    ['results published', { results: true }, 'lottery_ended', 'This lottery has ended, or the results have been published.'],
    ['not started', { start: 1, end: 8 }, 'not_on_sale', 'This lottery is not available for purchase yet.'],
  ])('sales closed (%s): 409 with the reason the pages give', async (_name, l, code, detail) => {
    const lottery = await insertLottery(t, l);
    const res = await buy(t, a, purchase(lottery, TICKET));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail, code });
    expect(await rows(t)).toEqual([]);
  });

  test('sold out: every ticket on sale is held (pending counts): 409 sold_out', async () => {
    const lottery = await insertLottery(t, { total_tickets: 1 });
    expect((await buy(t, a, purchase(lottery, TICKET))).status).toBe(201);
    const res = await buy(t, b, purchase(lottery, '01-02-03-04-05-06'));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'All tickets of this lottery have been sold.', code: 'sold_out' });
    const bn = await buy(t, b, purchase(lottery, '01-02-03-04-05-06')).set('Accept-Language', 'bn');
    expect(bn.body.detail).toBe('এই লটারির সব টিকিট বিক্রি হয়ে গেছে।');
  });

  test('a combination already held in the lottery (pending or success): 409 on ticket, suggesting other numbers', async () => {
    const lottery = await insertLottery(t);
    const other = await insertLottery(t);
    expect((await buy(t, a, purchase(lottery, TICKET))).status).toBe(201);
    // The same numbers written otherwise are the same combination.
    const res = await buy(t, b, purchase(lottery, '45-34-23-12-5-7'));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      ticket: ['These numbers have already been taken in this lottery. Please pick other numbers, or use Easy Pick.'],
      code: 'ticket_taken',
    });
    await t.db.query(`UPDATE transactions SET status = 'success'`);
    expect((await buy(t, b, purchase(lottery, TICKET))).status).toBe(409);
    // Another lottery has its own combinations.
    expect((await buy(t, b, purchase(other, TICKET))).status).toBe(201);
  });

  test('a failed (rejected) transaction releases its combination', async () => {
    const lottery = await insertLottery(t);
    const first = await buy(t, a, purchase(lottery, TICKET));
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [first.body.id]);
    const again = await buy(t, b, purchase(lottery, TICKET));
    expect(again.status).toBe(201);
    expect((await rows(t)).map((r) => [r.user_id, r.status])).toEqual([
      [a.id, 'failed'],
      [b.id, 'pending'],
    ]);
  });

  test('two players buying the same combination at once: exactly one gets it', async () => {
    const lottery = await insertLottery(t);
    const [x, y] = await Promise.all([buy(t, a, purchase(lottery, TICKET)), buy(t, b, purchase(lottery, TICKET))]);
    expect([x.status, y.status].sort()).toEqual([201, 409]);
    const lost = x.status === 409 ? x : y;
    expect(lost.body).toEqual({ ticket: [expect.stringContaining('Please pick other numbers')], code: 'ticket_taken' });
    expect(await rows(t)).toHaveLength(1);
  });

  test('two players racing for the last ticket with different numbers: exactly one gets it', async () => {
    const lottery = await insertLottery(t, { total_tickets: 1 });
    const [x, y] = await Promise.all([buy(t, a, purchase(lottery, TICKET)), buy(t, b, purchase(lottery, '01-02-03-04-05-06'))]);
    expect([x.status, y.status].sort()).toEqual([201, 409]);
    expect((x.status === 409 ? x : y).body.code).toBe('sold_out');
    expect(await rows(t)).toHaveLength(1);
  });

  test('five players racing for the last two tickets: exactly two get one', async () => {
    const lottery = await insertLottery(t, { total_tickets: 2 });
    const players = [a, b, ...(await Promise.all([account(t), account(t), account(t)]))];
    const answers = await Promise.all(
      players.map((p, i) => buy(t, p, purchase(lottery, `01-02-03-04-05-${String(i + 1).padStart(2, '0')}`))),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(['sold_out', 'sold_out', 'sold_out']);
    expect(await rows(t)).toHaveLength(2);
  });

  test('a purchase waits for another sale of the same lottery still in progress, and counts it', async () => {
    // Another buyer's purchase of the last ticket, held open in a database transaction of its own: the request
    // must wait for it (the lottery's row lock) and then see that ticket sold, not the count from before.
    const lottery = await insertLottery(t, { total_tickets: 1 });
    const { res } = await whileSaleOpen(
      lottery,
      (tx) =>
        tx.query(`INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method) VALUES ($1, $2, $3, 100, 'bkash')`, [
          b.id,
          lottery,
          '01-02-03-04-05-06',
        ]),
      () => buy(t, a, purchase(lottery, TICKET)),
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('sold_out');
    expect((await rows(t)).map((r) => r.user_id)).toEqual([b.id]);
  });

  test('the insert itself adds no ticket to a lottery whose tickets are all held, and adds one while one is left', async () => {
    const lottery = await insertLottery(t, { total_tickets: 2 });
    const made = await t.db.tx((tx) => insertPurchase(tx, newPurchase(b.id, lottery, '01-02-03-04-05-06')));
    expect(made).toMatchObject({ ticket: '01-02-03-04-05-06', status: 'pending' });
    expect(await t.db.tx((tx) => insertPurchase(tx, newPurchase(a.id, lottery, TICKET)))).toBeDefined();
    expect(await t.db.tx((tx) => insertPurchase(tx, newPurchase(a.id, lottery, '01-02-03-04-05-07')))).toBeUndefined();
    expect((await rows(t)).map((r) => r.ticket)).toEqual(['01-02-03-04-05-06', TICKET]);
  });

  // Purchases share the lottery's lock and meet at its tally's row, where the last ticket is decided
  // (docs/decisions/094-purchases-share-the-lottery.md). Two connections: PostgreSQL only.
  (process.env.TEST_DATABASE_URL ? describe : describe.skip)('on PostgreSQL, purchases of one lottery share its lock', () => {
    test('a purchase is made while another purchase of the lottery holds it, short of its insert', async () => {
      const lottery = await insertLottery(t);
      // Another buyer's purchase between its lock and its insert: were a purchase's lock exclusive, this one would
      // wait for it, which ends only after this one is answered: the test would time out.
      const other = await holding((tx) => tx.query('SELECT id FROM lotteries WHERE id = $1 FOR SHARE', [lottery]));
      const res = await buy(t, a, purchase(lottery, TICKET));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ ticket: TICKET, status: 'pending' });
      await other.release();
      expect((await rows(t)).map((r) => r.ticket)).toEqual([TICKET]);
    });

    test('the last ticket: a purchase waits at the tally for one that inserted it, then is told sold out', async () => {
      const lottery = await insertLottery(t, { total_tickets: 1 });
      const other = await holding(async (tx) => {
        await tx.query('SELECT id FROM lotteries WHERE id = $1 FOR SHARE', [lottery]);
        expect(await insertPurchase(tx, newPurchase(b.id, lottery, '01-02-03-04-05-06'))).toBeDefined();
      });
      let answer: request.Response | undefined;
      const pending = buy(t, a, purchase(lottery, TICKET)).then((r) => (answer = r));
      // It got past the lottery's lock and waits for the tally's row, held by the other purchase's insert.
      await until(() => waitingAt('WITH room AS'));
      expect(answer).toBeUndefined();
      await other.release();
      const res = await pending;
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'All tickets of this lottery have been sold.', code: 'sold_out' });
      expect((await rows(t)).map((r) => r.user_id)).toEqual([b.id]);
    });

    test('the last ticket: when the purchase holding it is rolled back, the one waiting gets it', async () => {
      const lottery = await insertLottery(t, { total_tickets: 1 });
      const other = await holding(async (tx) => {
        await tx.query('SELECT id FROM lotteries WHERE id = $1 FOR SHARE', [lottery]);
        expect(await insertPurchase(tx, newPurchase(b.id, lottery, '01-02-03-04-05-06'))).toBeDefined();
      }, 'rollback');
      // A supertest request is sent when it is first awaited or then'd.
      const pending = buy(t, a, purchase(lottery, TICKET)).then((r) => r);
      await until(() => waitingAt('WITH room AS'));
      await other.release();
      const res = await pending;
      expect(res.status).toBe(201);
      expect((await rows(t)).map((r) => [r.user_id, r.ticket])).toEqual([[a.id, TICKET]]);
      expect(
        (await t.db.one<{ held: number }>('SELECT held::int AS held FROM lottery_tallies WHERE lottery_id = $1', [lottery]))?.held,
      ).toBe(1);
    });

    test('a retry whose first request commits while it waits at the tally: answered with that purchase', async () => {
      // The retry's reads ran before the first request committed, so it tries the insert too: whichever unique index
      // stops it (its key, or its combination held), it answers as a retry.
      const lottery = await insertLottery(t);
      let made = 0;
      const first = await holding(async (tx) => {
        await tx.query('SELECT id FROM lotteries WHERE id = $1 FOR SHARE', [lottery]);
        made = (await insertPurchase(tx, { ...newPurchase(a.id, lottery, TICKET), idempotency_key: 'at-the-tally' }))!.id;
      });
      let answer: request.Response | undefined;
      const pending = buy(t, a, purchase(lottery, TICKET), 'at-the-tally').then((r) => (answer = r));
      await until(() => waitingAt('WITH room AS'));
      expect(answer).toBeUndefined();
      await first.release();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.body.id).toBe(made);
      expect((await rows(t)).map((r) => r.id)).toEqual([made]);
    });

    test('the close waits for a purchase in progress; a purchase after the end is refused without waiting for the close', async () => {
      const lottery = await insertLottery(t);
      const other = await holding((tx) => tx.query('SELECT id FROM lotteries WHERE id = $1 FOR SHARE', [lottery]));
      let closed = false;
      const close = t.db.tx((tx) => lockLotteryForSale(tx, lottery)).then((locked) => ((closed = true), locked));
      await until(() => waitingAt('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE'));
      expect(closed).toBe(false);
      await other.release();
      expect(await close).toBe(true);
      // Sales ended; the close holds the lottery. A purchase takes no share of it then: it is refused at once.
      await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [lottery]);
      const closing = await holding((tx) => lockLotteryForSale(tx, lottery));
      const res = await buy(t, a, purchase(lottery, TICKET));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('lottery_ended');
      await closing.release();
      expect(await rows(t)).toEqual([]);
    });
  });

  test('a retry whose first request commits while it waits for the lottery’s lock: answered with that purchase', async () => {
    // The key is looked up after the lock: on PostgreSQL a look before it cannot see the first request's uncommitted
    // row, and the retry would then find the ticket held (409) instead of answering with the purchase made.
    const lottery = await insertLottery(t);
    const { made, res } = await whileSaleOpen(
      lottery,
      (tx) =>
        tx.one<{ id: number }>(
          `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, idempotency_key)
           VALUES ($1, $2, $3, 100, 'bkash', 'in-flight') RETURNING id`,
          [a.id, lottery, TICKET],
        ),
      () => buy(t, a, purchase(lottery, TICKET), 'in-flight'),
    );
    const firstId = made?.id;
    expect(firstId).toEqual(expect.any(Number));
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.body.id).toBe(firstId);
    expect((await rows(t)).map((r) => r.id)).toEqual([firstId]);
  });

  // The embedded database's thread: a purchase holds the database from its BEGIN to its end, while every other
  // statement waits, so it runs there whole, one message from the app, and never waits for the app's thread between its
  // statements (docs/decisions/099-writes-run-on-the-database-thread.md).
  (process.env.TEST_DATABASE_URL ? test.skip : test)(
    'on the embedded database, a purchase is one message to the database’s thread, which runs its transaction there',
    async () => {
      const lottery = await insertLottery(t);
      const batches = await messagesOf(() => buy(t, a, purchase(lottery, TICKET)).expect(201));
      expect(runsOf(batches, 'purchase')).toEqual([
        expect.objectContaining({ body: expect.objectContaining({ lottery_id: lottery, ticket: TICKET }) }),
      ]);
      // None of its statements went from the app's thread.
      expect(transactionsLocking(batches, lottery)).toEqual([]);
      expect((await rows(t)).map((r) => r.ticket)).toEqual([TICKET]);
    },
  );

  // PostgreSQL: the lock and the reads, asked for at once, are written together on the transaction's connection, in
  // node-postgres's pipeline mode, and answered in order (docs/decisions/093-writes-hold-the-lottery-for-less.md).
  (process.env.TEST_DATABASE_URL ? test : test.skip)(
    'on PostgreSQL, a purchase’s reads are written with its lock, on a pipelined connection, before the lock answers',
    async () => {
      const lottery = await insertLottery(t);
      const whileBusy: { sql: string; pipelined: boolean }[] = [];
      await queriesOf(
        ({ sql, busy, pipelined }) => void (busy && whileBusy.push({ sql, pipelined })),
        () => buy(t, a, purchase(lottery, TICKET)).expect(201),
      );
      // The reads went out while the lock ran; a client is asked while busy only in pipeline mode.
      expect(whileBusy.some((x) => /EXISTS \(SELECT id FROM transactions WHERE lottery_id = \$1 AND ticket = \$2/.test(x.sql))).toBe(true);
      expect(whileBusy.filter((x) => !x.pipelined)).toEqual([]);
      expect((await rows(t)).map((r) => r.ticket)).toEqual([TICKET]);
    },
  );

  test('a duplicate TrxID is refused, whatever its case; the first stays', async () => {
    const lottery = await insertLottery(t);
    expect((await buy(t, a, purchase(lottery, TICKET, { trx_id: 'TRX12345AB' }))).status).toBe(201);
    const res = await buy(t, b, purchase(lottery, '01-02-03-04-05-06', { trx_id: 'trx12345ab' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      trx_id: ['This TrxID has already been used. Please check the transaction ID in the message bKash sent you.'],
      code: 'trx_id_taken',
    });
    expect((await rows(t)).map((r) => r.trx_id)).toEqual(['TRX12345AB']);
  });

  test('user_id: the caller’s own id is accepted; another player’s is 403 and nothing is bought for anyone', async () => {
    const lottery = await insertLottery(t);
    const res = await buy(t, a, purchase(lottery, TICKET, { user_id: b.id }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    expect(await rows(t)).toEqual([]);
    const asString = await buy(t, a, purchase(lottery, TICKET, { user_id: String(a.id) }));
    expect(asString.status).toBe(201);
    expect((await rows(t)).map((r) => r.user_id)).toEqual([a.id]);
  });

  test('anonymous: 401, nothing stored', async () => {
    const lottery = await insertLottery(t);
    const res = await to(t, api.createTransaction).send(purchase(lottery, TICKET));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_authenticated');
    expect(await rows(t)).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  test('a retry with the same key returns the first transaction (200, same body) and makes no second one', async () => {
    const lottery = await insertLottery(t);
    const first = await buy(t, a, purchase(lottery, TICKET), 'key-1');
    expect(first.status).toBe(201);
    const again = await buy(t, a, purchase(lottery, TICKET), 'key-1');
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await rows(t)).toHaveLength(1);
    // Even after the lottery closed: the answer is the purchase already made.
    await t.db.query(`UPDATE lotteries SET is_result_published = true`);
    const late = await buy(t, a, purchase(lottery, TICKET), 'key-1');
    expect(late.status).toBe(200);
    expect(late.body.id).toBe(first.body.id);
  });

  test('the same key sent twice at once: one transaction, both answers name it', async () => {
    const lottery = await insertLottery(t);
    const [x, y] = await Promise.all([buy(t, a, purchase(lottery, TICKET), 'twin'), buy(t, a, purchase(lottery, TICKET), 'twin')]);
    expect([x.status, y.status].sort()).toEqual([200, 201]);
    expect(x.body.id).toBe(y.body.id);
    expect(await rows(t)).toHaveLength(1);
  });

  test('a different key makes a second transaction only for another combination', async () => {
    const lottery = await insertLottery(t);
    expect((await buy(t, a, purchase(lottery, TICKET), 'k-a')).status).toBe(201);
    expect((await buy(t, a, purchase(lottery, TICKET), 'k-b')).status).toBe(409);
    expect((await buy(t, a, purchase(lottery, '01-02-03-04-05-06'), 'k-c')).status).toBe(201);
    expect(await rows(t)).toHaveLength(2);
  });

  test('a key is the player’s own: another player’s same key is a purchase of his', async () => {
    const lottery = await insertLottery(t);
    expect((await buy(t, a, purchase(lottery, TICKET), 'shared')).status).toBe(201);
    const theirs = await buy(t, b, purchase(lottery, '01-02-03-04-05-06'), 'shared');
    expect(theirs.status).toBe(201);
    expect((await rows(t)).map((r) => r.user_id)).toEqual([a.id, b.id]);
  });

  test('a key used for other numbers or another lottery: 422, nothing new', async () => {
    const lottery = await insertLottery(t);
    const other = await insertLottery(t);
    expect((await buy(t, a, purchase(lottery, TICKET), 'once')).status).toBe(201);
    for (const body of [purchase(lottery, '01-02-03-04-05-06'), purchase(other, TICKET)]) {
      const res = await buy(t, a, body, 'once');
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: 'This Idempotency-Key was already used for a different purchase.',
        code: 'idempotency_key_reused',
      });
    }
    expect(await rows(t)).toHaveLength(1);
  });

  test.each([
    ['empty', ''],
    ['101 characters', 'k'.repeat(101)],
    ['not printable ASCII', 'clé'],
  ])('a key that is %s: 400', async (_name, key) => {
    const lottery = await insertLottery(t);
    const res = await buy(t, a, purchase(lottery, TICKET), key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'The Idempotency-Key header must be 1 to 100 printable characters.', code: 'bad_request' });
    expect(await rows(t)).toEqual([]);
  });

  test('100 printable characters are a key', async () => {
    const lottery = await insertLottery(t);
    // Every printable character but the space (a header value's edges are trimmed), 100 in all.
    const key = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('') + 'x'.repeat(6);
    expect(key).toHaveLength(100);
    expect((await buy(t, a, purchase(lottery, TICKET), key)).status).toBe(201);
    expect((await t.db.one<{ k: string }>('SELECT idempotency_key AS k FROM transactions'))?.k).toBe(key);
  });
});

describe('rate limit', () => {
  test(`more than ${PURCHASE_LIMIT.max} purchases a minute by one player: 429 with Retry-After; another player is not limited`, async () => {
    for (let i = 0; i < PURCHASE_LIMIT.max; i++) {
      const res = await buy(t, a, purchase(987654, TICKET));
      expect(res.status).toBe(400);
    }
    const limited = await buy(t, a, purchase(987654, TICKET));
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('throttled');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(PURCHASE_LIMIT.windowSec);
    expect((await buy(t, b, purchase(987654, TICKET))).status).toBe(400);
  });
});

describe('PATCH /api/v1/transactions/{id}/trx-id/', () => {
  const patch = (p: Player, id: number, body: object) => to(t, api.setTrxId, { params: { id }, as: p, lang: 'en' }).send(body);

  test('the owner gives the TrxID of his pending purchase once; the same again changes nothing; another is refused', async () => {
    const lottery = await insertLottery(t);
    const { body: tx } = await buy(t, a, purchase(lottery, TICKET, { payment_number: undefined }));
    const res = await patch(a, tx.id, { trx_id: 'bkx9a8b7c6', payment_number: '01812345678' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tx.id, trx_id: 'BKX9A8B7C6', payment_number: '01812345678', status: 'pending' });
    expect((await patch(a, tx.id, { trx_id: 'BKX9A8B7C6' })).status).toBe(200);
    const change = await patch(a, tx.id, { trx_id: 'OTHER12345' });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({
      detail: 'The TrxID of this purchase has already been given. To change it, please contact support.',
      code: 'trx_id_given',
    });
    expect((await rows(t)).map((r) => r.trx_id)).toEqual(['BKX9A8B7C6']);
  });

  test('another player’s transaction is not found; a TrxID in use is refused; only while pending', async () => {
    const lottery = await insertLottery(t);
    const mine = (await buy(t, a, purchase(lottery, TICKET, { trx_id: 'USED123456' }))).body;
    const theirs = (await buy(t, b, purchase(lottery, '01-02-03-04-05-06'))).body;
    const stranger = await patch(a, theirs.id, { trx_id: 'ABCDEFGH12' });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ detail: 'Transaction not found', code: 'not_found' });
    expect((await patch(b, 987654, { trx_id: 'ABCDEFGH12' })).status).toBe(404);
    const used = await patch(b, theirs.id, { trx_id: 'used123456' });
    expect(used.status).toBe(409);
    expect(Object.keys(used.body)).toEqual(['trx_id', 'code']);
    expect(used.body.code).toBe('trx_id_taken');
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [theirs.id]);
    const failed = await patch(b, theirs.id, { trx_id: 'ABCDEFGH12' });
    expect(failed.status).toBe(409);
    expect(failed.body.code).toBe('not_pending');
    expect((await patch(b, theirs.id, { trx_id: 'x' })).body).toEqual({ trx_id: [expect.stringMatching(/^The bKash transaction ID/)] });
    expect((await patch(b, theirs.id, {})).body).toEqual({ trx_id: ['This field is required.'] });
    expect((await rows(t)).map((r) => r.trx_id)).toEqual([mine.trx_id, null]);
  });

  // A TrxID moves nothing in the lottery's tally: it holds the lottery's row FOR SHARE, so other changes of the lottery
  // that do the same do not wait for it, and the close of sales (FOR UPDATE) still does
  // (docs/decisions/093-writes-hold-the-lottery-for-less.md). Two connections: PostgreSQL only.
  (process.env.TEST_DATABASE_URL ? test : test.skip)(
    'on PostgreSQL, a TrxID is given while another change holds its lottery shared, and the close waits for both',
    async () => {
      const lottery = await insertLottery(t);
      const first = (await buy(t, a, purchase(lottery, TICKET))).body;
      const second = (await buy(t, b, purchase(lottery, '01-02-03-04-05-06'))).body;
      const other = await holding(async (tx) => expect((await lockTransaction(tx, first.id, 'shared'))?.id).toBe(first.id));
      // Were the TrxID's lock exclusive, it would wait for `other`, which ends only after it: the test would time out.
      const given = await patch(b, second.id, { trx_id: 'SHARED1234' });
      expect(given.status).toBe(200);
      expect(given.body).toMatchObject({ id: second.id, trx_id: 'SHARED1234' });
      // The close takes the lottery FOR UPDATE: it waits for the change still holding the lottery.
      let closed = false;
      const close = t.db.tx((tx) => lockLotteryForSale(tx, lottery)).then((locked) => ((closed = true), locked));
      await until(() => waitingAt('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE'));
      expect(closed).toBe(false);
      await other.release();
      expect(await close).toBe(true);
    },
  );
});

const mineOf = (p: Player, query: Record<string, unknown> = {}, lang?: string) => to(t, api.myTransactions, { query, as: p, lang });

describe('GET /api/v1/my-transactions/', () => {
  const mine = mineOf;

  test('only the caller’s own, newest first, paged with X-Total-Count', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    const ids: number[] = [];
    for (const ticket of ['01-02-03-04-05-01', '01-02-03-04-05-02', '01-02-03-04-05-03'])
      ids.push((await buy(t, a, purchase(lottery, ticket))).body.id);
    await buy(t, b, purchase(lottery, '01-02-03-04-05-04'));
    const res = await mine(a);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.body.map((x: { id: number }) => x.id)).toEqual([...ids].reverse());
    expect(res.text).not.toContain('01-02-03-04-05-04');
    // A page past the end: no rows, the total still told.
    const past = await mine(a, { limit: 2, offset: 10 });
    expect(past.body).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
    const page = await mine(a, { limit: 2, offset: 2 });
    expect(page.body.map((x: { id: number }) => x.id)).toEqual([ids[0]]);
    expect(page.headers['x-total-count']).toBe('3');
    const theirs = await mine(b);
    expect(theirs.body.map((x: { ticket: string }) => x.ticket)).toEqual(['01-02-03-04-05-04']);
    expect(theirs.headers['x-total-count']).toBe('1');
    expect((await mine(a, { limit: 0 })).status).toBe(400);
    expect((await to(t, api.myTransactions)).status).toBe(401);
  });

  test('only=tickets: confirmed and awaiting confirmation; only=unfinished: awaiting payment; a cancelled purchase in neither', async () => {
    const p = await account(t, { name: 'Filter Player' });
    const lottery = await insertLottery(t);
    const made: Record<string, number> = {};
    const states: [string, string, string | null][] = [
      ['01-02-03-04-06-01', 'failed', null],
      ['01-02-03-04-06-02', 'failed', 'FAILEDTRX1'],
      ['01-02-03-04-06-03', 'pending', null],
      ['01-02-03-04-06-04', 'pending', 'WAITINGTX1'],
      ['01-02-03-04-06-05', 'success', 'CONFIRMED1'],
    ];
    for (const [ticket, status, trx] of states) {
      made[ticket] = (await t.db.one<{ id: number }>(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, trx_id) VALUES ($1, $2, $3, 100, $4, 'bkash', $5) RETURNING id`,
        [p.id, lottery, ticket, status, trx],
      ))!.id;
    }
    const tickets = await mine(p, { only: 'tickets' });
    expect(tickets.status).toBe(200);
    expect(tickets.body.map((x: { ticket: string }) => x.ticket)).toEqual(['01-02-03-04-06-05', '01-02-03-04-06-04']);
    expect(tickets.headers['x-total-count']).toBe('2');
    const unfinished = await mine(p, { only: 'unfinished' });
    expect(unfinished.body.map((x: { id: number }) => x.id)).toEqual([made['01-02-03-04-06-03']]);
    expect(unfinished.headers['x-total-count']).toBe('1');
    // A page past the end still tells the total of its own kind.
    const past = await mine(p, { only: 'tickets', limit: 1, offset: 5 });
    expect([past.body, past.headers['x-total-count']]).toEqual([[], '2']);
    const all = await mine(p);
    expect(all.headers['x-total-count']).toBe('5');
    // Another player's are never among them.
    expect((await mine(b, { only: 'unfinished' })).text).not.toContain('01-02-03-04-06-03');
  });

  test('only= anything else: 400 under only, in English and Bengali; anonymous 401; staff and superusers get their own', async () => {
    // Blank is no filter, as every optional query field is.
    // An empty only= (which urlOf leaves out: its query is written by hand).
    const blank = await request(t.url)
      .get(`${urlOf(api.myTransactions)}?only=`)
      .set(...a.auth);
    expect([blank.status, blank.headers['x-total-count']]).toEqual([200, (await mine(a)).headers['x-total-count']]);
    for (const bad of ['failed', 'all', 'TICKETS', 'tickets,unfinished']) {
      const en = await mine(a, { only: bad });
      expect([bad, en.status, Object.keys(en.body)]).toEqual([bad, 400, ['only']]);
      const bn = await mine(a, { only: bad }, 'bn');
      expect(bn.status).toBe(400);
      expect(bn.body.only[0]).not.toBe(en.body.only[0]);
    }
    expect((await to(t, api.myTransactions, { query: { only: 'tickets' } })).status).toBe(401);
    const staff = await account(t, { name: 'Desk Staff', is_staff: true });
    const lottery = await insertLottery(t);
    await t.db.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, trx_id) VALUES ($1, $2, '01-02-03-04-07-01', 100, 'success', 'bkash', 'STAFFTRX01')`,
      [staff.id, lottery],
    );
    const own = await mine(staff, { only: 'tickets' });
    expect([own.status, own.body.map((x: { ticket: string }) => x.ticket)]).toEqual([200, ['01-02-03-04-07-01']]);
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [staff.id]);
    const su = await mine(staff, { only: 'unfinished' });
    expect([su.status, su.body]).toEqual([200, []]);
  });

  test('a winning ticket shows its prize once the results are published (its claim: tests/api/claims.test.ts)', async () => {
    const lottery = await insertLottery(t);
    const { body: won } = await buy(t, a, purchase(lottery, TICKET));
    const { body: lost } = await buy(t, a, purchase(lottery, '01-02-03-04-05-06'));
    await t.db.query(`UPDATE transactions SET status = 'success'`);
    const prize = await t.db.one<{ id: number }>(
      'INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, 50000) RETURNING id',
      [lottery, won.id, TICKET],
    );
    // Drawn but not published: nothing shows yet.
    let res = await mine(a);
    expect(res.body.map((x: { is_winning_ticket: boolean; prize: unknown }) => [x.is_winning_ticket, x.prize])).toEqual([
      [false, null],
      [false, null],
    ]);
    await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [lottery]);
    res = await mine(a);
    const byId = Object.fromEntries(res.body.map((x: { id: number }) => [x.id, x]));
    expect(byId[won.id]).toMatchObject({
      status: 'success',
      is_winning_ticket: true,
      prize: { id: prize!.id, prize_money: 50000 },
      has_claimed: false,
      claim_status: null,
      lottery: { id: lottery, is_result_published: true },
    });
    expect(byId[lost.id]).toMatchObject({ is_winning_ticket: false, prize: null });
  });
});

describe('GET /api/v1/my-lotteries/ (My Lotteries in one read)', () => {
  const lotteriesOf = (p: Player | null, query: Record<string, unknown> = {}, lang?: string) =>
    to(t, api.myLotteries, { query, as: p, lang });
  const tickets = (x: { ticket: string }[]) => x.map((y) => y.ticket);

  test('a page of his tickets with their total, and on the first page his purchases awaiting payment: as only=tickets and only=unfinished list them', async () => {
    const p = await account(t, { name: 'Lotteries Player' });
    const lottery = await insertLottery(t);
    const states: [string, string, string | null][] = [
      ['01-02-03-04-08-01', 'failed', null],
      ['01-02-03-04-08-02', 'pending', null],
      ['01-02-03-04-08-03', 'pending', 'WAITINGTX2'],
      ['01-02-03-04-08-04', 'success', 'CONFIRMED2'],
      ['01-02-03-04-08-05', 'pending', null],
      ['01-02-03-04-08-06', 'success', 'CONFIRMED3'],
    ];
    for (const [i, [ticket, status, trx]] of states.entries())
      await t.db.query(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, trx_id, created_at)
         VALUES ($1, $2, $3, 100, $4, 'bkash', $5, now() - ($6::int * interval '1 minute'))`,
        [p.id, lottery, ticket, status, trx, 10 - i],
      );
    // Another player's are never among them.
    await t.db.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method) VALUES ($1, $2, '01-02-03-04-08-07', 100, 'pending', 'bkash')`,
      [b.id, lottery],
    );
    const first = await lotteriesOf(p, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.headers['x-total-count']).toBeUndefined();
    expect(tickets(first.body.tickets)).toEqual(['01-02-03-04-08-06', '01-02-03-04-08-04']);
    expect(first.body.total).toBe(3);
    expect(tickets(first.body.unfinished)).toEqual(['01-02-03-04-08-05', '01-02-03-04-08-02']);
    // The same items, field for field, as the two lists of GET /api/v1/my-transactions/.
    expect(first.body.tickets).toEqual((await mineOf(p, { only: 'tickets', limit: 2 })).body);
    expect(first.body.unfinished).toEqual((await mineOf(p, { only: 'unfinished' })).body);

    // A later page: its tickets and the same total, no purchases awaiting payment.
    const second = await lotteriesOf(p, { limit: 2, offset: 2 });
    expect([tickets(second.body.tickets), second.body.total, second.body.unfinished]).toEqual([['01-02-03-04-08-03'], 3, []]);
    // Past the end: no tickets, the total still told.
    expect((await lotteriesOf(p, { limit: 2, offset: 10 })).body).toEqual({ tickets: [], total: 3, unfinished: [], runs: [] });
    // None at all.
    const none = await account(t, { name: 'New Player' });
    expect((await lotteriesOf(none)).body).toEqual({ tickets: [], total: 0, unfinished: [], runs: [] });
    // Only awaiting payment: listed, with no ticket and a total of 0.
    expect((await lotteriesOf(b)).body).toMatchObject({ tickets: [], total: 0, unfinished: [{ ticket: '01-02-03-04-08-07' }] });
  });

  test('at most 10 awaiting payment, newest first', async () => {
    const p = await account(t, { name: 'Many Unfinished' });
    const lottery = await insertLottery(t);
    for (let i = 1; i <= 12; i++)
      await t.db.query(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, created_at)
         VALUES ($1, $2, $3, 100, 'pending', 'bkash', now() - ($4::int * interval '1 minute'))`,
        [p.id, lottery, `01-02-03-04-09-${String(i).padStart(2, '0')}`, 20 - i],
      );
    const res = await lotteriesOf(p);
    expect(res.body.unfinished).toHaveLength(10);
    expect(res.body.unfinished[0].ticket).toBe('01-02-03-04-09-12');
  });

  test('a bad limit or offset: 400 under the field, in English and Bengali; anonymous 401; staff get their own', async () => {
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 'x' }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ offset: 2_000_000 }, 'offset'],
      [{ only: 'tickets' }, 'only'],
    ] as [Record<string, unknown>, string][]) {
      const en = await lotteriesOf(a, query);
      expect([query, en.status, Object.keys(en.body)]).toEqual([query, 400, [field]]);
      const bn = await lotteriesOf(a, query, 'bn');
      expect(bn.status).toBe(400);
      expect(bn.body[field][0]).not.toBe(en.body[field][0]);
    }
    expect((await lotteriesOf(null)).status).toBe(401);
    const staff = await account(t, { name: 'Lotteries Staff', is_staff: true });
    expect((await lotteriesOf(staff)).body).toEqual({ tickets: [], total: 0, unfinished: [], runs: [] });
  });
});
