/**
 * A lottery's part of My Lotteries' cards kept by version (migration 042, server/purchases/lottery-facts.ts,
 * docs/decisions/100-lottery-facts-kept-by-version.md): the version changes with everything a card shows of the
 * lottery and with nothing else, what is kept is read once a version and never shown once out of date, and the cards
 * made from it are the cards read whole with their lotteries joined. On PGlite and PostgreSQL.
 */
import { jest } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';
import { playerLotteries } from '../../server/purchases/queries.ts';
import { LotteryFactsStore, type LotteryFacts } from '../../server/purchases/lottery-facts.ts';

let t: TestApp;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Rahim Uddin' });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM prize_claims');
  await t.db.query('DELETE FROM prizes');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM lotteries');
  await t.db.query('DELETE FROM games');
});

const HEX = (c: string) => c.repeat(64);

/** A game kept from drawing by itself (inactive), whose draws have Lucky Chance. */
const game = async () =>
  (await t.db.one<{ id: number }>(
    `INSERT INTO games (name, ticket_price, tickets_per_draw, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize,
       lucky_count, lucky_prize, draw_days, draw_minute, close_minutes, draws_ahead, starts_at, active)
     VALUES ('Daily Lucky', 100, 1000, 50, 20000, 2000, 200, 20, 3, 500, 127, 1200, 30, 1, now(), false) RETURNING id`,
  ))!.id;

/**
 * A numbers lottery on sale, jackpot half of its paid sales plus `rollover_in`; with `lucky`, a game's draw with
 * Lucky Chance.
 */
async function numbersLottery(o: { rollover_in?: number; lucky?: boolean } = {}): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, name_bn, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published,
       kind, jackpot_share, tier2_prize, tier3_prize, tier4_prize, tier5_prize, rollover_in, lucky_count, lucky_prize, game_id, draw_at)
     VALUES ('Weekly Numbers', 'সাপ্তাহিক সংখ্যা', '', now() - interval '1 day', now() + interval '6 days', 100, 1000, 1, 1, true,
       'numbers', 50, 20000, 2000, 200, 20, $1, $2, $3, $4, CASE WHEN $4::bigint IS NULL THEN NULL ELSE now() + interval '7 days' END)
     RETURNING id`,
    [o.rollover_in ?? 0, o.lucky ? 3 : 0, o.lucky ? 500 : 0, o.lucky ? await game() : null],
  );
  return row!.id;
}

const announce = (lottery: number) =>
  t.db.query(
    `INSERT INTO draw_commitments (lottery_id, seed, commitment, beacon_source, beacon_round) VALUES ($1, $2, $3, 'drand-quicknet', 1000)`,
    [lottery, HEX('a'), HEX('b')],
  );

/** The player's transaction: [ticket, status, amount]; a TrxID unless it awaits payment. */
async function bought(lottery: number, ticket: string, status: 'pending' | 'success' | 'failed', unfinished = false): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, trx_id, status)
     VALUES ($1, $2, $3, 100, 'payment', 'bkash', $4, $5) RETURNING id`,
    [player.id, lottery, ticket, unfinished ? null : `TX${lottery}${ticket.replaceAll('-', '')}`, status],
  );
  return row!.id;
}

const prize = async (lottery: number, transaction: number, ticket: string, money: number) =>
  (await t.db.one<{ id: number }>(
    'INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4) RETURNING id',
    [lottery, transaction, ticket, money],
  ))!.id;

const version = async (lottery: number) =>
  (await t.db.one<{ facts: number }>('SELECT facts FROM lottery_tallies WHERE lottery_id = $1', [lottery]))!.facts;

/** A store that never has what is asked: the cards are read whole, lotteries joined (the statement used before). */
class Joined extends LotteryFactsStore {
  override at(): Promise<Map<number, LotteryFacts> | null> {
    return Promise.resolve(null);
  }
}

const page = (store: LotteryFactsStore, offset = 0) => playerLotteries(t.db, player.id, 10, offset, offset === 0 ? 10 : 0, store);

const ticket = (n: number) => `01-02-03-04-${String(10 + n).padStart(2, '0')}-01`;

