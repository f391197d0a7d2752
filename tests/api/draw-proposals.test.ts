/**
 * Winners by hand need two staff members (docs/rules/lotteries-and-sales.md#9-the-draw): POST /api/v1/draw-lottery/
 * proposes them with a reason, GET /api/v1/lotteries/{id}/draw-proposals/ lists the proposals, POST
 * /api/v1/draw-proposals/{id}/approve/ by another staff member finishes the draw, …/reject/ drops the proposal. Nobody
 * approves his own proposal, not even a superuser; nothing is paid before the approval; such a draw says it cannot be
 * checked. The checks of the tickets themselves: tests/api/draws.test.ts. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, buy, insertLottery, purchase, type Player, trxId, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, staff: Player, checker: Player, boss: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  staff = await account(t, { name: 'Draw Officer', is_staff: true });
  checker = await account(t, { name: 'Second Officer', is_staff: true });
  boss = await account(t, { name: 'Head Office', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [boss.id]);
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of ['audit_log', 'prize_claims', 'prizes', 'draw_proposals', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const REASON = 'Published before the verifiable draw existed';

const as = (p: Player | null, method: 'get' | 'post', url: string, lng = 'en') => {
  const r = request(t.url)[method](url).set('Accept-Language', lng);
  return p ? r.set(...p.auth) : r;
};
const propose = (p: Player | null, body: object, lng = 'en') => as(p, 'post', '/api/v1/draw-lottery/', lng).send(body);
const approve = (p: Player | null, id: number | string, lng = 'en') => as(p, 'post', `/api/v1/draw-proposals/${id}/approve/`, lng);
const reject = (p: Player | null, id: number | string, lng = 'en') => as(p, 'post', `/api/v1/draw-proposals/${id}/reject/`, lng);
const list = (p: Player | null, lottery: number | string) => as(p, 'get', `/api/v1/lotteries/${lottery}/draw-proposals/`);

async function sold(lottery: number, ticket: string): Promise<number> {
  const res = await buy(t, a, purchase(lottery, ticket, { trx_id: trxId() }));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status}`);
  expect((await approveByHand(t, res.body.id as number)).status).toBe(200);
  return res.body.id as number;
}

const paid = async (lottery: number) => ({
  prizes: await t.db.query('SELECT ticket FROM prizes WHERE lottery_id = $1', [lottery]),
  published: (await t.db.one<{ p: boolean }>('SELECT is_result_published AS p FROM lotteries WHERE id = $1', [lottery]))?.p,
});
const actions = async () =>
  (
    await t.db.query<{ action: string; actor_id: number }>("SELECT action, actor_id FROM audit_log WHERE entity = 'lottery' ORDER BY id")
  ).map((r) => [r.action, r.actor_id]);

test('a proposal pays nothing; a second staff member approves it and the draw is finished, labelled unverifiable', async () => {
  const lottery = await insertLottery(t, { name: 'Hand Drawn' });
  await sold(lottery, T1);
  await sold(lottery, T2);
  const p = await propose(staff, { lottery_id: lottery, tickets: [T2, T1], reason: `  ${REASON}  ` });
  expect(p.status).toBe(202);
  expect(p.body).toMatchObject({
    lottery_id: lottery,
    tickets: [T2, T1],
    reason: REASON,
    status: 'pending',
    proposed_by: { id: staff.id, name: 'Draw Officer' },
    decided_by: null,
    decided_at: null,
  });
  expect(await paid(lottery)).toEqual({ prizes: [], published: false });
  const listed = await list(checker, lottery);
  expect(listed.status).toBe(200);
  expect(listed.body).toEqual([p.body]);

  const done = await approve(checker, p.body.id);
  expect(done.status).toBe(201);
  expect(done.body.prizes.map((x: { ticket: string }) => x.ticket)).toEqual([T2, T1]);
  expect((await paid(lottery)).published).toBe(true);
  const after = (await list(staff, lottery)).body[0];
  expect(after).toMatchObject({ status: 'approved', decided_by: { id: checker.id, name: 'Second Officer' } });
  expect(Date.parse(after.decided_at)).toBeGreaterThan(Date.now() - 60_000);
  expect(await actions()).toEqual([
    ['lottery.draw_proposed', staff.id],
    ['lottery.draw', checker.id],
  ]);
  // Its proof says it cannot be checked.
  const proof = await request(t.url).get(`/api/v1/lotteries/${lottery}/draw-proof/`).expect(200);
  expect(proof.body.algorithm).toBe('unverifiable');
});

test('nobody approves his own proposal, not even a superuser; the answer is in the caller language', async () => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  const p = await propose(boss, { lottery_id: lottery, tickets: [T1], reason: REASON });
  expect(p.status).toBe(202);
  const own = await approve(boss, p.body.id);
  expect(own.status).toBe(403);
  expect(own.body).toEqual({
    detail: 'You proposed these winners: a second staff member must approve them.',
    code: 'second_staff_required',
  });
  const bn = await approve(boss, p.body.id, 'bn');
  expect(bn.status).toBe(403);
  expect(bn.body.detail).toContain('দ্বিতীয়');
  expect(await paid(lottery)).toEqual({ prizes: [], published: false });
  expect((await list(boss, lottery)).body[0].status).toBe('pending');
});

test('one pending proposal per lottery; a rejected one can be followed by another', async () => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  await sold(lottery, T2);
  const first = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
  const second = await propose(checker, { lottery_id: lottery, tickets: [T2], reason: REASON });
  expect(second.status).toBe(409);
  expect(second.body.code).toBe('proposal_pending');
  const no = await reject(checker, first.body.id);
  expect(no.status).toBe(200);
  expect(no.body).toMatchObject({ status: 'rejected', decided_by: { id: checker.id } });
  // A decided proposal is decided for good.
  for (const res of [await approve(boss, first.body.id), await reject(boss, first.body.id)]) {
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'This proposal is no longer waiting: it was rejected.', code: 'proposal_decided' });
  }
  const again = await propose(checker, { lottery_id: lottery, tickets: [T2], reason: REASON });
  expect(again.status).toBe(202);
  // Its author withdraws it the same way.
  expect((await reject(checker, again.body.id)).body.status).toBe('rejected');
  expect(await paid(lottery)).toEqual({ prizes: [], published: false });
  expect(await actions()).toEqual([
    ['lottery.draw_proposed', staff.id],
    ['lottery.draw_rejected', checker.id],
    ['lottery.draw_proposed', checker.id],
    ['lottery.draw_rejected', checker.id],
  ]);
});

test('the tickets are checked again at approval: a ticket rejected meanwhile stops it, the proposal stays to be rejected', async () => {
  const lottery = await insertLottery(t);
  const id = await sold(lottery, T1);
  const p = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
  await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [id]);
  const res = await approve(checker, p.body.id);
  expect(res.status).toBe(400);
  expect(res.body.tickets).toEqual([`The ticket ${T1} was not sold (approved) in this lottery.`]);
  expect(await paid(lottery)).toEqual({ prizes: [], published: false });
  expect((await list(staff, lottery)).body[0].status).toBe('pending');
});

test('a lottery drawn meanwhile (by the procedure, or results published) cannot be approved into a second draw', async () => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  const p = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
  await t.db.query('UPDATE lotteries SET is_result_published = true WHERE id = $1', [lottery]);
  const res = await approve(checker, p.body.id);
  expect(res.status).toBe(409);
  expect(res.body.code).toBe('already_drawn');
  expect((await paid(lottery)).prizes).toEqual([]);
});

test.each([
  ['no reason', { tickets: [T1] }],
  ['an empty reason', { tickets: [T1], reason: '   ' }],
  ['a reason too long', { tickets: [T1], reason: 'x'.repeat(501) }],
  ['a reason that is not text', { tickets: [T1], reason: 42 }],
  ['a reason with control characters', { tickets: [T1], reason: 'by\u0000hand' }],
])('400 for %s; nothing proposed', async (_name, body) => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  const res = await propose(staff, { lottery_id: lottery, ...body });
  expect(res.status).toBe(400);
  expect(Object.keys(res.body)).toEqual(['reason']);
  expect(await t.db.query('SELECT id FROM draw_proposals')).toEqual([]);
});

test('who may: anonymous 401, a player 403 on every endpoint; unknown proposals and lotteries 404', async () => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  const p = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
  for (const [who, status] of [
    [null, 401],
    [a, 403],
  ] as const) {
    for (const res of [
      await propose(who, { lottery_id: lottery, tickets: [T1], reason: REASON }),
      await approve(who, p.body.id),
      await reject(who, p.body.id),
      await list(who, lottery),
    ])
      expect(res.status).toBe(status);
  }
  for (const res of [await approve(checker, 987654), await reject(checker, 987654)]) {
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'This proposal does not exist.', code: 'not_found' });
  }
  for (const res of [await approve(checker, 'x'), await reject(checker, '0'), await list(checker, 'abc')]) expect(res.status).toBe(404);
  expect((await list(checker, 987654)).status).toBe(404);
  expect((await list(checker, lottery)).body[0].status).toBe('pending');
  expect(await paid(lottery)).toEqual({ prizes: [], published: false });
});
