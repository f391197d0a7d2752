/**
 * Staff and transactions (docs/rules/lotteries-and-sales.md#8-transaction-states): GET /api/v1/transactions/ (search,
 * status filter, paging) and PUT /api/v1/transactions/{id}/ (approve, reject, remove approval, move to pending), each
 * change audited in the same database transaction (docs/rules/security.md#7-audit-log). Approval is two people's act
 * (docs/rules/payments.md#1-who-may-do-what; its endpoints: manual-approvals.test.ts). On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, approveByHand, buy, generateAndActivate, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin', email: 'rahim@example.com' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Desk Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM audit_log');
  await t.db.query('DELETE FROM generated_tickets');
  await t.db.query('DELETE FROM prizes');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM lotteries');
  await t.db.query('DELETE FROM rate_limits');
});

const TICKET = '05-12-23-34-45-07';
const list = (p: Player | null, query: Record<string, string> = {}) => to(t, api.transactions, { query, as: p });
const put = (p: Player | null, id: number, status: unknown, lang = 'en') =>
  to(t, api.updateTransaction, { params: { id }, as: p, lang }).send({ status });
const audit = () =>
  t.db.query<{ actor_id: number; action: string; entity: string; entity_id: string; before: unknown; after: unknown; created_at: string }>(
    'SELECT actor_id, action, entity, entity_id, before, after, created_at FROM audit_log ORDER BY id',
  );
const statusOf = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;

async function bought(p: Player, lottery: number, ticket = TICKET, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, extra));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

describe('who may', () => {
  test('anonymous 401, a player 403, staff 200 on both staff endpoints (a rejection: approval needs two)', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery, TICKET, { trx_id: trxId() });
    for (const res of [await list(null), await put(null, id, 'success')]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('not_authenticated');
    }
    for (const res of [await list(a), await put(a, id, 'success')]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    }
    expect(await statusOf(id)).toBe('pending');
    expect(await audit()).toEqual([]);
    expect((await list(staff)).status).toBe(200);
    expect((await put(staff, id, 'failed')).status).toBe(200);
  });

  test('staff who lost the right are refused at once, whatever their token says', async () => {
    const former = await account(t, { is_staff: true });
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [former.id]);
    expect((await list(former)).status).toBe(403);
  });
});

describe('GET /api/v1/transactions/', () => {
  test('every player’s transactions, newest first, with what staff need to check the payment', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    const first = await bought(a, lottery, TICKET, { trx_id: 'ABC12345XY', payment_number: '01812345678', nid: '1234567890123' });
    const second = await bought(b, lottery, '01-02-03-04-05-06');
    const res = await list(staff);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.body.map((x: { id: number }) => x.id)).toEqual([second, first]);
    expect(res.body[1]).toEqual({
      id: first,
      transaction_type: 'payment',
      amount: 100,
      status: 'pending',
      payment_method: 'bkash',
      payment_number: '01812345678',
      phone: '01812345678',
      trx_id: 'ABC12345XY',
      ticket: TICKET,
      nid: '1234567890123',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      user: { id: a.id, name: 'Rahim Uddin', phone: a.phone, email: 'rahim@example.com', is_active: true },
      lottery: {
        id: lottery,
        name: 'Padma Weekly',
        name_bn: 'পদ্মা সাপ্তাহিক',
        end_date: expect.any(String),
        total_prize: 100000,
        is_result_published: false,
        ticket_price: 100,
      },
      checkout: null,
      // A Send Money purchase with a TrxID that no statement has shown yet (docs/rules/payments.md#87-on-the-transactions-page).
      statement: 'waiting',
      // bKash was asked about the TrxID and gave no answer (this app's bKash does not answer; docs/rules/payments.md#9-send-money-confirmed-by-bkash).
      bkash_check: { trx_id: 'ABC12345XY', state: 'checking', reason: null, checks: 1, updated_at: expect.any(String), answer: null },
      // A purchase bought alone leads no run.
      run_paid: null,
    });
  });

  test("the lottery's ticket price now, so staff see an amount that differs from it", async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const id = await bought(a, lottery);
    await t.db.query('UPDATE lotteries SET ticket_price = 150 WHERE id = $1', [lottery]);
    const [row] = (await list(staff)).body;
    expect(row).toMatchObject({ id, amount: 100, trx_id: null, lottery: { id: lottery, ticket_price: 150 } });
  });

  test('search by name, phone, e-mail, ticket, TrxID, bKash number or lottery name; filter by status and lottery', async () => {
    const padma = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    const lucky = await insertLottery(t, { name: 'Lucky 50' });
    const ra = await bought(a, padma, TICKET, { trx_id: 'TRXAAAA111' });
    const fb = await bought(b, lucky, '01-02-03-04-05-06', { payment_number: '01998877665', trx_id: trxId() });
    expect((await approveByHand(t, fb)).status).toBe(200);
    // A string is a query sent as it is written: empty values, which the contract's URLs leave out.
    const ids = async (query: Record<string, string> | string) => {
      const res = await (typeof query === 'string' ? list(staff).query(query) : list(staff, query));
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      return res.body.map((x: { id: number }) => x.id);
    };
    expect(await ids({ search: 'rahim' })).toEqual([ra]);
    expect(await ids({ search: a.phone.slice(3) })).toEqual([ra]);
    expect(await ids({ search: '+88' + b.phone })).toEqual([fb]);
    expect(await ids({ search: 'EXAMPLE.COM' })).toEqual([ra]);
    expect(await ids({ search: '23-34' })).toEqual([ra]);
    expect(await ids({ search: '45-12-23-34-5-7' })).toEqual([ra]);
    expect(await ids({ search: 'trxaaaa' })).toEqual([ra]);
    expect(await ids({ search: '998877' })).toEqual([fb]);
    expect(await ids({ search: 'lucky' })).toEqual([fb]);
    expect(await ids({ search: 'পদ্মা' })).toEqual([ra]);
    expect(await ids({ search: 'nobody' })).toEqual([]);
    // Wildcards typed by staff are letters.
    expect(await ids({ search: '%' })).toEqual([]);
    expect(await ids({ search: '_' })).toEqual([]);
    expect(await ids({ status: 'success' })).toEqual([fb]);
    expect(await ids({ status: 'pending' })).toEqual([ra]);
    expect(await ids({ status: 'failed' })).toEqual([]);
    expect(await ids({ lottery_id: String(padma) })).toEqual([ra]);
    expect(await ids('status=&search=')).toEqual([fb, ra]);
    const filtered = await list(staff, { status: 'pending', search: 'rahim' });
    expect(filtered.headers['x-total-count']).toBe('1');
  });

  test('paged with X-Total-Count; bad parameters are 400', async () => {
    const lottery = await insertLottery(t);
    const made: number[] = [];
    for (let i = 1; i <= 5; i++) made.push(await bought(i % 2 ? a : b, lottery, `01-02-03-04-05-${String(i).padStart(2, '0')}`));
    const pages: number[][] = [];
    for (const offset of [0, 2, 4]) {
      const res = await list(staff, { limit: '2', offset: String(offset) });
      expect(res.headers['x-total-count']).toBe('5');
      pages.push(res.body.map((x: { id: number }) => x.id));
    }
    expect(pages.flat()).toEqual([...made].reverse());
    for (const [query, field] of [
      [{ status: 'paid' }, 'status'],
      [{ limit: '101' }, 'limit'],
      [{ lottery_id: 'abc' }, 'lottery_id'],
      [{ search: 'x'.repeat(101) }, 'search'],
      [{ search: '\u0000' }, 'search'],
      [{ user: '1' }, 'user'],
    ] as const) {
      const res = await list(staff, query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(Object.keys(res.body)).toEqual([field]);
    }
  });
});

describe('PUT /api/v1/transactions/{id}/', () => {
  test('approve by one person: 409 second_person_needed in the caller’s language, pointing at the open proposal; nothing changes', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const id = await bought(a, lottery, TICKET, { trx_id: 'BKASH12345' });
    const res = await put(staff, id, 'success');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail:
        'Approving a payment by hand needs two staff members: propose it with the reason, and a second staff member approves the proposal.',
      code: 'second_person_needed',
      proposal_id: null,
    });
    const bn = await put(staff, id, 'success', 'bn');
    expect(bn.body.detail).toBe('হাতে পেমেন্ট অনুমোদন করতে দুজন কর্মী লাগে: কারণসহ প্রস্তাব করুন, দ্বিতীয় একজন কর্মী প্রস্তাবটি অনুমোদন করবেন।');
    const proposed = await to(t, api.proposeApproval, { params: { id }, as: staff }).send({ reason: 'Receipt shown at the desk' });
    expect(proposed.status).toBe(201);
    const again = await put(staff, id, 'success');
    expect([again.status, again.body.code, again.body.proposal_id]).toEqual([409, 'second_person_needed', proposed.body.id]);
    expect(await statusOf(id)).toBe('pending');
    expect((await audit()).map((r) => r.action)).toEqual(['transaction.approval_proposed']);
  });

  test('reject: pending → failed releases the combination for another player; audited', async () => {
    const lottery = await insertLottery(t, { total_tickets: 1 });
    const id = await bought(a, lottery);
    expect((await buy(t, b, purchase(lottery, TICKET))).status).toBe(409);
    const res = await put(staff, id, 'failed');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect((await audit()).map((r) => [r.action, (r.before as { status: string }).status, (r.after as { status: string }).status])).toEqual(
      [['transaction.reject', 'pending', 'failed']],
    );
    expect((await to(t, api.getLottery, { params: { id: lottery } })).body).toMatchObject({ tickets_sold: 0, purchasable: true });
    expect((await buy(t, b, purchase(lottery, TICKET))).status).toBe(201);
  });

  test('remove approval (success → pending) and move to pending (failed → pending); success → failed only through pending', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery, TICKET, { trx_id: trxId() });
    expect((await approveByHand(t, id)).status).toBe(200);
    const direct = await put(staff, id, 'failed');
    expect(direct.status).toBe(409);
    expect(direct.body).toEqual({
      detail: 'A transaction cannot go from approved to rejected directly: move it back to pending first.',
      code: 'status_change_refused',
    });
    const bn = await put(staff, id, 'failed', 'bn');
    expect(bn.body.detail).toBe('লেনদেনটিকে সরাসরি অনুমোদিত থেকে বাতিল করা যায় না: আগে অপেক্ষমাণ করুন।');
    expect((await put(staff, id, 'pending')).status).toBe(200);
    expect((await put(staff, id, 'failed')).status).toBe(200);
    expect((await put(staff, id, 'success')).status).toBe(409);
    expect((await put(staff, id, 'pending')).status).toBe(200);
    expect((await audit()).map((r) => r.action)).toEqual([
      'transaction.approval_proposed',
      'transaction.approve',
      'transaction.remove_approval',
      'transaction.reject',
      'transaction.move_to_pending',
    ]);
    expect(await statusOf(id)).toBe('pending');
  });

  test('approval needs a TrxID: proposing without one is 409 in the caller’s language, nothing changes, nothing is recorded; reject still works', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery);
    const propose = (x: number, lang = 'en') =>
      to(t, api.proposeApproval, { params: { id: x }, as: staff, lang }).send({ reason: 'Receipt shown' });
    const res = await propose(id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail:
        'This purchase has no TrxID yet: it can be approved only once the player has entered the TrxID bKash sent him and the payment has been checked against it. It may still be rejected.',
      code: 'trx_id_missing',
    });
    const bn = await propose(id, 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body.detail).toBe(
      'এই কেনাকাটার এখনো কোনো TrxID নেই: খেলোয়াড় বিকাশের পাঠানো TrxID দেওয়ার পর এবং তা দিয়ে পেমেন্ট মিলিয়ে দেখার পরেই শুধু অনুমোদন করা যায়। তবে বাতিল করা যায়।',
    );
    expect(await statusOf(id)).toBe('pending');
    expect(await audit()).toEqual([]);
    // The player can still enter his TrxID, and then it can be approved.
    const given = await to(t, api.setTrxId, { params: { id }, as: a }).send({ trx_id: 'PAIDLATER1' });
    expect(given.status).toBe(200);
    expect((await approveByHand(t, id)).status).toBe(200);
    // A purchase without a TrxID may be rejected, and moved back to pending; not proposed from there either.
    const unpaid = await bought(b, lottery, '01-02-03-04-05-06');
    expect((await put(staff, unpaid, 'failed')).status).toBe(200);
    expect((await put(staff, unpaid, 'pending')).status).toBe(200);
    expect((await propose(unpaid)).body.code).toBe('trx_id_missing');
    expect((await audit()).map((r) => r.action)).toEqual([
      'transaction.approval_proposed',
      'transaction.approve',
      'transaction.reject',
      'transaction.move_to_pending',
    ]);
  });

  test('the specification’s body {id, status}: accepted when id is the address’s, else 400 under id and nothing changes', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery, TICKET, { trx_id: trxId() });
    const other = await bought(b, lottery, '01-02-03-04-05-06', { trx_id: trxId() });
    const send = (body: object, lang = 'en') => to(t, api.updateTransaction, { params: { id }, as: staff, lang }).send(body);
    const wrong = await send({ id: other, status: 'success' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      id: [`The id in the body must be the id of the transaction in the address (${id}).`],
      code: 'transaction_id_mismatch',
    });
    const wrongBn = await send({ id: other, status: 'success' }, 'bn');
    expect(wrongBn.status).toBe(400);
    expect(wrongBn.body.id[0]).toMatch(/^বডির id অবশ্যই ঠিকানার লেনদেনের id \([০-৯]+\) হতে হবে।$/);
    for (const bad of ['abc', 0, -1, null]) expect((await send({ id: bad, status: 'success' })).status).toBe(400);
    expect(await statusOf(id)).toBe('pending');
    expect(await statusOf(other)).toBe('pending');
    expect(await audit()).toEqual([]);
    const ok = await send({ id, status: 'failed' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id, status: 'failed' });
    expect((await send({ id: String(id), status: 'pending' })).status).toBe(200);
  });

  test('the status it already has: 200, nothing changes, nothing is recorded', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery);
    const res = await put(staff, id, 'pending');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect(await audit()).toEqual([]);
  });

  test('failed → pending is refused when the combination was taken meanwhile, or the lottery is sold out', async () => {
    const lottery = await insertLottery(t, { total_tickets: 2 });
    const id = await bought(a, lottery);
    await put(staff, id, 'failed');
    await bought(b, lottery);
    const taken = await put(staff, id, 'pending');
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      detail: 'These numbers have been taken by another purchase in the meantime, so this transaction cannot be moved back to pending.',
      code: 'ticket_taken',
    });
    await bought(b, lottery, '01-02-03-04-05-06');
    // Free the combination again, but leave no ticket on sale.
    await t.db.query(`UPDATE transactions SET ticket = '11-12-13-14-15-01' WHERE user_id = $1 AND ticket = $2`, [b.id, TICKET]);
    const soldOut = await put(staff, id, 'pending');
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.code).toBe('sold_out');
    expect(await statusOf(id)).toBe('failed');
    expect((await audit()).map((r) => r.action)).toEqual(['transaction.reject']);
  });

  test('after the results are published only a pending ticket may still be rejected', async () => {
    const lottery = await insertLottery(t);
    const paid = await bought(a, lottery, TICKET, { trx_id: trxId() });
    const unpaid = await bought(b, lottery, '01-02-03-04-05-06', { trx_id: trxId() });
    expect((await approveByHand(t, paid)).status).toBe(200);
    await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [lottery]);
    const res = await put(staff, paid, 'pending');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('results_published');
    expect((await put(staff, unpaid, 'success')).status).toBe(409);
    expect((await put(staff, unpaid, 'failed')).status).toBe(200);
    expect(await statusOf(paid)).toBe('success');
  });

  test('unknown ids are 404; a bad status is 400', async () => {
    const res = await put(staff, 987654, 'success');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Transaction not found', code: 'not_found' });
    expect((await to(t, api.updateTransaction, { params: { id: 'abc' }, as: staff }).send({ status: 'success' })).status).toBe(404);
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery);
    for (const status of ['approved', '', null, 1]) {
      const bad = await put(staff, id, status);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual(['status']);
    }
    const extra = await to(t, api.updateTransaction, { params: { id }, as: staff }).send({ status: 'success', amount: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ amount: ['Unknown field.'] });
    expect(await audit()).toEqual([]);
  });

  test('a second staff member approving a proposal while another rejects the purchase: one wins, one audit row per change made', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery, TICKET, { trx_id: trxId() });
    const [proposer, approver] = [await account(t, { is_staff: true }), await account(t, { is_staff: true })];
    const proposed = await to(t, api.proposeApproval, { params: { id }, as: proposer }).send({ reason: 'Receipt shown' });
    expect(proposed.status).toBe(201);
    const [x, y] = await Promise.all([
      to(t, api.approveApprovalProposal, { params: { proposalId: proposed.body.id as number }, as: approver }).send({ reason: 'Checked' }),
      put(staff, id, 'failed'),
    ]);
    // Whichever came first changed it; the second found it already changed: a rejected purchase is no longer the
    // one proposed, and an approved one may not jump to failed.
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const rows = (await audit()).filter((r) => r.action !== 'transaction.approval_proposed');
    expect(rows).toHaveLength(1);
    expect(await statusOf(id)).toBe((rows[0]!.after as { status: string }).status);
  });

  test('an activated generated ticket is not a payment: its status does not change', async () => {
    const lottery = await insertLottery(t);
    const { activated } = await generateAndActivate(t, staff, a, lottery);
    expect(activated.status).toBe(200);
    const id = activated.body.transaction_id as number;
    for (const status of ['pending', 'failed']) {
      const res = await put(staff, id, status);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'activation_final',
        detail: 'This ticket was activated with its secret number: its status does not change.',
      });
    }
    expect(await statusOf(id)).toBe('success');
    expect((await audit()).filter((r) => r.entity === 'transaction')).toEqual([]);
    // Asking for the status it has is still the usual no-op.
    expect((await put(staff, id, 'success')).status).toBe(200);
  });
});