describe("a lottery's version (migration 042)", () => {
  test('changes with its row and with its commitment and drawn numbers, in the same transaction; not with a sale', async () => {
    const one = await numbersLottery();
    const two = await numbersLottery();
    const first = await version(one);
    expect(first).not.toBe(await version(two));

    await bought(one, ticket(1), 'success');
    await t.db.query("UPDATE transactions SET status = 'failed' WHERE lottery_id = $1", [one]);
    expect(await version(one)).toBe(first);

    await t.db.query("UPDATE lotteries SET name = 'Weekly Numbers 2' WHERE id = $1", [one]);
    const renamed = await version(one);
    expect(renamed).toBeGreaterThan(first);
    expect(await version(two)).not.toBe(renamed);

    await announce(one);
    const announced = await version(one);
    expect(announced).toBeGreaterThan(renamed);
    // A beacon entered or a seed sealed is not a card's: the version stays.
    await t.db.query(`UPDATE draw_commitments SET beacon_round = 1001, beacon_value = $2 WHERE lottery_id = $1`, [one, HEX('c')]);
    expect(await version(one)).toBe(announced);
    await t.db.query("UPDATE draw_commitments SET numbers = '05-12-23-34-45-07' WHERE lottery_id = $1", [one]);
    const drawn = await version(one);
    expect(drawn).toBeGreaterThan(announced);

    // Rolled back with the change it came with.
    await t.db
      .tx(async (tx) => {
        await tx.query('UPDATE lotteries SET rollover_in = 5000 WHERE id = $1', [one]);
        throw new Error('no');
      })
      .catch(() => undefined);
    expect(await version(one)).toBe(drawn);
    await t.db.query('DELETE FROM draw_commitments WHERE lottery_id = $1', [one]);
    expect(await version(one)).toBeGreaterThan(drawn);
  });
});

