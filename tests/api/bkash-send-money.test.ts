/**
 * Send Money confirmed by bKash (docs/rules/payments.md#9-send-money-confirmed-by-bkash), against the bKash simulator
 * over HTTP: a TrxID the player types is looked up with Search Transaction after the commit, and the purchase is
 * confirmed on bKash's word alone when the money reached our number, of its amount, between the purchase and the
 * close, the TrxID unused; every other answer is kept with its reason for the player and for staff. bKash unreachable:
 * the reconciliation job asks again. Twenty checks at once confirm once. On PGlite and PostgreSQL.
 */
import { jest } from '@jest/globals';
import type { BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import type { TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { appWithSimulator, buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';
import { messagesOf, runsOf, transactionsLocking } from '../helpers/db-messages.ts';

const RECEIVER = '01700000000';
const TICKET = '05-12-23-34-45-07';
let t: TestApp;
let sim: BkashSimulator;
let close: () => Promise<void>;
let simNow: number | null = null;
let a: Player, b: Player, staff: Player;

beforeAll(async () => {
  ({ t, sim, a, b, staff, close } = await appWithSimulator({ receiver: RECEIVER, now: () => simNow ?? Date.now() }));
});
afterAll(() => close());
beforeEach(async () => {
  sim.reset();
  simNow = null;
  await t.settled();
  for (const table of ['trx_id_checks', 'bkash_payments', 'audit_log', 'player_messages', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const send = (amount: number | string = 100, to = RECEIVER) => sim.sendMoney({ from: '01770618575', to, amount });
const patch = (p: Player | null, id: number | string, trx_id: unknown, lang = 'en') =>
  to(t, api.setTrxId, { params: { id }, as: p, lang }).send({ trx_id });
async function pending(p: Player, lottery: number, ticket = TICKET): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket));
  expect(res.status).toBe(201);
  return res.body.id as number;
}
/** bKash does not answer the next TrxID's question: the client's try and its two repeats fail. */
const bkashDown = () => {
  for (let i = 0; i < 3; i++) sim.failNext('searchTransaction', 'http500');
};
const mine = (p: Player, id: number) => to(t, api.myTransaction, { params: { id }, as: p });
const staffList = () => to(t, api.transactions, { as: staff });
const status = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;
const check = (id: number) =>
  t.db.one<{ state: string; reason: string | null; checks: number; answer: unknown }>(
    'SELECT state, reason, checks, answer FROM trx_id_checks WHERE transaction_id = $1',
    [id],
  );
const audits = (action: string) =>
  t.db.query<{ actor_id: number | null; after: Record<string, unknown> }>('SELECT actor_id, after FROM audit_log WHERE action = $1', [
    action,
  ]);

describe('a TrxID given on the payment page (PATCH …/trx-id/)', () => {
  test('money sent to our number, of the amount, after the purchase: confirmed by bKash, audited with its answer, the player told', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    const res = await patch(a, id, trx.toLowerCase()).expect(200);
    expect(res.body).toMatchObject({ id, status: 'success', trx_id: trx });
    expect(await check(id)).toMatchObject({ state: 'confirmed', reason: null, answer: { trxID: trx, receiver: RECEIVER, amount: 100 } });
    const [audit, ...more] = await audits('transaction.confirmed_by_bkash');
    expect(more).toHaveLength(0);
    expect(audit?.actor_id).toBeNull();
    expect(audit?.after).toMatchObject({ status: 'success', bkash_answer: { trxID: trx, transactionStatus: 'Completed' } });
    const told = await t.db.query<{ kind: string }>('SELECT kind FROM player_messages WHERE user_id = $1', [a.id]);
    expect(told.map((m) => m.kind)).toContain('ticket_confirmed');
    // The player sees where the check stands, not bKash's answer; staff see both.
    const own = await mine(a, id).expect(200);
    expect(own.body.bkash_check).toEqual({ trx_id: trx, state: 'confirmed', reason: null, checks: 0, updated_at: expect.any(String) });
    const [row] = (await staffList().expect(200)).body;
    expect(row.bkash_check).toMatchObject({
      state: 'confirmed',
      answer: { trxID: trx, customerMsisdn: '01770618575', receiver: RECEIVER },
    });
    // Final for staff too: no one person takes back a ticket bKash confirmed.
    const back = await to(t, api.updateTransaction, { params: { id }, as: staff }).send({ status: 'pending' });
    expect([back.status, back.body.code]).toEqual([409, 'confirmed_by_bkash']);
  });

  test.each([
    ['wrong_receiver', () => send(100, '01811111111')],
    ['amount_differs', () => send(99)],
    ['amount_differs', () => send('100.50')],
    ['not_found', () => 'NOSUCH1234'],
  ])('%s: refused with bKash answer kept; the purchase stays pending for staff and the statement', async (reason, trx) => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const given = trx();
    await patch(a, id, given).expect(200);
    expect(await status(id)).toBe('pending');
    expect(await check(id)).toMatchObject({ state: 'refused', reason, answer: reason === 'not_found' ? null : { trxID: given } });
    expect((await mine(a, id)).body.bkash_check).toMatchObject({ state: 'refused', reason });
    expect(await audits('transaction.confirmed_by_bkash')).toHaveLength(0);
  });

  test('money sent before the purchase was made is refused (before_purchase)', async () => {
    const lottery = await insertLottery(t);
    const trx = send(100);
    await new Promise((r) => setTimeout(r, 5));
    const id = await pending(a, lottery);
    await patch(a, id, trx).expect(200);
    expect(await check(id)).toMatchObject({ state: 'refused', reason: 'before_purchase' });
  });

  test('money sent after the sales closed is refused (after_close)', async () => {
    const lottery = await insertLottery(t, { end: 1 });
    const id = await pending(a, lottery);
    simNow = Date.now() + 2 * 86_400_000;
    await patch(a, id, send(100)).expect(200);
    expect(await check(id)).toMatchObject({ state: 'refused', reason: 'after_close' });
  });

  test('a TrxID a checkout payment already has is refused (trx_id_used), even though bKash knows it', async () => {
    const lottery = await insertLottery(t);
    const other = await pending(b, lottery, '01-02-03-04-05-06');
    const id = await pending(a, lottery);
    const trx = send(100);
    await t.db.query(
      `INSERT INTO bkash_payments (payment_id, transaction_id, amount, state, trx_id) VALUES ('TR0011used', $1, 100, 'refunded', $2)`,
      [other, trx],
    );
    await patch(a, id, trx).expect(200);
    expect(await check(id)).toMatchObject({ state: 'refused', reason: 'trx_id_used' });
  });

  test('who may: anonymous 401, another player 404, staff 403 staff_cannot_play, bad TrxID 400; none of them asks bKash', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    expect((await patch(null, id, trx)).status).toBe(401);
    expect((await patch(b, id, trx)).status).toBe(404);
    // Staff do not play: a staff account gives no TrxID, not even for a purchase he could look up (decision 047).
    const byStaff = await patch(staff, id, trx);
    expect([byStaff.status, byStaff.body.code]).toEqual([403, 'staff_cannot_play']);
    expect((await patch(a, id, 'no!')).status).toBe(400);
    expect(sim.calls('searchTransaction')).toBe(0);
    expect(await check(id)).toBeUndefined();
  });
  // The embedded database's thread: a transaction holds the database from its BEGIN to its end while every other
  // statement waits, so the TrxID's transaction and bKash's answer's each run there whole, one message from the app
  // (docs/decisions/099-writes-run-on-the-database-thread.md).
  (process.env.TEST_DATABASE_URL ? test.skip : test)(
    'on the embedded database, the TrxID is stored in one message and bKash’s answer settled in one',
    async () => {
      const lottery = await insertLottery(t);
      const id = await pending(a, lottery);
      const trx = send(100);
      const batches = await messagesOf(() => patch(a, id, trx).expect(200));
      expect(runsOf(batches, 'set-trx-id')).toEqual([expect.objectContaining({ id, body: expect.objectContaining({ trx_id: trx }) })]);
      expect(runsOf(batches, 'settle-trx-id')).toEqual([expect.objectContaining({ transactionId: id, trxId: trx })]);
      // None of their statements went from the app's thread.
      expect(transactionsLocking(batches, id)).toEqual([]);
      expect(await status(id)).toBe('success');
      // bKash's answer refused (another amount): settled the same way, the purchase left pending.
      const other = await pending(a, lottery, '01-02-03-04-06-07');
      const refusing = await messagesOf(() => patch(a, other, send(99)).expect(200));
      expect(runsOf(refusing, 'settle-trx-id')).toEqual([expect.objectContaining({ transactionId: other })]);
      expect(transactionsLocking(refusing, other)).toEqual([]);
      expect(await check(other)).toMatchObject({ state: 'refused', reason: 'amount_differs' });
      expect(await status(other)).toBe('pending');
    },
  );
});

describe('a TrxID given with the purchase', () => {
  test('confirmed before the answer: 201 with status success', async () => {
    const lottery = await insertLottery(t);
    simNow = Date.now() + 60_000; // bKash completes the money a minute after the purchase is made
    const trx = send(100);
    const res = await buy(t, a, purchase(lottery, TICKET, { trx_id: trx }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'success', trx_id: trx, bkash_check: { state: 'confirmed' } });
  });
});

describe('bKash unreachable', () => {
  test('the player is told "checking"; the reconciliation job asks again later and confirms', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    bkashDown();
    await patch(a, id, trx).expect(200);
    expect(await check(id)).toMatchObject({ state: 'checking', checks: 1 });
    expect((await mine(a, id)).body).toMatchObject({ status: 'pending', bkash_check: { state: 'checking' } });
    // Not asked again before its time.
    expect(await t.app.payments.reconcile(180)).toBe(0);
    await t.db.query(`UPDATE trx_id_checks SET created_at = now() - interval '10 minutes' WHERE transaction_id = $1`, [id]);
    expect(await t.app.payments.reconcile(180)).toBe(1);
    expect(await status(id)).toBe('success');
    expect(await check(id)).toMatchObject({ state: 'confirmed' });
    // A second run finds nothing open.
    expect(await t.app.payments.reconcile(180)).toBe(0);
  });

  // docs/decisions/103-a-trx-id-check-begun-with-it.md: the statement that stores a TrxID begins its check, so a process
  // that stops between the commit and bKash's question leaves an open check for the job, never a TrxID with none.
  test('the check is begun with the TrxID: when bKash is never asked after the commit, the job asks', async () => {
    const lottery = await insertLottery(t);
    const later = await pending(a, lottery);
    const trxLater = send(100);
    const withIt = send(100);
    // The app stops after each commit, before asking bKash.
    const stopped = jest.spyOn(t.app.payments, 'trxIdGiven').mockResolvedValue(undefined);
    const typed = await (async () => {
      try {
        await patch(a, later, trxLater).expect(200);
        const res = await buy(t, a, purchase(lottery, '01-02-03-04-05-06', { trx_id: withIt, payment_number: '01770618575' }));
        expect(res.status).toBe(201);
        const id = res.body.id as number;
        expect(stopped.mock.calls).toEqual([[{ transaction_id: later, trx_id: trxLater }], [{ transaction_id: id, trx_id: withIt }]]);
        return id;
      } finally {
        stopped.mockRestore();
      }
    })();
    expect(sim.calls('searchTransaction')).toBe(0);
    for (const id of [later, typed]) expect(await check(id)).toMatchObject({ state: 'checking', checks: 0 });
    await t.db.query(`UPDATE trx_id_checks SET created_at = now() - interval '10 minutes'`);
    expect(await t.app.payments.reconcile(180)).toBe(2);
    expect(await check(later)).toMatchObject({ state: 'confirmed' });
    expect(await status(later)).toBe('success');
    // Money sent before a purchase is never its payment (the rule's before_purchase): asked, and refused.
    expect(await check(typed)).toMatchObject({ state: 'refused', reason: 'before_purchase' });
  });

  test('a TrxID given again, the same one, asks nothing more', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    bkashDown();
    await patch(a, id, trx).expect(200);
    const asked = sim.calls('searchTransaction');
    expect(asked).toBeGreaterThan(0);
    await patch(a, id, trx).expect(200);
    expect(sim.calls('searchTransaction')).toBe(asked);
    expect(await check(id)).toMatchObject({ state: 'checking' });
  });

  test('twenty checks at once: exactly one confirmation', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    bkashDown();
    await patch(a, id, trx).expect(200);
    expect(await check(id)).toMatchObject({ state: 'checking' });
    await Promise.all(Array.from({ length: 20 }, () => t.app.payments.trxIdGiven({ transaction_id: id, trx_id: trx })));
    await t.settled();
    expect(await status(id)).toBe('success');
    expect(await audits('transaction.confirmed_by_bkash')).toHaveLength(1);
    const told = await t.db.query('SELECT 1 FROM player_messages WHERE user_id = $1', [a.id]);
    expect(told).toHaveLength(1);
  });

  test('a purchase staff decided meanwhile is left as staff left it', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    bkashDown();
    await patch(a, id, trx).expect(200);
    await to(t, api.updateTransaction, { params: { id }, as: staff }).send({ status: 'failed' }).expect(200);
    // bKash answers now: the check ends without touching the purchase, and the job finds nothing left to ask.
    await t.app.payments.trxIdGiven({ transaction_id: id, trx_id: trx });
    await t.settled();
    expect(await check(id)).toMatchObject({ state: 'left', reason: 'changed_meanwhile' });
    expect(await status(id)).toBe('failed');
    await t.db.query(`UPDATE trx_id_checks SET created_at = now() - interval '10 minutes' WHERE transaction_id = $1`, [id]);
    expect(await t.app.payments.reconcile(180)).toBe(0);
  });
});

