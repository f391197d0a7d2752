/**
 * Public lottery reads (docs/rules/lotteries-and-sales.md#3-who-sees-which-lottery, docs/rules/limits.md#3-page-sizes-and-bounded-lists): featured (purchasable only), published with
 * bounded paging and X-Total-Count, get-lottery (unpublished only for staff), and the latest published results.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, type Player } from '../helpers/factories.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let buyer: number;
let player: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t);
  staff = await account(t, { is_staff: true });
  buyer = player.id;
  expect(typeof player.token).toBe('string');
  expect(typeof staff.token).toBe('string');
});
afterAll(async () => {
  await t.close();
});
// Lists are global: every test starts from no lotteries at all.
beforeEach(async () => {
  await t.db.query('DELETE FROM prizes');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM lotteries');
});

const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

type LotteryInput = {
  name: string;
  start?: number;
  end?: number;
  published?: boolean;
  featured?: boolean;
  results?: boolean;
  total_tickets?: number;
  drawn?: number | null;
  ticket_price?: number;
  total_prize?: number;
  winners?: number;
};

/** A lottery; start and end are days from now (default: started yesterday, ends in 7 days, published). */
async function lottery(l: LotteryInput): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured, is_result_published, drawn_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      l.name,
      `About ${l.name}`,
      at(l.start ?? -1),
      at(l.end ?? 7),
      l.ticket_price ?? 50,
      l.total_tickets ?? 1000,
      l.winners ?? 2,
      l.total_prize ?? 100_000,
      l.published ?? true,
      l.featured ?? false,
      l.results ?? false,
      l.drawn === undefined || l.drawn === null ? null : at(l.drawn),
    ],
  );
  return row!.id;
}