describe('the kept facts (LotteryFactsStore)', () => {
  test('read once a version, in one statement for every lottery missing, and again once the lottery changed', async () => {
    const one = await numbersLottery({ lucky: true });
    const two = await insertLottery(t, { name: 'Eid Bumper', name_bn: 'ঈদ বাম্পার' });
    await announce(one);
    const store = new LotteryFactsStore();
    const spy = jest.spyOn(t.db, 'query');
    try {
      const versions = new Map([
        [one, await version(one)],
        [two, await version(two)],
      ]);
      spy.mockClear();
      const got = await store.at(t.db, versions);
      expect(spy.mock.calls.length).toBe(1);
      expect(got?.get(one)).toMatchObject({
        l_name: 'Weekly Numbers',
        l_kind: 'numbers',
        lucky_key: HEX('b'),
        numbers: null,
        jackpot_share: 50,
      });
      expect(got?.get(two)).toMatchObject({ l_name: 'Eid Bumper', l_name_bn: 'ঈদ বাম্পার', l_kind: 'tickets', lucky_key: null });
      expect(await store.at(t.db, versions)).toEqual(got);
      expect(spy.mock.calls.length).toBe(1);

      await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [two]);
      const now = new Map([
        [one, versions.get(one)!],
        [two, await version(two)],
      ]);
      spy.mockClear();
      const after = await store.at(t.db, now);
      expect(spy.mock.calls.length).toBe(1);
      expect(String(spy.mock.calls[0]![1])).toBe(String([two]));
      expect(after?.get(two)?.l_is_result_published).toBe(true);
      expect(after?.get(one)).toBe(got?.get(one));
    } finally {
      spy.mockRestore();
    }
  });

  test('none when a lottery changed after the rows were read: the version asked is not the one there is', async () => {
    const one = await numbersLottery();
    const store = new LotteryFactsStore();
    const read = await version(one);
    await t.db.query("UPDATE lotteries SET name = 'Renamed' WHERE id = $1", [one]);
    expect(await store.at(t.db, new Map([[one, read]]))).toBeNull();
    // What it read meanwhile is kept, and a view that read the new version has it.
    expect((await store.at(t.db, new Map([[one, await version(one)]])))?.get(one)?.l_name).toBe('Renamed');
    // An older version is never kept over a newer one.
    expect(await store.at(t.db, new Map([[one, read]]))).toBeNull();
    expect((await store.at(t.db, new Map([[one, await version(one)]])))?.get(one)?.l_name).toBe('Renamed');
  });

  test('keeps at most its number of lotteries, and still answers for more than that', async () => {
    const lotteries = [await numbersLottery(), await insertLottery(t), await insertLottery(t)];
    const store = new LotteryFactsStore(2);
    const versions = new Map<number, number>();
    for (const id of lotteries) versions.set(id, await version(id));
    const ids = async () => [...((await store.at(t.db, versions)) ?? new Map<number, LotteryFacts>()).keys()].sort((a, b) => a - b);
    expect(await ids()).toEqual(lotteries);
    expect(store.size).toBe(2);
    const spy = jest.spyOn(t.db, 'query');
    try {
      // The one not kept is read again, in one statement; the two kept are not.
      expect(await ids()).toEqual(lotteries);
      expect(spy).toHaveBeenCalledTimes(1);
      expect((spy.mock.calls[0]![1] as unknown[][])[0]).toHaveLength(1);
      expect(store.size).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  test('nothing asked, nothing read', async () => {
    const store = new LotteryFactsStore();
    const spy = jest.spyOn(t.db, 'query');
    try {
      expect(await store.at(t.db, new Map())).toEqual(new Map());
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe("My Lotteries' cards (playerLotteries)", () => {
  /** Lotteries of every kind and state, the player's tickets and purchases in them, prizes and a claim. */
  async function everyKindOfCard(): Promise<{ tickets: number; numbers: number }> {
    const numbers = await numbersLottery({ rollover_in: 1234, lucky: true });
    await announce(numbers);
    const tickets = await insertLottery(t, { name: 'Eid Bumper', name_bn: 'ঈদ বাম্পার' });
    const drawn = await insertLottery(t, { name: 'Pohela Boishakh', results: true, end: -1, start: -5 });
    const undrawn = await insertLottery(t, { name: 'Victory Day' });
    for (let i = 1; i <= 3; i++) await bought(numbers, ticket(i), 'success');
    await bought(numbers, ticket(4), 'pending');
    await bought(numbers, ticket(5), 'pending', true);
    await bought(tickets, ticket(1), 'success');
    await bought(tickets, ticket(2), 'failed');
    const won = await bought(drawn, ticket(1), 'success');
    const alsoWon = await bought(drawn, ticket(2), 'success');
    const claimed = await prize(drawn, won, ticket(1), 5000);
    await prize(drawn, alsoWon, ticket(2), 7000);
    await t.db.query(
      `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, submitted_at)
       VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01712345678', now())`,
      [claimed, player.id],
    );
    // A prize of a lottery whose results are not published yet (a proposal): not shown.
    const proposed = await bought(undrawn, ticket(1), 'success');
    await prize(undrawn, proposed, ticket(1), 9000);
    await t.db.query(
      "UPDATE prizes SET withheld_reason = 'The winner asked to stay anonymous', withheld_at = now() WHERE transaction_id = $1",
      [alsoWon],
    );
    return { tickets, numbers };
  }

  test('are the cards read whole with their lotteries joined, on every page, and read the lotteries once', async () => {
    await everyKindOfCard();
    const store = new LotteryFactsStore();
    for (const offset of [0, 3, 50]) {
      const whole = await page(new Joined(), offset);
      expect(await page(store, offset)).toEqual(whole);
      expect(await page(store, offset)).toEqual(whole);
    }
    const first = await page(store);
    expect(first.total).toBe(8);
    expect(first.unfinished).toHaveLength(1);
    const cards = [...first.tickets, ...first.unfinished];
    // The jackpot is ⌊300 × 50 / 100⌋ + 1,234 from the three paid tickets; a prize before its results is not shown.
    expect(cards.find((c) => c.l_kind === 'numbers')?.l_total_prize).toBe(1384);
    expect(cards.filter((c) => c.prize_id !== null).map((c) => c.prize_money)).toEqual(expect.arrayContaining([5000, 7000]));
    expect(cards.filter((c) => c.prize_id !== null)).toHaveLength(2);
    expect(cards.find((c) => c.prize_money === 5000)?.claim_status).toBe('payment_info_submitted');
    expect(cards.find((c) => c.prize_money === 7000)?.withheld_reason).toBe('The winner asked to stay anonymous');
    expect(store.size).toBe(4);
  });

  test('show a lottery as it is now after it changed: its results, its jackpot, its name', async () => {
    const { numbers, tickets } = await everyKindOfCard();
    const store = new LotteryFactsStore();
    await page(store);
    await bought(numbers, ticket(6), 'success');
    await t.db.query("UPDATE lotteries SET name = 'Weekly Numbers (moved)' WHERE id = $1", [numbers]);
    await t.db.query("UPDATE draw_commitments SET numbers = '01-02-03-04-11-01' WHERE lottery_id = $1", [numbers]);
    await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [numbers]);
    await t.db.query("UPDATE lotteries SET name_bn = 'ঈদ' WHERE id = $1", [tickets]);
    const now = await page(store);
    expect(now).toEqual(await page(new Joined()));
    const card = now.tickets.find((c) => c.l_kind === 'numbers');
    expect(card).toMatchObject({
      l_name: 'Weekly Numbers (moved)',
      l_total_prize: 1434,
      l_is_result_published: true,
      numbers: '01-02-03-04-11-01',
    });
    expect(now.tickets.find((c) => c.lottery_id === tickets)?.l_name_bn).toBe('ঈদ');
  });

  test("the API's answer follows a draw published after the page was seen", async () => {
    const lottery = await insertLottery(t, { name: 'Eid Bumper' });
    const id = await bought(lottery, ticket(1), 'success');
    const before = await to(t, api.myLotteries, { as: player }).expect(200);
    expect(before.body.tickets[0]).toMatchObject({ id, is_winning_ticket: false, lottery: { is_result_published: false } });
    await prize(lottery, id, ticket(1), 5000);
    const still = await to(t, api.myLotteries, { as: player }).expect(200);
    expect(still.body.tickets[0]).toMatchObject({ is_winning_ticket: false, prize: null });
    await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [lottery]);
    const after = await to(t, api.myLotteries, { as: player }).expect(200);
    expect(after.body.tickets[0]).toMatchObject({
      is_winning_ticket: true,
      prize: { prize_money: 5000 },
      lottery: { is_result_published: true },
    });
  });
});
