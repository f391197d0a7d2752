/**
 * A payment approved by hand needs two people (docs/rules/payments.md#1-who-may-do-what): POST
 * /api/v1/transactions/{id}/approval-proposals/, GET /api/v1/transaction-approval-proposals/ and
 * POST /api/v1/transaction-approval-proposals/{id}/approve/ | reject/. On PGlite and PostgreSQL.
 */
import { freezeDue } from '../../server/draws/freeze-job.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';
import { messagesOf, runsOf, transactionsLocking } from '../helpers/db-messages.ts';

let t: TestApp;
let a: Player, first: Player, second: Player, superuser: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  first = await account(t, { name: 'Desk Officer', is_staff: true });
  second = await account(t, { name: 'Second Officer', is_staff: true });
  superuser = await account(t, { name: 'Chief', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM audit_log');
  await t.db.query('DELETE FROM player_messages');
  await t.db.query('DELETE FROM transaction_approval_proposals');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM lotteries');
  await t.db.query('DELETE FROM rate_limits');
});

let seq = 0;
const ticket = () => `01-02-03-04-05-${String((++seq % 20) + 1).padStart(2, '0')}`;

async function pending(lottery: number, p: Player = a): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket(), { trx_id: trxId() }));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}
const propose = (p: Player | null, id: number | string, body: unknown = { reason: 'The player showed the bKash receipt' }, lng = 'en') =>
  to(t, api.proposeApproval, { params: { id }, as: p, lang: lng }).send(body as object);
const decide = (
  p: Player | null,
  step: 'approve' | 'reject',
  id: number | string,
  body: unknown = { reason: 'Receipt checked' },
  lng = 'en',
) =>
  to(t, step === 'approve' ? api.approveApprovalProposal : api.rejectApprovalProposal, {
    params: { proposalId: id },
    as: p,
    lang: lng,
  }).send(body as object);
const list = (p: Player | null, query: { status?: string } = {}) => to(t, api.approvalProposals, { query, as: p });
const statusOf = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;
const audit = () =>
  t.db.query<{ actor_id: number; action: string; entity_id: string; after: Record<string, unknown> }>(
    'SELECT actor_id, action, entity_id, after FROM audit_log ORDER BY id',
  );