describe('the pages, without JavaScript', () => {
  async function giveOnPage(p: Player, id: number, trx: string, lang: 'en' | 'bn') {
    const agent = await loginAs(t.url, p.phone, 'secret-pass-1');
    agent.set('Cookie', `lang=${lang}`);
    const page = await agent.get(`/payment/${id}`).expect(200);
    const posted = await agent
      .post(`/payment/${id}`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), trx_id: trx, payment_number: '' });
    expect(posted.status).toBe(303);
    return (await agent.get(posted.headers.location as string).expect(200)).text;
  }

  test('the TrxID form: bKash confirmed it, and the page the form leads to is the receipt, in English and Bengali', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(100);
    const text = await giveOnPage(a, id, trx, 'en');
    // docs/rules/payments.md#10-the-receipt
    expect(text).toContain('<h1>Ticket confirmed ✓</h1>');
    expect(text).toContain(`<dd class="payment__trx">${trx}</dd>`);
    expect(text).toContain('05-12-23-34-45-07');
    expect(text).toContain('Buy another');
    expect(text).not.toContain('name="trx_id"');
    expect(await status(id)).toBe('success');
    const other = await pending(b, lottery, '01-02-03-04-05-07');
    const trxBn = send(100);
    const bn = await giveOnPage(b, other, trxBn, 'bn');
    expect(bn).toContain('<h1>টিকিট নিশ্চিত ✓</h1>');
    expect(bn).toContain(`<dd class="payment__trx">${trxBn}</dd>`);
    expect(bn).toContain('আমার টিকিট');
  });

  test('in Bengali: a refusal with its reason; "checking" while bKash does not answer', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const text = await giveOnPage(a, id, send(100, '01811111111'), 'bn');
    expect(text).toContain('বিকাশ আপনার ট্রানজেকশন আইডি (TrxID)');
    expect(text).toContain('টাকা আমাদের বিকাশ নম্বরে পাঠানো হয়নি।');
    const other = await pending(b, lottery, '01-02-03-04-05-06');
    bkashDown();
    const waiting = await giveOnPage(b, other, send(100), 'bn');
    expect(waiting).toContain('বিকাশের সাথে যাচাই করা হচ্ছে');
  });

  test("staff see bKash's check, its reason and bKash's answer on the transactions page", async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const trx = send(99);
    await patch(a, id, trx).expect(200);
    const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    agent.set('Cookie', 'lang=en');
    const page = await agent.get('/admin/transactions').expect(200);
    const card = page.text.slice(page.text.indexOf(`aria-labelledby="transaction-${id}"`));
    const own = card.slice(0, card.indexOf('</article>'));
    expect(own).toContain('Refused by bKash&#x27;s answer');
    expect(own).toContain('another amount');
    expect(own).toContain(`bKash: Completed, from 01770618575 to ${RECEIVER}`);
    // Staff may still decide it by hand (the statement is a second source).
    expect(own).toContain('<form');
  });
});
