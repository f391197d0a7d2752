/**
 * Staff manage lotteries (docs/rules/lotteries-and-sales.md#1-lottery-fields): GET/POST /api/v1/lotteries/,
 * GET/PATCH /api/v1/lotteries/{id}/. Staff only; each change audited; a drawn lottery keeps its money. On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, drawByHand, insertLottery, purchase, type Player, trxId, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let player: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Rahim Uddin' });
  staff = await account(t, { name: 'Lottery Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of ['audit_log', 'prize_payouts', 'prize_claims', 'prizes', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const create = (p: Player | null, body: unknown, lang = 'en') => to(t, api.createLottery, { as: p, lang }).send(body as object);
const patch = (p: Player | null, id: number | string, body: unknown) =>
  to(t, api.updateLottery, { params: { id }, as: p }).send(body as object);
/** The staff list with this query, or one lottery as staff see it. */
const list = (p: Player | null, query: Record<string, string | undefined> = {}) => to(t, api.staffLotteries, { query, as: p });
const one = (p: Player | null, id: number) => to(t, api.staffLottery, { params: { id }, as: p });
const audit = () =>
  t.db.query<{ action: string; actor_id: number; entity_id: string; before: unknown; after: Record<string, unknown> }>(
    "SELECT action, actor_id, entity_id, before, after FROM audit_log WHERE entity = 'lottery' ORDER BY id",
  );
const count = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM lotteries'))?.n;

const valid = {
  name: 'Padma Weekly',
  name_bn: 'পদ্মা সাপ্তাহিক',
  description: 'A steady weekly draw.',
  winners: 2,
  ticket_price: 100,
  total_prize: 50000,
  start_date: '2026-12-01',
  end_date: '2026-12-05',
};

describe('who may', () => {
  test('anonymous 401 and a player 403 on every endpoint; nothing changes', async () => {
    const id = await insertLottery(t);
    for (const p of [null, player]) {
      const status = p ? 403 : 401;
      expect((await list(p)).status).toBe(status);
      expect((await one(p, id)).status).toBe(status);
      expect((await create(p, valid)).status).toBe(status);
      expect((await patch(p, id, { featured: true })).status).toBe(status);
    }
    expect(await count()).toBe(1);
    expect(await audit()).toEqual([]);
  });

  test('staff who lost the right are refused at once', async () => {
    const former = await account(t, { is_staff: true });
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [former.id]);
    expect((await create(former, valid)).status).toBe(403);
    expect(await count()).toBe(0);
  });
});