async function sale(lotteryId: number, ticket: string, status = 'success'): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, $3, 50, 'bkash', $4) RETURNING id`,
    [buyer, lotteryId, ticket, status],
  );
  return row!.id;
}

async function prize(lotteryId: number, ticket: string, money: number): Promise<number> {
  const tx = await sale(lotteryId, ticket);
  const row = await t.db.one<{ id: number }>(
    'INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4) RETURNING id',
    [lotteryId, tx, ticket, money],
  );
  return row!.id;
}

const names = (body: { name: string }[]) => body.map((l) => l.name);

describe('GET /api/v1/featured-lotteries/', () => {
  test('only featured lotteries that can be bought now, soonest end first, with the fields the home page reads', async () => {
    await lottery({ name: 'Featured later', featured: true, end: 5 });
    await lottery({ name: 'Featured soon', featured: true, end: 3 });
    await lottery({ name: 'Not featured', featured: false });
    await lottery({ name: 'Featured unpublished', featured: true, published: false });
    await lottery({ name: 'Featured ended', featured: true, start: -10, end: -1 });
    await lottery({ name: 'Featured drawn', featured: true, results: true });
    await lottery({ name: 'Featured not started', featured: true, start: 1, end: 8 });

    const res = await to(t, api.featuredLotteries);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Featured soon', 'Featured later']);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      name: 'Featured soon',
      name_bn: '',
      description: 'About Featured soon',
      description_bn: '',
      start_date: expect.any(String),
      end_date: expect.any(String),
      ticket_price: 50,
      total_tickets: 1000,
      winners: 2,
      total_prize: 100_000,
      published: true,
      featured: true,
      is_result_published: false,
      drawn: false,
      tickets_sold: 0,
      purchasable: true,
      // Made in the database: no draw announced yet (docs/rules/draws.md#2-the-seed-and-its-commitment).
      commitment: null,
      // Nothing of the draw to say on its card yet (docs/rules/draws.md#12-where-it-stands).
      beacon_unverified: false,
      frozen: null,
      // A winning-tickets lottery: no tiers, no jackpot (docs/rules/lotteries-and-sales.md#1-lottery-fields).
      kind: 'tickets',
      jackpot_share: null,
      tier2_prize: null,
      tier3_prize: null,
      tier4_prize: null,
      tier5_prize: null,
      rollover_in: 0,
      rollover_to: null,
      jackpot: null,
      // Not a game's draw: no calendar, no Lucky Chance (docs/rules/games.md).
      game_id: null,
      draw_at: null,
      lucky_count: 0,
      lucky_prize: 0,
    });
    expect(Date.parse(res.body[0].end_date)).toBeGreaterThan(Date.now());
  });

  test('a sold-out featured lottery is not offered', async () => {
    const soldOut = await lottery({ name: 'Featured sold out', featured: true, total_tickets: 1 });
    await sale(soldOut, '01-02-03-04-05-06', 'pending');
    await lottery({ name: 'Featured open', featured: true, end: 30 });
    const res = await to(t, api.featuredLotteries);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Featured open']);
    // In the published list it comes after the open one and says why.
    const all = await to(t, api.publishedLotteries);
    expect(
      all.body.map((l: { name: string; purchasable: boolean; tickets_sold: number }) => [l.name, l.purchasable, l.tickets_sold]),
    ).toEqual([
      ['Featured open', true, 0],
      ['Featured sold out', false, 1],
    ]);
  });

  test('no featured lottery: an empty list', async () => {
    await lottery({ name: 'Plain' });
    const res = await to(t, api.featuredLotteries);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('GET /api/v1/published-lotteries/', () => {
  test('only published lotteries, purchasable first; X-Total-Count counts them all', async () => {
    await lottery({ name: 'Open B', end: 6 });
    await lottery({ name: 'Ended', start: -10, end: -2 });
    await lottery({ name: 'Open A', end: 2 });
    await lottery({ name: 'Hidden', published: false });
    await lottery({ name: 'Drawn', results: true, end: 1 });
    const res = await to(t, api.publishedLotteries);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    expect(names(res.body).slice(0, 2)).toEqual(['Open A', 'Open B']);
    expect(names(res.body).sort()).toEqual(['Drawn', 'Ended', 'Open A', 'Open B']);
    expect(res.body.map((l: { purchasable: boolean }) => l.purchasable)).toEqual([true, true, false, false]);
  });

  test('staff get the same public list (no unpublished lotteries here)', async () => {
    await lottery({ name: 'Visible' });
    await lottery({ name: 'Draft', published: false });
    const res = await to(t, api.publishedLotteries, { as: staff });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Visible']);
    expect(res.headers['x-total-count']).toBe('1');
  });

  test('limit and offset page through the list without gaps or repeats', async () => {
    for (let i = 1; i <= 7; i++) await lottery({ name: `L${i}`, end: i });
    await lottery({ name: 'Unpublished', published: false });
    const pages: string[][] = [];
    for (const offset of [0, 3, 6]) {
      const res = await to(t, api.publishedLotteries, { query: { limit: 3, offset } });
      expect(res.status).toBe(200);
      expect(res.headers['x-total-count']).toBe('7');
      pages.push(names(res.body));
    }
    expect(pages).toEqual([['L1', 'L2', 'L3'], ['L4', 'L5', 'L6'], ['L7']]);
    const beyond = await to(t, api.publishedLotteries, { query: { limit: 3, offset: 100 } });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('7');
    const edge = await to(t, api.publishedLotteries, { query: { limit: 100, offset: 0 } });
    expect(edge.status).toBe(200);
    expect(edge.body).toHaveLength(7);
  });

  test('the default page is bounded (50)', async () => {
    const values = Array.from(
      { length: 55 },
      (_, i) => `('Bulk ${i}', now() - interval '1 day', now() + interval '7 days', 50, 100, 1, 1000, true)`,
    ).join(',');
    await t.db.query(
      `INSERT INTO lotteries (name, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published) VALUES ${values}`,
    );
    const res = await to(t, api.publishedLotteries);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);
    expect(res.headers['x-total-count']).toBe('55');
  });

  test('limit 0, 101 or abc, a negative or fractional offset, an unknown parameter: 400 field errors, never 500', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ limit: '0' }, 'limit', 'Ensure this value is at least 1.'],
      [{ limit: '101' }, 'limit', 'Ensure this value has at most 100 characters or digits.'],
      [{ limit: 'abc' }, 'limit', 'Expected a number.'],
      [{ offset: '-1' }, 'offset', 'Ensure this value is at least 0.'],
      [{ offset: 'x' }, 'offset', 'Expected a number.'],
      [{ page: '2' }, 'page', 'Unknown field.'],
    ];
    for (const [query, field, message] of cases) {
      const res = await to(t, api.publishedLotteries, { query });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body).toEqual({ [field]: [message] });
    }
    const fraction = await to(t, api.publishedLotteries, { query: { limit: '1.5' } });
    expect(fraction.status).toBe(400);
    expect(Object.keys(fraction.body)).toEqual(['limit']);
    // A repeated parameter is not a number either.
    const twice = await to(t, api.publishedLotteries).query('limit=1&limit=2');
    expect(twice.status).toBe(400);
    expect(twice.body).toHaveProperty('limit');
  });
});

describe('GET /api/v1/get-lottery/{id}/', () => {
  test('a published lottery: 200 with the fields the purchase page reads, for anyone', async () => {
    const id = await lottery({ name: 'Boishakhi Bumper', ticket_price: 100 });
    for (const who of [null, player]) {
      const res = await to(t, api.getLottery, { params: { id }, as: who });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        name: 'Boishakhi Bumper',
        ticket_price: 100,
        published: true,
        is_result_published: false,
        purchasable: true,
      });
      expect(Date.parse(res.body.end_date)).toBeGreaterThan(Date.now());
    }
  });

  test('an unpublished lottery is 404 for visitors and players, but staff see it', async () => {
    const id = await lottery({ name: 'Draft lottery', published: false });
    const anon = await to(t, api.getLottery, { params: { id } });
    expect(anon.status).toBe(404);
    expect(anon.body).toEqual({ detail: 'Lottery not found', code: 'not_found' });
    const asPlayer = await to(t, api.getLottery, { params: { id }, as: player });
    expect(asPlayer.status).toBe(404);
    expect(asPlayer.text).not.toContain('Draft lottery');
    const asStaff = await to(t, api.getLottery, { params: { id }, as: staff });
    expect(asStaff.status).toBe(200);
    expect(asStaff.body).toMatchObject({ id, name: 'Draft lottery', published: false, purchasable: false });
  });

  test('unknown and malformed ids are 404, in the language asked for', async () => {
    const unknown = await to(t, api.getLottery, { params: { id: 987654 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Lottery not found', code: 'not_found' });
    const bn = await to(t, api.getLottery, { params: { id: 987654 }, lang: 'bn' });
    expect(bn.status).toBe(404);
    expect(bn.body).toEqual({ detail: 'লটারি পাওয়া যায়নি', code: 'not_found' });
    // Written out: the contract would encode these ids, and the point is the raw path the server is sent.
    for (const id of ['abc', '0', '-3', '1;DROP TABLE lotteries', '%27']) {
      const res = await request(t.url).get(`/api/v1/get-lottery/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  test('an ended or drawn lottery is still readable but not purchasable', async () => {
    const ended = await lottery({ name: 'Ended one', start: -10, end: -1 });
    const drawn = await lottery({ name: 'Drawn one', results: true });
    expect((await to(t, api.getLottery, { params: { id: ended } })).body).toMatchObject({ name: 'Ended one', purchasable: false });
    expect((await to(t, api.getLottery, { params: { id: drawn } })).body).toMatchObject({
      name: 'Drawn one',
      is_result_published: true,
      purchasable: false,
    });
  });
});

