/**
 * Winners by hand need two staff members (docs/rules/lotteries-and-sales.md#9-the-draw): POST /api/v1/draw-lottery/
 * proposes them with a reason, GET /api/v1/lotteries/{id}/draw-proposals/ lists the proposals, POST
 * /api/v1/draw-proposals/{id}/approve/ by another staff member finishes the draw, …/reject/ drops the proposal. Nobody
 * approves his own proposal, not even a superuser; nothing is paid before the approval; such a draw says it cannot be
 * checked. The checks of the tickets themselves: tests/api/draws.test.ts. On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, closeSales, insertLottery, purchase, type Player, trxId, approveByHand } from './purchase-fixtures.ts';

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
  for (const table of [
    'audit_log',
    'player_messages',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'draw_proposals',
    'generated_tickets',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const REASON = 'Published before the verifiable draw existed';

const propose = (p: Player | null, body: object, lng = 'en') => to(t, api.drawLottery, { as: p, lang: lng }).send(body);
const approve = (p: Player | null, id: number | string, lng = 'en') =>
  to(t, api.approveDrawProposal, { params: { proposalId: id }, as: p, lang: lng });
const reject = (p: Player | null, id: number | string, lng = 'en') =>
  to(t, api.rejectDrawProposal, { params: { proposalId: id }, as: p, lang: lng });
const list = (p: Player | null, lottery: number | string) => to(t, api.drawProposals, { params: { id: lottery }, as: p });

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
  await closeSales(t, lottery);
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
  // The tickets frozen by the proposal (no job had frozen them), then the two staff members.
  expect(await actions()).toEqual([
    ['lottery.freeze', null],
    ['lottery.draw_proposed', staff.id],
    ['lottery.draw', checker.id],
  ]);
  // Its proof says it cannot be checked.
  const proof = await to(t, api.drawProof, { params: { id: lottery } }).expect(200);
  expect(proof.body.algorithm).toBe('unverifiable');
});

test('nobody approves his own proposal, not even a superuser; the answer is in the caller language', async () => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  await closeSales(t, lottery);
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
  await closeSales(t, lottery);
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
    ['lottery.freeze', null],
    ['lottery.draw_proposed', staff.id],
    ['lottery.draw_rejected', checker.id],
    ['lottery.draw_proposed', checker.id],
    ['lottery.draw_rejected', checker.id],
  ]);
});

test('the tickets are checked again at approval: a set changed since the freeze stops it, the proposal stays to be rejected', async () => {
  const lottery = await insertLottery(t);
  const id = await sold(lottery, T1);
  await closeSales(t, lottery);
  const p = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
  // No status changes after the close: written past every rule, straight in the database, the draw must notice.
  await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [id]);
  const res = await approve(checker, p.body.id);
  expect(res.status).toBe(409);
  expect(res.body.code).toBe('frozen_differs');
  expect(await paid(lottery)).toEqual({ prizes: [], published: false });
  expect((await list(staff, lottery)).body[0].status).toBe('pending');
});

test('a lottery drawn meanwhile (by the procedure, or results published) cannot be approved into a second draw', async () => {
  const lottery = await insertLottery(t);
  await sold(lottery, T1);
  await closeSales(t, lottery);
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
  await closeSales(t, lottery);
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

/** A pending proposal as an older server stored it: made while sales were open, or naming its author's own ticket. */
const storedProposal = async (lottery: number, tickets: string[], by: Player) =>
  (await t.db.one<{ id: number }>(
    'INSERT INTO draw_proposals (lottery_id, tickets, reason, proposed_by) VALUES ($1, $2, $3, $4) RETURNING id',
    [lottery, tickets.join('\n'), REASON, by.id],
  ))!.id;