describe('POST /api/v1/lotteries/', () => {
  test('creates a lottery: a start date is Dhaka midnight, an end date the 8 PM draw; defaults; audited', async () => {
    const res = await create(staff, valid);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Padma Weekly',
      name_bn: 'পদ্মা সাপ্তাহিক',
      description_bn: '',
      winners: 2,
      ticket_price: 100,
      total_prize: 50000,
      total_tickets: 10000,
      published: false,
      featured: false,
      is_result_published: false,
      tickets_sold: 0,
      prizes: 0,
      drawn_at: null,
      purchasable: false,
      start_date: '2026-11-30T18:00:00.000Z',
      end_date: '2026-12-05T14:00:00.000Z',
    });
    expect(await audit()).toEqual([
      expect.objectContaining({ action: 'lottery.create', actor_id: staff.id, entity_id: String(res.body.id), before: null }),
    ]);
    // Unpublished: staff see it, players do not.
    expect((await one(staff, res.body.id)).status).toBe(200);
    const hidden = await to(t, api.getLottery, { params: { id: res.body.id }, as: player });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: 'Lottery not found', code: 'not_found' });
  });

  test('ISO instants with an offset, checkbox and JSON flags, amounts as text', async () => {
    const res = await create(staff, {
      ...valid,
      start_date: '2026-12-01T10:00:00+06:00',
      end_date: '2026-12-08T20:00:00Z',
      published: 'on',
      featured: true,
      ticket_price: '150',
      winners: '3',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      start_date: '2026-12-01T04:00:00.000Z',
      end_date: '2026-12-08T20:00:00.000Z',
      published: true,
      featured: true,
      ticket_price: 150,
      winners: 3,
    });
  });

  test.each([
    ['no name', { name: '  ' }, 'name', 'This field is required'],
    ['no winners', { winners: undefined }, 'winners', 'This field is required.'],
    ['0 winners', { winners: 0 }, 'winners', 'Enter a whole number from 1 to 1000.'],
    ['fractional winners', { winners: '1.5' }, 'winners', 'Enter a whole number from 1 to 1000.'],
    ['price 0', { ticket_price: 0 }, 'ticket_price', 'Enter the amount in whole taka.'],
    ['prize not a number', { total_prize: 'lots' }, 'total_prize', 'Enter the amount in whole taka.'],
    ['no start date', { start_date: '' }, 'start_date', 'This field is required'],
    ['a date that is not one', { start_date: '2026-13-45' }, 'start_date', expect.stringContaining('Enter a date')],
    ['a time without its zone', { end_date: '2026-12-05T20:00' }, 'end_date', expect.stringContaining('Enter a date')],
    [
      'the end before the start',
      { start_date: '2026-12-05', end_date: '2026-12-01' },
      'end_date',
      'The end date must be after the start date.',
    ],
    ['more winners than tickets', { winners: 5, total_tickets: 3 }, 'winners', 'There cannot be more winners than tickets on sale.'],
    ['control characters', { name: 'Draw\u0000' }, 'name', expect.any(String)],
    ['an unknown field', { is_result_published: true }, 'is_result_published', expect.any(String)],
  ])('400 for %s; nothing stored', async (_name, change, field, message) => {
    const res = await create(staff, { ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.body[field]).toEqual([message]);
    expect(await count()).toBe(0);
    expect(await audit()).toEqual([]);
  });

  test('Bengali messages for a Bengali caller', async () => {
    const res = await create(staff, { ...valid, start_date: '2026-12-05', end_date: '2026-12-01' }, 'bn');
    expect(res.body.end_date).toEqual(['শেষের তারিখ শুরুর তারিখের পরে হতে হবে।']);
  });
});

describe('GET /api/v1/lotteries/', () => {
  test('newest first, searched in either language, filtered, paged', async () => {
    const a = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    const b = await insertLottery(t, { name: 'Meghna 50%_off', published: false });
    const c = await insertLottery(t, { name: 'Jamuna Draw', results: true });
    await t.db.query('UPDATE lotteries SET featured = true WHERE id = $1', [a]);
    const ids = async (q: Record<string, string | undefined>) => {
      const res = await list(staff, q);
      expect(res.status).toBe(200);
      return res.body.map((l: { id: number }) => l.id);
    };
    expect(await ids({})).toEqual([c, b, a]);
    expect(await ids({ search: 'PADMA' })).toEqual([a]);
    expect(await ids({ search: 'সাপ্তাহিক' })).toEqual([a]);
    expect(await ids({ search: '50%_' })).toEqual([b]);
    expect(await ids({ search: '5%' })).toEqual([]);
    expect(await ids({ filter: 'active' })).toEqual([c, a]);
    expect(await ids({ filter: 'inactive' })).toEqual([b]);
    expect(await ids({ filter: 'featured' })).toEqual([a]);
    expect(await ids({ filter: 'result_published' })).toEqual([c]);
    expect(await ids({ filter: 'result_not_published' })).toEqual([b, a]);
    const page = await list(staff, { limit: '2', offset: '2' });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body.map((l: { id: number }) => l.id)).toEqual([a]);
    for (const q of [{ filter: 'open' }, { limit: '0' }, { limit: '101' }, { offset: '-1' }, { sort: 'name' }])
      expect((await list(staff, q)).status).toBe(400);
  });
});