describe('GET /api/v1/lottery-results/', () => {
  test('only published results, newest draw first, shaped {lottery:{name,start_date}, prizes:[{ticket}]}', async () => {
    const older = await lottery({ name: 'Older draw', start: -20, end: -10, results: true, drawn: -9 });
    const newer = await lottery({ name: 'Newer draw', start: -10, end: -3, results: true, drawn: -2 });
    const notYet = await lottery({ name: 'Not yet published', start: -10, end: -1 });
    const hidden = await lottery({ name: 'Unpublished with results', start: -10, end: -1, published: false, results: true, drawn: -1 });
    const p1 = await prize(newer, '05-12-23-34-45-07', 50_000);
    const p2 = await prize(newer, '01-02-03-04-05-15', 50_000);
    await prize(older, '10-20-30-40-50-10', 100_000);
    await prize(notYet, '11-22-33-44-55-11', 100_000); // drawn but the result is not published yet
    await prize(hidden, '09-18-27-36-45-09', 100_000);

    const res = await to(t, api.lotteryResults);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toEqual({
      lottery: {
        id: newer,
        name: 'Newer draw',
        // Drawn by hand in the database: no beacon and no freeze to show (docs/rules/draws.md#12-where-it-stands).
        beacon_unverified: false,
        frozen: null,
        name_bn: '',
        start_date: expect.any(String),
        end_date: expect.any(String),
        total_prize: 100_000,
        kind: 'tickets',
        // When its results were first published: the home page's result card shows it (decision 057).
        drawn_at: expect.any(String),
      },
      prizes: [
        { id: p1, ticket: '05-12-23-34-45-07', prize_money: 50_000, tier: null, withheld_reason: null },
        { id: p2, ticket: '01-02-03-04-05-15', prize_money: 50_000, tier: null, withheld_reason: null },
      ],
      // A winning-tickets draw: no numbers, no rollover.
      numbers: null,
      rollover: null,
    });
    expect(Date.parse(res.body[0].lottery.start_date)).toBeLessThan(Date.now());
    expect(Math.abs(Date.parse(res.body[0].lottery.drawn_at) - (Date.now() - 2 * 24 * 3600 * 1000))).toBeLessThan(60_000);
    expect(res.body[1].lottery).toMatchObject({ id: older, name: 'Older draw' });
    expect(res.body[1].prizes.map((p: { ticket: string }) => p.ticket)).toEqual(['10-20-30-40-50-10']);
    expect(res.text).not.toContain('11-22-33-44-55-11');
    expect(res.text).not.toContain('09-18-27-36-45-09');
  });

  test('no results yet: an empty list; at most ten draws are returned', async () => {
    expect((await to(t, api.lotteryResults)).body).toEqual([]);
    for (let i = 1; i <= 11; i++) await lottery({ name: `Draw ${i}`, start: -30, end: -20 + i, results: true, drawn: -20 + i });
    const res = await to(t, api.lotteryResults);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.body[0].lottery.name).toBe('Draw 11');
    expect(res.body[0].prizes).toEqual([]);
    expect(res.body.map((r: { lottery: { name: string } }) => r.lottery.name)).not.toContain('Draw 1');
  });
});