/** A paid ticket of `who`, straight in the database: a staff account's from before staff were refused play (decision 047). */
const heldBy = async (who: Player, lottery: number, ticket: string, type = 'payment') =>
  (await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, transaction_type, status)
     VALUES ($1, $2, $3, 100, 'bkash', $4, 'success') RETURNING id`,
    [who.id, lottery, ticket, type],
  ))!.id;

const statusOf = (proposal: number) => t.db.one<{ status: string }>('SELECT status FROM draw_proposals WHERE id = $1', [proposal]);
const frozen = async (lottery: number) => (await t.db.query('SELECT 1 AS x FROM ticket_freezes WHERE lottery_id = $1', [lottery])).length;

describe('only after the close, from the frozen tickets', () => {
  test('while sales are open a proposal is refused (409 sales_open, in both languages): nothing stored, nothing frozen', async () => {
    const lottery = await insertLottery(t);
    await sold(lottery, T1);
    const en = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
    expect(en.status).toBe(409);
    expect(en.body).toEqual({ detail: 'Sales are still open: the draw comes after the end of sales.', code: 'sales_open' });
    const bn = await propose(boss, { lottery_id: lottery, tickets: [T1], reason: REASON }, 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body).toEqual({ detail: 'বিক্রি এখনো চলছে: বিক্রি শেষ হওয়ার পরে ড্র হয়।', code: 'sales_open' });
    expect(await t.db.query('SELECT id FROM draw_proposals')).toEqual([]);
    expect(await frozen(lottery)).toBe(0);
    expect(await actions()).toEqual([]);
  });

  test('a proposal stored while sales were open is not approved before the close (it stays pending); after it, it is', async () => {
    const lottery = await insertLottery(t);
    await sold(lottery, T1);
    const id = await storedProposal(lottery, [T1], staff);
    for (const lng of ['en', 'bn']) {
      const res = await approve(checker, id, lng);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('sales_open');
    }
    expect(await statusOf(id)).toEqual({ status: 'pending' });
    expect(await paid(lottery)).toEqual({ prizes: [], published: false });
    expect(await frozen(lottery)).toBe(0);
    await closeSales(t, lottery);
    expect((await approve(checker, id)).status).toBe(201);
    expect(await frozen(lottery)).toBe(1);
    expect((await paid(lottery)).prizes).toEqual([{ ticket: T1 }]);
  });

  test('the proposal freezes the tickets when no job did: a ticket still pending at the close is rejected, never chosen', async () => {
    const lottery = await insertLottery(t);
    await sold(lottery, T1);
    const late = await buy(t, a, purchase(lottery, T2, { trx_id: trxId() }));
    expect(late.status).toBe(201);
    await closeSales(t, lottery);
    // Refused (T2 is not a paid ticket): nothing is kept, not even the freeze.
    const refused = await propose(staff, { lottery_id: lottery, tickets: [T1, T2], reason: REASON });
    expect(refused.status).toBe(400);
    expect(await frozen(lottery)).toBe(0);
    expect((await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON })).status).toBe(202);
    expect(await t.db.one('SELECT tickets_count, rejected FROM ticket_freezes WHERE lottery_id = $1', [lottery])).toEqual({
      tickets_count: 1,
      rejected: 1,
    });
    expect(await t.db.one('SELECT status FROM transactions WHERE id = $1', [late.body.id])).toEqual({ status: 'failed' });
  });
});

describe('never a ticket of his own', () => {
  test('proposing a ticket he holds: 403 own_ticket naming it, in both languages, nothing stored; another may propose it, he may not approve it', async () => {
    const lottery = await insertLottery(t);
    await sold(lottery, T1);
    await heldBy(staff, lottery, T2);
    await closeSales(t, lottery);
    const en = await propose(staff, { lottery_id: lottery, tickets: [T1, T2], reason: REASON });
    expect(en.status).toBe(403);
    expect(en.body).toEqual({
      detail: `You hold the ticket ${T2}: a staff member never chooses, or approves, a ticket of his own as a winner.`,
      code: 'own_ticket',
    });
    const bn = await propose(staff, { lottery_id: lottery, tickets: [T2], reason: REASON }, 'bn');
    expect(bn.status).toBe(403);
    expect(bn.body.code).toBe('own_ticket');
    expect(bn.body.detail).toBe(`${T2} টিকিটটি আপনার নিজের: কোনো কর্মী নিজের টিকিটকে বিজয়ী হিসেবে বেছে নিতে বা অনুমোদন করতে পারেন না।`);
    expect(await t.db.query('SELECT id FROM draw_proposals')).toEqual([]);
    expect(await actions()).toEqual([]);

    const p = await propose(checker, { lottery_id: lottery, tickets: [T1, T2], reason: REASON });
    expect(p.status).toBe(202);
    const mine = await approve(staff, p.body.id);
    expect(mine.status).toBe(403);
    expect(mine.body).toEqual({ detail: en.body.detail, code: 'own_ticket' });
    expect(await statusOf(p.body.id)).toEqual({ status: 'pending' });
    expect(await paid(lottery)).toEqual({ prizes: [], published: false });

    // A superuser who holds none approves it; the draw's audit keeps who proposed and who approved.
    expect((await approve(boss, p.body.id)).status).toBe(201);
    const draw = await t.db.one<{ actor_id: number; after: Record<string, unknown> }>(
      "SELECT actor_id, after FROM audit_log WHERE action = 'lottery.draw'",
    );
    expect(draw?.actor_id).toBe(boss.id);
    expect(draw?.after).toMatchObject({ algorithm: 'unverifiable', proposal_id: p.body.id, proposed_by: checker.id, approved_by: boss.id });
  });

  test('a superuser is refused his own ticket too', async () => {
    const lottery = await insertLottery(t);
    await heldBy(boss, lottery, T1);
    await closeSales(t, lottery);
    const res = await propose(boss, { lottery_id: lottery, tickets: [T1], reason: REASON });
    expect([res.status, res.body.code]).toEqual([403, 'own_ticket']);
  });

  test('a generated ticket he activated is his, whoever the purchase names', async () => {
    const lottery = await insertLottery(t);
    const trx = await heldBy(a, lottery, T1, 'activation');
    await t.db.query(
      `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number, activated_by, activated_at, transaction_id)
       VALUES ($1, $2, '1234567890123456', $3, now(), $4)`,
      [lottery, T1, checker.id, trx],
    );
    await closeSales(t, lottery);
    const own = await propose(checker, { lottery_id: lottery, tickets: [T1], reason: REASON });
    expect([own.status, own.body.code]).toEqual([403, 'own_ticket']);
    const p = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
    expect(p.status).toBe(202);
    expect((await approve(checker, p.body.id)).body.code).toBe('own_ticket');
    expect((await approve(boss, p.body.id)).status).toBe(201);
  });

  test('a proposal naming its author’s own ticket (stored before this rule) is not approved: 403 own_ticket, the author named', async () => {
    const lottery = await insertLottery(t);
    await heldBy(staff, lottery, T1);
    await closeSales(t, lottery);
    const id = await storedProposal(lottery, [T1], staff);
    const en = await approve(checker, id);
    expect(en.status).toBe(403);
    expect(en.body).toEqual({
      detail: `The ticket ${T1} is held by the staff member who proposed it: a staff member's own ticket is never chosen as a winner.`,
      code: 'own_ticket',
    });
    const bn = await approve(checker, id, 'bn');
    expect(bn.body.detail).toBe(`${T1} টিকিটটি যে কর্মী প্রস্তাব করেছেন তাঁর নিজের: কোনো কর্মীর নিজের টিকিট বিজয়ী হিসেবে বেছে নেওয়া যায় না।`);
    expect(await statusOf(id)).toEqual({ status: 'pending' });
    expect(await paid(lottery)).toEqual({ prizes: [], published: false });
  });
});