describe('PATCH /api/v1/lotteries/{id}/', () => {
  test('changes what is sent, audits the difference, and a repeat changes nothing', async () => {
    const id = (await create(staff, valid)).body.id as number;
    await t.db.query('DELETE FROM audit_log');
    const res = await patch(staff, id, { published: true, featured: 'on', name_bn: 'পদ্মা', end_date: '2026-12-12' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      published: true,
      featured: true,
      name_bn: 'পদ্মা',
      name: 'Padma Weekly',
      end_date: '2026-12-12T14:00:00.000Z',
    });
    expect(await audit()).toEqual([
      expect.objectContaining({
        action: 'lottery.update',
        before: { published: false, featured: false, name_bn: 'পদ্মা সাপ্তাহিক', end_date: '2026-12-05T14:00:00.000Z' },
        after: { published: true, featured: true, name_bn: 'পদ্মা', end_date: '2026-12-12T14:00:00.000Z' },
      }),
    ]);
    expect((await patch(staff, id, { published: true })).status).toBe(200);
    expect(await audit()).toHaveLength(1);
  });

  test('the checks across fields apply to the lottery as it will be', async () => {
    const id = (await create(staff, valid)).body.id as number;
    const res = await patch(staff, id, { end_date: '2026-11-30' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ end_date: ['The end date must be after the start date.'], code: 'lottery_end_before_start' });
    const winners = await patch(staff, id, { total_tickets: 1 });
    expect(winners.body).toEqual({ winners: ['There cannot be more winners than tickets on sale.'], code: 'lottery_winners_over_tickets' });
    // Both at once: one answer, each under its field, the first one's code.
    const both = await patch(staff, id, { end_date: '2026-11-30', total_tickets: 1 });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({
      end_date: ['The end date must be after the start date.'],
      winners: ['There cannot be more winners than tickets on sale.'],
      code: 'lottery_end_before_start',
    });
    expect((await one(staff, id)).body.end_date).toBe('2026-12-05T14:00:00.000Z');
  });

  test('tickets on sale never fewer than those sold; a drawn lottery keeps its total prize and winners', async () => {
    const id = await insertLottery(t);
    const sale = await buy(t, player, purchase(id, '05-12-23-34-45-07', { trx_id: trxId() }));
    await buy(t, player, purchase(id, '01-02-03-04-05-06'));
    const fewer = await patch(staff, id, { total_tickets: 1 });
    expect(fewer.status).toBe(400);
    expect(fewer.body).toEqual({
      winners: ['There cannot be more winners than tickets on sale.'],
      total_tickets: ['2 tickets are already sold or held: the tickets on sale cannot be fewer.'],
      code: 'lottery_winners_over_tickets',
    });
    expect((await patch(staff, id, { total_tickets: 2 })).status).toBe(200);
    expect((await approveByHand(t, sale.body.id)).status).toBe(200);
    expect((await drawByHand(t, id, ['05-12-23-34-45-07'])).status).toBe(201);
    for (const change of [{ total_prize: 1 }, { winners: 1 }]) {
      const res = await patch(staff, id, change);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('already_drawn');
    }
    expect((await patch(staff, id, { winners: 3, total_tickets: 5, featured: true })).status).toBe(200);
  });

  test('results published without a draw: no winner, the jackpot rolls over; sales close', async () => {
    const id = await insertLottery(t, { name: 'No Winner Draw' });
    const res = await patch(staff, id, { is_result_published: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_result_published: true, purchasable: false, drawn_at: expect.any(String) });
    const results = await to(t, api.lotteryResults);
    expect(results.body.find((r: { lottery: { id: number } }) => r.lottery.id === id).prizes).toEqual([]);
  });

  test('unknown lottery 404; a bad body 400 and nothing changes', async () => {
    const unknown = await patch(staff, 987654, { featured: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await patch(staff, 'abc', { featured: true })).status).toBe(404);
    const none = await one(staff, 987654);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'Lottery not found', code: 'not_found' });
    const id = await insertLottery(t);
    for (const body of [{ winners: 0 }, { published: 'maybe' }, { tickets_sold: 5 }, { name: '' }]) {
      const res = await patch(staff, id, body);
      expect(res.status).toBe(400);
    }
    expect(await audit()).toEqual([]);
  });
});
