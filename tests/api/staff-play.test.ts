/**
 * Staff do not play (docs/rules/accounts-and-codes.md#12-staff-and-superusers): staff and superusers are refused a
 * purchase, a TrxID, a bKash checkout and an activation with 403 `staff_cannot_play`, rights read from the database
 * now; a superuser lists the tickets staff accounts hold (GET /api/v1/staff-held-tickets/). On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { buy, generateAndActivate, insertLottery, purchase, roles, trxId, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let player: Player, staff: Player, superuser: Player;

beforeAll(async () => {
  t = await startTestApp();
  ({ player, staff, superuser } = await roles(t, { player: 'Rahim Uddin', staff: 'Desk Officer', superuser: 'Chief' }));
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => t.db.query('DELETE FROM rate_limits'));

const count = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM transactions'))?.n;

test('staff and superusers cannot buy: 403 staff_cannot_play in the caller’s language, nothing written', async () => {
  const lottery = await insertLottery(t);
  const before = await count();
  for (const who of [staff, superuser]) {
    const res = await buy(t, who, purchase(lottery, '01-02-03-04-05-06', { trx_id: trxId() }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: "Staff accounts cannot buy or activate tickets: Bhagya's staff may not play Bhagya's lotteries.",
      code: 'staff_cannot_play',
    });
    const bn = await to(t, api.createTransaction, { as: who, lang: 'bn' }).send(purchase(lottery, '01-02-03-04-05-06'));
    expect(bn.body.detail).toBe('কর্মীদের অ্যাকাউন্ট দিয়ে টিকিট কেনা বা সক্রিয় করা যায় না। ভাগ্য-এর কর্মীরা ভাগ্য-এর লটারি খেলতে পারেন না।');
  }
  expect(await count()).toBe(before);
  // The player buys the same combination.
  expect((await buy(t, player, purchase(lottery, '01-02-03-04-05-06'))).status).toBe(201);
});

test('a TrxID, a checkout and an activation of a staff account’s own are refused; rights read now, not from the token', async () => {
  const lottery = await insertLottery(t);
  const res = await buy(t, player, purchase(lottery, '02-03-04-05-06-07'));
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  // The player is made staff after he bought: his token still says player.
  await t.db.query('UPDATE users SET is_staff = true WHERE id = $1', [player.id]);
  try {
    const trx = await to(t, api.setTrxId, { params: { id }, as: player }).send({ trx_id: 'STAFFTRX01' });
    const checkout = await to(t, api.startCheckout, { params: { id }, as: player });
    const { ticket: g, activated } = await generateAndActivate(t, staff, player, lottery);
    for (const r of [trx, checkout, activated]) expect([r.status, r.body.code]).toEqual([403, 'staff_cannot_play']);
    expect(await t.db.one('SELECT trx_id, status FROM transactions WHERE id = $1', [id])).toEqual({ trx_id: null, status: 'pending' });
    expect(await t.db.one('SELECT activated_at FROM generated_tickets WHERE ticket_number = $1', [g.ticket_number])).toEqual({
      activated_at: null,
    });
  } finally {
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [player.id]);
  }
});

test('the tickets staff accounts hold: a superuser’s list with each lottery and status; staff 403, a player 403, anonymous 401', async () => {
  const lottery = await insertLottery(t, { name: 'Held Draw', name_bn: 'ধরা ড্র' });
  const res = await buy(t, player, purchase(lottery, '03-04-05-06-07-08'));
  const id = res.body.id as number;
  // Bought before the rule: moved to a staff account as such tickets are.
  await t.db.query('UPDATE transactions SET user_id = $1 WHERE id = $2', [staff.id, id]);
  const list = (p: Player | null) => to(t, api.staffHeldTickets, { as: p, lang: 'en' });
  const ok = await list(superuser);
  expect(ok.status).toBe(200);
  expect(ok.body.find((x: { id: number }) => x.id === id)).toEqual({
    id,
    ticket: '03-04-05-06-07-08',
    status: 'pending',
    trx_id: null,
    transaction_type: 'payment',
    amount: 100,
    created_at: expect.any(String),
    holder: { id: staff.id, name: 'Desk Officer', is_superuser: false },
    lottery: { id: lottery, name: 'Held Draw', name_bn: 'ধরা ড্র', is_result_published: false },
  });
  expect(Number(ok.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
  // A player's ticket is not listed.
  const mine = await buy(t, player, purchase(lottery, '04-05-06-07-08-09'));
  expect((await list(superuser)).body.map((x: { id: number }) => x.id)).not.toContain(mine.body.id);
  const denied = await list(staff);
  expect(denied.status).toBe(403);
  expect(denied.body).toEqual({ detail: 'Only superusers can see the tickets staff accounts hold.', code: 'permission_denied' });
  expect((await list(player)).status).toBe(403);
  expect((await list(null)).status).toBe(401);
  expect((await to(t, api.staffHeldTickets, { query: { limit: 0 }, as: superuser })).status).toBe(400);
});