describe('races', () => {
  test('20 approvals of one proposal at once: one draw, the others 409 proposal_decided', async () => {
    const lottery = await insertLottery(t);
    await sold(lottery, T1);
    await closeSales(t, lottery);
    const p = await propose(staff, { lottery_id: lottery, tickets: [T1], reason: REASON });
    const approvers = await Promise.all(Array.from({ length: 20 }, () => account(t, { is_staff: true })));
    const answers = await Promise.all(approvers.map((x) => approve(x, p.body.id)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(19).fill('proposal_decided'));
    expect((await paid(lottery)).prizes).toEqual([{ ticket: T1 }]);
    expect((await actions()).filter(([action]) => action === 'lottery.draw')).toHaveLength(1);
  });

  test('approvals racing the close (the end of sales moved to now): each refused while open, or drawn from the frozen tickets', async () => {
    for (let i = 0; i < 8; i++) {
      const lottery = await insertLottery(t);
      await sold(lottery, T1);
      const id = await storedProposal(lottery, [T1], staff);
      const close = to(t, api.updateLottery, { params: { id: lottery }, as: boss }).send({ end_date: new Date().toISOString() });
      // The approval a few milliseconds before or after the close, in turn.
      const late = approve(checker, id);
      const [closed, res] = i % 2 ? await Promise.all([close, late]) : (await Promise.all([late, close])).reverse();
      expect(closed!.status).toBe(200);
      const drawn = await paid(lottery);
      if (res!.status === 201) {
        // Drawn after the close, from the tickets frozen then.
        expect(drawn).toEqual({ prizes: [{ ticket: T1 }], published: true });
        expect(await frozen(lottery)).toBe(1);
        expect(await statusOf(id)).toEqual({ status: 'approved' });
      } else {
        // Refused while open: nothing drawn, nothing frozen, the proposal still pending for after the close.
        expect([res!.status, res!.body.code]).toEqual([409, 'sales_open']);
        expect(drawn).toEqual({ prizes: [], published: false });
        expect(await frozen(lottery)).toBe(0);
        expect(await statusOf(id)).toEqual({ status: 'pending' });
        expect((await approve(checker, id)).status).toBe(201);
      }
    }
  });
});