describe('who may', () => {
  test('anonymous 401 and a player 403 on every step; nothing changes', async () => {
    const id = await pending(await insertLottery(t));
    const p = await propose(first, id);
    expect(p.status).toBe(201);
    for (const [who, status, code] of [
      [null, 401, 'not_authenticated'],
      [a, 403, 'permission_denied'],
    ] as const) {
      for (const res of [
        await propose(who, id),
        await decide(who, 'approve', p.body.id),
        await decide(who, 'reject', p.body.id),
        await list(who),
      ])
        expect([res.status, res.body.code]).toEqual([status, code]);
    }
    expect(await statusOf(id)).toBe('pending');
    expect((await audit()).map((r) => r.action)).toEqual(['transaction.approval_proposed']);
  });

  test('one staff member proposes, a second approves: success, audited with both and both reasons, the player told', async () => {
    const id = await pending(await insertLottery(t, { name: 'Padma Weekly' }));
    const p = await propose(first, id);
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({
      transaction_id: id,
      reason: 'The player showed the bKash receipt',
      status: 'pending',
      proposed_by: { id: first.id, name: 'Desk Officer' },
      decided_by: null,
      lapsed: false,
      purchase: { amount: 100, status: 'pending', player: { id: a.id, name: 'Rahim Uddin' }, lottery: { name: 'Padma Weekly' } },
    });
    expect(await statusOf(id)).toBe('pending');
    const open = await list(second);
    expect([open.status, open.headers['x-total-count'], open.body[0].id]).toEqual([200, '1', p.body.id]);
    const ok = await decide(second, 'approve', p.body.id);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decided_by: { id: second.id }, decision_reason: 'Receipt checked' });
    expect(await statusOf(id)).toBe('success');
    const rows = await audit();
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ['transaction.approval_proposed', first.id],
      ['transaction.approve', second.id],
    ]);
    expect(rows[0]!.after).toMatchObject({ proposal_id: p.body.id, reason: 'The player showed the bKash receipt' });
    expect(rows[1]!.after).toMatchObject({
      status: 'success',
      proposal_id: p.body.id,
      proposed_by: first.id,
      proposal_reason: 'The player showed the bKash receipt',
      reason: 'Receipt checked',
    });
    expect(await t.db.one('SELECT count(*)::int AS n FROM player_messages WHERE user_id = $1', [a.id])).toEqual({ n: 1 });
    expect((await list(second)).body).toEqual([]);
    expect((await list(second, { status: 'approved' })).body.map((x: { id: number }) => x.id)).toEqual([p.body.id]);
    // Decided once.
    const again = await decide(superuser, 'approve', p.body.id);
    expect([again.status, again.body.code]).toEqual([409, 'proposal_decided']);
    expect(again.body.detail).toBe('This proposal is no longer waiting: it was approved.');
  });

  test('the same person cannot approve his own proposal, superuser included; in the caller’s language', async () => {
    const id = await pending(await insertLottery(t));
    const p = await propose(superuser, id);
    const same = await decide(superuser, 'approve', p.body.id);
    expect(same.status).toBe(403);
    expect(same.body).toEqual({ detail: 'You proposed this approval: a second staff member must approve it.', code: 'same_person' });
    const bn = await decide(superuser, 'approve', p.body.id, undefined, 'bn');
    expect(bn.body.detail).toBe('এই অনুমোদনের প্রস্তাব আপনিই করেছেন: দ্বিতীয় একজন কর্মীকে অনুমোদন করতে হবে।');
    expect(await statusOf(id)).toBe('pending');
    // He may withdraw it.
    const withdrawn = await decide(superuser, 'reject', p.body.id, { reason: 'Wrong purchase' });
    expect([withdrawn.status, withdrawn.body.status]).toEqual([200, 'rejected']);
    expect(await statusOf(id)).toBe('pending');
  });

  test('neither step on a staff member’s own purchase (one bought before staff stopped playing)', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(lottery);
    await t.db.query('UPDATE transactions SET user_id = $1 WHERE id = $2', [first.id, id]);
    const own = await propose(first, id);
    expect([own.status, own.body.code]).toEqual([403, 'own_purchase']);
    expect(own.body.detail).toBe('This is your own purchase: other staff members must decide it.');
    const p = await propose(second, id);
    expect(p.status).toBe(201);
    for (const step of ['approve', 'reject'] as const) {
      const res = await decide(first, step, p.body.id);
      expect([res.status, res.body.code]).toEqual([403, 'own_purchase']);
    }
    expect(await statusOf(id)).toBe('pending');
    expect((await audit()).map((r) => r.action)).toEqual(['transaction.approval_proposed']);
  });
});

