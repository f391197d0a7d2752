/**
 * Generated tickets, the staff's side (docs/rules/tickets.md#6-generated-tickets, #8-deleting-and-exporting-generated-tickets):
 * generate 1–100 tickets of a lottery whose sales are open, within its tickets left, with combinations not held there;
 * list, search and filter them; delete a non-activated one; audited; staff only. A combination a generated ticket
 * holds is out of sale. On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, insertLottery, purchase, rows, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  staff = await account(t, { name: 'Ticket Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'generated_tickets',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const generate = (p: Player | null, body: unknown, lang = 'en') => to(t, api.generateTickets, { as: p, lang }).send(body as object);
const list = (p: Player | null, query: Record<string, string | undefined> = {}) => to(t, api.generatedTickets, { query, as: p });
const remove = (p: Player | null, id: number | string) => to(t, api.deleteGeneratedTicket, { params: { id }, as: p });
const activate = (p: Player, ticket_number: string, secret_number: string) =>
  to(t, api.activateTicket, { as: p }).send({ ticket_number, secret_number });
const setStatus = (p: Player, id: number, status: string) => to(t, api.updateTransaction, { params: { id }, as: p }).send({ status });

const stored = () =>
  t.db.query<{ id: number; lottery_id: number; ticket_number: string; created_by: number }>(
    'SELECT id, lottery_id, ticket_number, created_by FROM generated_tickets ORDER BY id',
  );
const audit = () =>
  t.db.query<{ action: string; actor_id: number; entity: string; entity_id: string; before: unknown; after: unknown }>(
    "SELECT action, actor_id, entity, entity_id, before, after FROM audit_log WHERE action LIKE 'generated_ticket.%' ORDER BY id",
  );

const CANONICAL = /^(\d{2}-){5}\d{2}$/;

describe('generating', () => {
  test('staff generate tickets: canonical, distinct, 16-digit secrets, stored, audited without secrets', async () => {
    const lottery = await insertLottery(t, { name: 'Eid Bumper' });
    const res = await generate(staff, { lottery_id: lottery, quantity: 5 });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(5);
    const tickets = res.body as { id: number; ticket_number: string; secret_number: string }[];
    for (const g of res.body) {
      expect(g.ticket_number).toMatch(CANONICAL);
      expect(g.secret_number).toMatch(/^\d{16}$/);
      expect(g).toMatchObject({ is_activated: false, activated_by: null, activated_at: null, transaction_id: null, created_by: staff.id });
      expect(g.lottery).toMatchObject({ id: lottery, name: 'Eid Bumper', ticket_price: 100, total_prize: 100000 });
    }
    expect(new Set(tickets.map((g) => g.ticket_number)).size).toBe(5);
    expect(new Set(tickets.map((g) => g.secret_number)).size).toBe(5);
    expect((await stored()).map((r) => r.ticket_number).sort()).toEqual(tickets.map((g) => g.ticket_number).sort());
    // Sealed, never in clear: the rows (and so a dump of them) do not hold the secrets, only their sealed form and a
    // keyed lookup hash (docs/rules/tickets.md#6-generated-tickets).
    const rows = await t.db.query<{ ticket_number: string; secret_number: string | null; secret_sealed: string; secret_lookup: string }>(
      'SELECT ticket_number, secret_number, secret_sealed, secret_lookup FROM generated_tickets',
    );
    for (const r of rows) {
      const secret = tickets.find((g) => g.ticket_number === r.ticket_number)!.secret_number;
      expect(r.secret_number).toBeNull();
      expect(r.secret_sealed).toMatch(new RegExp(`^v1:${t.keys.kid}:`));
      expect(JSON.stringify(r)).not.toContain(secret);
      expect(t.keys.open('generated-secret', r.secret_sealed)).toBe(secret);
      expect(r.secret_lookup).toBe(t.keys.lookup('generated-secret', secret));
    }
    const log = await audit();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: 'generated_ticket.create', actor_id: staff.id, entity: 'lottery', entity_id: String(lottery) });
    expect(JSON.stringify(log[0])).not.toContain(tickets[0]!.secret_number);
    // The quantity defaults to 1 and may come as digits.
    expect((await generate(staff, { lottery_id: lottery })).body).toHaveLength(1);
    expect((await generate(staff, { lottery_id: String(lottery), quantity: '2' })).body).toHaveLength(2);
  });

  test('100 at once; 0, 101, abc, 1.5 and a missing lottery are refused and nothing is made', async () => {
    const lottery = await insertLottery(t);
    expect((await generate(staff, { lottery_id: lottery, quantity: 100 })).body).toHaveLength(100);
    await t.db.query('DELETE FROM generated_tickets');
    await t.db.query('DELETE FROM audit_log');
    for (const quantity of [0, 101, 'abc', 1.5, -1, '', null]) {
      const res = await generate(staff, { lottery_id: lottery, quantity });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ quantity: ['Quantity must be a whole number from 1 to 100.'] });
    }
    const bn = await generate(staff, { lottery_id: lottery, quantity: 0 }, 'bn');
    expect(bn.body.quantity[0]).toContain('১০০');
    const missing = await generate(staff, { lottery_id: 999999, quantity: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ lottery_id: ['Lottery not found'], code: 'lottery_not_found' });
    expect((await generate(staff, { quantity: 1 })).body.lottery_id).toBeDefined();
    expect((await generate(staff, { lottery_id: lottery, quantity: 1, secret: '1' })).body.secret).toBeDefined();
    expect(await stored()).toEqual([]);
    expect(await audit()).toEqual([]);
  });

  test('closed sales (end date passed, results published) refused; capacity respected', async () => {
    for (const closed of [await insertLottery(t, { start: -9, end: -1 }), await insertLottery(t, { results: true })]) {
      const res = await generate(staff, { lottery_id: closed, quantity: 1 });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'This lottery has ended, or the results have been published.', code: 'lottery_ended' });
    }
    const small = await insertLottery(t, { total_tickets: 3 });
    expect((await buy(t, a, purchase(small, '05-12-23-34-45-07'))).status).toBe(201);
    const tooMany = await generate(staff, { lottery_id: small, quantity: 3 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('sold_out');
    expect(tooMany.body.detail).toContain('2 can still be made');
    expect((await generate(staff, { lottery_id: small, quantity: 2 })).status).toBe(201);
    expect(await stored()).toHaveLength(2);
    // The lottery is now full: generated tickets count as held, for the lists and for purchases.
    const l = await to(t, api.getLottery, { params: { id: small }, as: a });
    expect(l.body).toMatchObject({ tickets_sold: 3, purchasable: false });
    const sold = await buy(t, a, purchase(small, '01-02-03-04-05-06'));
    expect(sold.status).toBe(409);
    expect(sold.body.code).toBe('sold_out');
    expect((await generate(staff, { lottery_id: small, quantity: 1 })).body.code).toBe('sold_out');
  });

  test('a generated combination is out of sale, and a failed sale of it cannot move back to pending', async () => {
    const lottery = await insertLottery(t, { total_tickets: 1000 });
    const failed = await buy(t, a, purchase(lottery, '05-12-23-34-45-07'));
    expect((await setStatus(staff, failed.body.id, 'failed')).status).toBe(200);
    // Only this combination is left free besides the others: hold it with a generated ticket directly.
    await t.db.query(
      `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number, created_by) VALUES ($1, '05-12-23-34-45-07', '1234567812345678', $2)`,
      [lottery, staff.id],
    );
    const res = await buy(t, a, purchase(lottery, '5-12-23-34-45-7'));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      ticket: ['These numbers have already been taken in this lottery. Please pick other numbers, or use Easy Pick.'],
      code: 'ticket_taken',
    });
    const back = await setStatus(staff, failed.body.id, 'pending');
    expect(back.status).toBe(409);
    expect(back.body.code).toBe('ticket_taken');
    expect((await rows(t)).map((r) => r.status)).toEqual(['failed']);
  });

  test('generation never picks a held combination', async () => {
    // A lottery of 16 tickets where 15 are held leaves room for one more; the combinations stay distinct.
    const lottery = await insertLottery(t, { total_tickets: 16 });
    const first = await generate(staff, { lottery_id: lottery, quantity: 15 });
    const second = await generate(staff, { lottery_id: lottery, quantity: 1 });
    expect(second.status).toBe(201);
    const all = [...first.body, ...second.body].map((g: { ticket_number: string }) => g.ticket_number);
    expect(new Set(all).size).toBe(16);
  });

  test('anonymous 401, a player 403, nothing made', async () => {
    const lottery = await insertLottery(t);
    expect((await generate(null, { lottery_id: lottery, quantity: 1 })).status).toBe(401);
    const player = await generate(a, { lottery_id: lottery, quantity: 1 });
    expect(player.status).toBe(403);
    expect(player.body.code).toBe('permission_denied');
    expect((await list(null)).status).toBe(401);
    expect((await list(a)).status).toBe(403);
    expect(await stored()).toEqual([]);
  });
});

describe('the list', () => {
  test('paged, newest first, X-Total-Count; search by ticket, secret, lottery name; filters', async () => {
    const eid = await insertLottery(t, { name: 'Eid 100%_Bumper', name_bn: 'ঈদ বাম্পার' });
    const puja = await insertLottery(t, { name: 'Puja Draw' });
    const e = (await generate(staff, { lottery_id: eid, quantity: 3 })).body as {
      id: number;
      ticket_number: string;
      secret_number: string;
    }[];
    const p = (await generate(staff, { lottery_id: puja, quantity: 2 })).body as {
      id: number;
      ticket_number: string;
      secret_number: string;
    }[];
    const all = await list(staff, { limit: '2' });
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBe('5');
    expect(all.body.map((g: { id: number }) => g.id)).toEqual([p[1]!.id, p[0]!.id]);
    const page3 = await list(staff, { limit: '2', offset: '4' });
    expect(page3.body.map((g: { id: number }) => g.id)).toEqual([e[0]!.id]);
    const ids = async (query: Record<string, string>) =>
      ((await list(staff, query)).body as { id: number }[]).map((g) => g.id).sort((x, y) => x - y);
    expect(await ids({ lottery_id: String(puja) })).toEqual(p.map((g) => g.id));
    expect(await ids({ search: 'puja' })).toEqual(p.map((g) => g.id));
    expect(await ids({ search: 'ঈদ' })).toEqual(e.map((g) => g.id));
    expect(await ids({ search: '100%_' })).toEqual(e.map((g) => g.id));
    expect(await ids({ search: '%' })).toEqual(e.map((g) => g.id));
    expect(await ids({ search: 'Draw_' })).toEqual([]);
    expect(await ids({ search: e[1]!.ticket_number })).toContain(e[1]!.id);
    const spaced = e[2]!.secret_number.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(await ids({ search: spaced })).toEqual([e[2]!.id]);
    expect(await ids({ search: e[2]!.secret_number })).toEqual([e[2]!.id]);
    // Activation filter.
    expect((await activate(a, e[0]!.ticket_number, e[0]!.secret_number)).status).toBe(200);
    expect(await ids({ activation: 'activated' })).toEqual([e[0]!.id]);
    expect(await ids({ activation: 'not_activated' })).toEqual([e[1]!.id, e[2]!.id, ...p.map((g) => g.id)]);
    expect((await ids({ activation: 'all' })).length).toBe(5);
    const activated = (await list(staff, { activation: 'activated' })).body[0];
    expect(activated).toMatchObject({
      is_activated: true,
      activated_by: { id: a.id, name: 'Rahim Uddin', phone: a.phone },
      transaction_id: expect.any(Number),
    });
    expect(activated.activated_at).toEqual(expect.any(String));
    for (const bad of [
      { activation: 'yes' },
      { limit: '0' },
      { limit: '101' },
      { lottery_id: 'abc' },
      { search: '\u0001' },
      { other: '1' },
    ] as const)
      expect((await list(staff, bad)).status).toBe(400);
  });
});

describe('deleting', () => {
  test('a non-activated ticket is deleted and audited; its combination is for sale again', async () => {
    const lottery = await insertLottery(t);
    const [g] = (await generate(staff, { lottery_id: lottery, quantity: 1 })).body as { id: number; ticket_number: string }[];
    expect((await buy(t, a, purchase(lottery, g!.ticket_number))).status).toBe(409);
    const res = await remove(staff, g!.id);
    expect(res.status).toBe(204);
    expect(await stored()).toEqual([]);
    const log = await audit();
    expect(log.map((r) => r.action)).toEqual(['generated_ticket.create', 'generated_ticket.delete']);
    expect(log[1]).toMatchObject({ actor_id: staff.id, entity: 'generated_ticket', entity_id: String(g!.id), after: null });
    expect(log[1]!.before).toMatchObject({ lottery_id: lottery, ticket_number: g!.ticket_number });
    expect((await buy(t, a, purchase(lottery, g!.ticket_number))).status).toBe(201);
    const gone = await remove(staff, g!.id);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
    expect((await remove(staff, 'abc')).status).toBe(404);
  });

  test('an activated ticket is a sale: 409, nothing changes; anonymous 401, player 403', async () => {
    const lottery = await insertLottery(t);
    const [g] = (await generate(staff, { lottery_id: lottery, quantity: 1 })).body as {
      id: number;
      ticket_number: string;
      secret_number: string;
    }[];
    expect((await remove(null, g!.id)).status).toBe(401);
    expect((await remove(a, g!.id)).status).toBe(403);
    expect((await activate(a, g!.ticket_number, g!.secret_number)).status).toBe(200);
    const res = await remove(staff, g!.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'This ticket has been activated: it is a sale and cannot be deleted.', code: 'ticket_activated' });
    expect(await stored()).toHaveLength(1);
    expect((await audit()).map((r) => r.action)).toEqual(['generated_ticket.create']);
  });
});