describe('refusals', () => {
  test('the reason: 1–500 characters, no other field; 400 in the caller’s language, nothing recorded', async () => {
    const id = await pending(await insertLottery(t));
    for (const body of [
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(501) },
      { reason: 5 },
      { reason: 'ok', status: 'success' },
    ]) {
      const res = await propose(first, id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await propose(first, id, {})).body).toEqual({ reason: ['This field is required.'] });
    expect((await propose(first, id, { reason: ' ' })).body).toEqual({ reason: ['Please give the reason.'] });
    expect((await propose(first, id, {}, 'bn')).body.reason).toHaveLength(1);
    expect((await propose(first, id, { reason: 'x'.repeat(500) })).status).toBe(201);
    const [p] = (await list(first)).body;
    for (const body of [{}, { reason: '' }, { reason: 'x'.repeat(501) }])
      for (const step of ['approve', 'reject'] as const) expect((await decide(second, step, p.id, body)).status).toBe(400);
    expect(await statusOf(id)).toBe('pending');
    expect((await audit()).map((r) => r.action)).toEqual(['transaction.approval_proposed']);
  });

  test('one open proposal per purchase; unknown ids 404; only a pending payment with a TrxID of a lottery on sale', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(lottery);
    const p = await propose(first, id);
    const twice = await propose(second, id);
    expect([twice.status, twice.body.code, twice.body.proposal_id]).toEqual([409, 'proposal_pending', p.body.id]);
    for (const res of [
      await propose(first, 987654),
      await propose(first, 'abc'),
      await decide(second, 'approve', 987654),
      await decide(second, 'reject', 'x'),
    ])
      expect(res.status).toBe(404);
    const rejected = await pending(lottery);
    await to(t, api.updateTransaction, { params: { id: rejected }, as: first })
      .send({ status: 'failed' })
      .expect(200);
    expect((await propose(first, rejected)).body.code).toBe('not_pending');
    const closed = await insertLottery(t);
    const late = await pending(closed);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [closed]);
    const refused = await propose(first, late);
    expect([refused.status, refused.body.code]).toEqual([409, 'tickets_frozen']);
    // Once the freeze has rejected it, the answer is the same, in either language: the lottery is checked first.
    await freezeDue(t.db);
    expect(await statusOf(late)).toBe('failed');
    const bn = await propose(first, late, undefined, 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body).toEqual({ code: 'tickets_frozen', detail: expect.stringContaining('ড্র-এর জন্য এর টিকিট চূড়ান্ত') });
  });

  test('a proposal whose lottery’s sales closed lapses: refused on approval, nothing approved, listed no more', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(lottery);
    const p = await propose(first, id);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [lottery]);
    expect((await list(second)).body[0]).toMatchObject({ id: p.body.id, lapsed: true });
    const res = await decide(second, 'approve', p.body.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'tickets_frozen', proposal_id: p.body.id });
    expect(res.body.detail).toMatch(/^Sales of this lottery closed on .+: its tickets are frozen for the draw/);
    expect(await statusOf(id)).toBe('pending');
    expect((await list(second)).body).toEqual([]);
    expect((await list(second, { status: 'lapsed' })).body.map((x: { id: number }) => x.id)).toEqual([p.body.id]);
    expect((await audit()).map((r) => r.action)).toEqual(['transaction.approval_proposed', 'transaction.approval_lapsed']);
  });

  test('a purchase rejected after it was proposed: the approval is refused (proposal_stale), nothing changes', async () => {
    const id = await pending(await insertLottery(t));
    const p = await propose(first, id);
    await to(t, api.updateTransaction, { params: { id: id }, as: first })
      .send({ status: 'failed' })
      .expect(200);
    const res = await decide(second, 'approve', p.body.id);
    expect([res.status, res.body.code]).toEqual([409, 'proposal_stale']);
    expect(await statusOf(id)).toBe('failed');
  });
});

test('20 staff members approving the same proposal at once: exactly one approval and one audit row', async () => {
  const id = await pending(await insertLottery(t));
  const p = await propose(first, id);
  const staff = await Promise.all(Array.from({ length: 20 }, () => account(t, { is_staff: true })));
  const answers = await Promise.all(staff.map((s) => decide(s, 'approve', p.body.id)));
  expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
  expect(answers.filter((r) => r.status === 409 && r.body.code === 'proposal_decided')).toHaveLength(19);
  expect(await statusOf(id)).toBe('success');
  expect((await audit()).filter((r) => r.action === 'transaction.approve')).toHaveLength(1);
  expect(await t.db.one('SELECT count(*)::int AS n FROM player_messages WHERE user_id = $1', [a.id])).toEqual({ n: 1 });
});

// The embedded database's thread: a transaction holds the database from its BEGIN to its end while every other
// statement waits, so a proposal and an approval each run there whole, one message from the app
// (docs/decisions/099-writes-run-on-the-database-thread.md).
(process.env.TEST_DATABASE_URL ? test.skip : test)(
  'on the embedded database, a proposal and an approval are each one message to the database’s thread',
  async () => {
    const id = await pending(await insertLottery(t));
    let proposal = 0;
    const proposing = await messagesOf(async () => (proposal = (await propose(first, id).expect(201)).body.id as number));
    expect(runsOf(proposing, 'approval-propose')).toEqual([expect.objectContaining({ id })]);
    // None of its statements went from the app's thread, and nothing after it: the answer was read in the transaction.
    expect(transactionsLocking(proposing, id)).toEqual([]);
    expect(proposing.at(-1)?.map((r) => r.op)).toEqual(['run']);
    const approving = await messagesOf(() => decide(second, 'approve', proposal).expect(200));
    expect(runsOf(approving, 'approval-approve')).toEqual([expect.objectContaining({ proposalId: proposal })]);
    expect(transactionsLocking(approving, proposal)).toEqual([]);
    expect(await statusOf(id)).toBe('success');
    const [answer] = (await list(first, { status: 'approved' })).body as { id: number; status: string }[];
    expect(answer).toMatchObject({ id: proposal, status: 'approved' });
  },
);
