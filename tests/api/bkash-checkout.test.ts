/**
 * Paying with bKash's checkout (docs/rules/payments.md), against the bKash simulator over HTTP: the purchase is
 * confirmed on bKash's word with no staff step; cancel, failure, a lost or refused execute, a callback twice, two
 * reconciliation runs at once, money that cannot become a ticket (refunded), who may start a checkout, bad input.
 * On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { freezeDue } from '../../server/draws/freeze-job.ts';
import { SIMULATOR_CREDENTIALS } from '../../server/config.ts';
import { BkashClient } from '../../server/payments/bkash/client.ts';
import { SANDBOX, type BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { Payments } from '../../server/payments/service.ts';
import type { TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { appWithSimulator, buy, freshPayments, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let sim: BkashSimulator;
let close: () => Promise<void>;
let simUrl: string;
let a: Player, b: Player, staff: Player;

beforeAll(async () => {
  ({ t, sim, simUrl, a, b, staff, close } = await appWithSimulator());
});
afterAll(() => close());
beforeEach(async () => {
  // Each test's messages alone (a player's daily SMS cap would otherwise count the earlier tests').
  await freshPayments(t, sim);
  t.messages.length = 0;
});

const TICKET = '05-12-23-34-45-07';

/** A pending purchase of `p` (no TrxID), its id. */
async function pending(p: Player, lottery: number, ticket = TICKET): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, { payment_number: undefined }));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const start = (p: Player | null, id: number | string, lang = 'en') => to(t, api.startCheckout, { params: { id }, as: p, lang });

/** The callback as the player's browser brings it back: by default the purchase's owner, logged in (`a`). */
const callback = (body: object, lang = 'en', as: Player | null = a) => to(t, api.bkashCallback, { as, lang }).send(body);
/** What a callback tells anyone but the purchase's owner: nothing. */
const NOTHING = { transaction_id: null, outcome: null, checkout: null };

/** Starts the checkout of a new pending purchase: the transaction and bKash's paymentID. */
async function started(p: Player, lottery: number, ticket = TICKET): Promise<{ id: number; paymentID: string }> {
  const id = await pending(p, lottery, ticket);
  const res = await start(p, id).expect(201);
  return { id, paymentID: res.body.payment_id as string };
}

const txn = (id: number) =>
  t.db.one<{ status: string; trx_id: string | null }>('SELECT status, trx_id FROM transactions WHERE id = $1', [id]);
const payment = (pid: string) =>
  t.db.one<{ state: string; trx_id: string | null; reason: string | null; refund_trx_id: string | null }>(
    'SELECT state, trx_id, reason, refund_trx_id FROM bkash_payments WHERE payment_id = $1',
    [pid],
  );
const audits = (action: string) => t.db.query('SELECT * FROM audit_log WHERE action = $1', [action]);
/** Makes a payment look older than the reconciliation job's wait. */
const age = (pid: string) =>
  t.db.query(`UPDATE bkash_payments SET created_at = now() - interval '10 minutes' WHERE payment_id = $1`, [pid]);

describe('POST /api/v1/transactions/{id}/bkash-checkout/', () => {
  test('bKash makes a payment for the stored amount and invoice; the player is sent to its page', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const id = await pending(a, lottery);
    const res = await start(a, id).expect(201);
    expect(res.body).toEqual({ transaction_id: id, payment_id: expect.any(String), bkash_url: expect.any(String) });
    expect(res.body.bkash_url).toContain(`/checkout/${res.body.payment_id}`);
    const made = sim.payment(res.body.payment_id);
    expect(made).toMatchObject({ amount: '100', merchantInvoiceNumber: String(id), payerReference: a.phone });
    expect(made?.callbackURL).toBe(`${t.url}/payment/bkash/callback`);
    expect(await payment(res.body.payment_id)).toMatchObject({ state: 'created', trx_id: null });
    expect(await txn(id)).toEqual({ status: 'pending', trx_id: null });
  });

  test('anonymous 401, staff 403; another player’s, an unknown purchase or an id that is none 404; nothing made at bKash', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    expect((await start(null, id)).status).toBe(401);
    const other = await start(b, id);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('not_found');
    // Staff do not play: refused before the purchase is looked for (docs/rules/accounts-and-codes.md#12-staff-and-superusers).
    const byStaff = await start(staff, id);
    expect([byStaff.status, byStaff.body.code]).toEqual([403, 'staff_cannot_play']);
    const unknown = await start(a, 999999);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    expect((await start(a, 'abc')).status).toBe(404);
    expect((await t.db.query('SELECT * FROM bkash_payments')).length).toBe(0);
  });

  test('a purchase with a TrxID already, one no longer pending, one whose sales closed: 409 in the caller’s language', async () => {
    const lottery = await insertLottery(t);
    const withTrx = await pending(a, lottery, '01-02-03-04-05-01');
    await to(t, api.setTrxId, { params: { id: withTrx }, as: a })
      .send({ trx_id: trxId() })
      .expect(200);
    expect((await start(a, withTrx)).body.code).toBe('trx_id_given');

    const failed = await pending(a, lottery, '01-02-03-04-05-02');
    await t.db.query(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [failed]);
    const notPending = await start(a, failed, 'bn');
    expect(notPending.status).toBe(409);
    expect(notPending.body).toEqual({ detail: 'এই কেনাকাটা আর পেমেন্টের অপেক্ষায় নেই।', code: 'not_pending' });

    const closed = await pending(a, lottery, '01-02-03-04-05-03');
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [lottery]);
    const late = await start(a, closed);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ detail: 'This lottery is no longer on sale, so it cannot be paid for.', code: 'sales_closed' });
    expect((await t.db.query('SELECT * FROM bkash_payments')).length).toBe(0);
  });

  test('bKash not answering: 503 with a clear message, nothing stored', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    for (let i = 0; i < 4; i++) sim.failNext('create', 'http500');
    const res = await start(a, id);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      detail: 'bKash is not answering just now. Please try again in a moment, or pay with Send Money.',
      code: 'bkash_unavailable',
    });
    expect((await t.db.query('SELECT * FROM bkash_payments')).length).toBe(0);
    expect(await txn(id)).toEqual({ status: 'pending', trx_id: null });
  });
});

describe('the purchase’s answer and its checkout', () => {
  test('a new purchase answers checkout null; its retry after the checkout started answers with the checkout', async () => {
    const lottery = await insertLottery(t);
    const body = purchase(lottery, TICKET, { payment_number: undefined });
    const made = await buy(t, a, body, 'checkout-retry');
    expect(made.status).toBe(201);
    expect(made.body.checkout).toBeNull();
    const res = await start(a, made.body.id).expect(201);
    const again = await buy(t, a, body, 'checkout-retry');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(made.body.id);
    expect(again.body.checkout).toEqual({
      payment_id: res.body.payment_id,
      state: 'created',
      trx_id: null,
      reason: null,
      refund_trx_id: null,
      created_at: expect.any(String),
    });
  });
});

describe('the callback: confirmed without staff', () => {
  test('success: executed, the purchase success with bKash’s TrxID, audited as the system’s, the player told by SMS', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    const back = await sim.pay(paymentID, SANDBOX);
    expect(back).toContain('status=success');
    const res = await callback({ paymentID, status: 'success' }).expect(200);
    const bkTrx = sim.payment(paymentID)?.trxID;
    expect(bkTrx).toMatch(/^[A-Z0-9]{10}$/);
    expect(res.body).toEqual({
      transaction_id: id,
      outcome: 'confirmed',
      checkout: {
        payment_id: paymentID,
        state: 'completed',
        trx_id: bkTrx,
        reason: null,
        refund_trx_id: null,
        created_at: expect.any(String),
      },
    });
    expect(await txn(id)).toEqual({ status: 'success', trx_id: bkTrx });
    const [record] = await audits('transaction.confirmed_by_bkash');
    expect(record).toMatchObject({ actor_id: null, entity: 'transaction', entity_id: String(id) });
    await t.settled();
    // The player's message, sent by the next run of the sender, in his language (Bengali unless he chose English).
    await t.app.messages.dispatch();
    const sms = t.messages.filter((m) => m.purpose === 'ticket_confirmed');
    expect(sms).toEqual([expect.objectContaining({ channel: 'sms', to: a.phone })]);
    expect(sms[0]?.text).toMatch(/^ভাগ্য: টিকিট .+ নিশ্চিত/);
    // The player's own view of the purchase says so.
    const mine = await to(t, api.myTransaction, { params: { id }, as: a }).expect(200);
    expect(mine.body.checkout).toMatchObject({ state: 'completed', trx_id: bkTrx });
  });

  test('the callback twice (and a forged cancel after it): executed once, one record, nothing changes', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    const [first, second] = await Promise.all([callback({ paymentID, status: 'success' }), callback({ paymentID, status: 'success' })]);
    expect([first.body.outcome, second.body.outcome]).toEqual(['confirmed', 'confirmed']);
    const late = await callback({ paymentID, status: 'cancel' }).expect(200);
    expect(late.body.outcome).toBe('confirmed');
    expect(sim.payment(paymentID)?.executed).toBe(1);
    expect(await audits('transaction.confirmed_by_bkash')).toHaveLength(1);
    expect((await txn(id))?.status).toBe('success');
  });

  test('the simulator sending the callback twice by itself: settled once', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    sim.callbackTwice(true);
    const back = await sim.pay(paymentID, SANDBOX);
    await callback({ paymentID, status: 'success' }).expect(200);
    // The simulator's own second GET reaches the callback page, which calls the same endpoint.
    await new Promise((r) => setTimeout(r, 300));
    expect(back).toContain(paymentID);
    expect(sim.payment(paymentID)?.executed).toBe(1);
    expect(await audits('transaction.confirmed_by_bkash')).toHaveLength(1);
    expect((await txn(id))?.status).toBe('success');
  });

  test('cancel: no money, the purchase failed and its combination free for anyone', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    const back = await sim.cancel(paymentID);
    expect(back).toContain('status=cancel');
    const res = await callback({ paymentID, status: 'cancel' }).expect(200);
    expect(res.body.outcome).toBe('cancelled');
    expect(await txn(id)).toEqual({ status: 'failed', trx_id: null });
    expect(await payment(paymentID)).toMatchObject({ state: 'cancelled' });
    expect(await audits('transaction.checkout_failed')).toHaveLength(1);
    expect((await buy(t, b, purchase(lottery, TICKET))).status).toBe(201);
  });

  test('failure (a wallet without balance): the purchase failed', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    const back = await sim.pay(paymentID, { ...SANDBOX, wallet: '01711111111' });
    expect(back).toContain('status=failure');
    const res = await callback({ paymentID, status: 'failure' }).expect(200);
    expect(res.body.outcome).toBe('failed');
    expect((await txn(id))?.status).toBe('failed');
  });

  test('the execute answer lost after bKash completed it: asked at once, confirmed', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    sim.failNext('execute', 'lose_answer');
    const res = await callback({ paymentID, status: 'success' }).expect(200);
    expect(res.body.outcome).toBe('confirmed');
    expect((await txn(id))?.status).toBe('success');
    expect(sim.payment(paymentID)?.executed).toBe(1);
  });

  test('execute timed out and bKash not answering the status either: pending, then the reconciliation settles it once', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    sim.failNext('execute', 'lose_answer');
    for (let i = 0; i < 3; i++) sim.failNext('status', 'http500');
    const res = await callback({ paymentID, status: 'success' }).expect(200);
    expect(res.body.outcome).toBe('pending');
    expect((await txn(id))?.status).toBe('pending');
    // Too young for the job: left alone.
    expect(await t.app.payments.reconcile(180)).toBe(0);
    await age(paymentID);
    // Two instances' jobs at once (another Payments on the same database and the same bKash): exactly one settles.
    const other = new Payments({
      db: t.db,
      gateway: new BkashClient({ baseUrl: simUrl, ...SIMULATOR_CREDENTIALS, timeoutMs: 3000 }),
      log: t.app.log,
      defer: (task) => void task(),
      receiver: '01700000000',
    });
    const [n1, n2] = await Promise.all([t.app.payments.reconcile(180), other.reconcile(180)]);
    expect(n1 + n2).toBe(1);
    expect((await txn(id))?.status).toBe('success');
    expect(await audits('transaction.confirmed_by_bkash')).toHaveLength(1);
    // A later run finds nothing open.
    expect(await t.app.payments.reconcile(180)).toBe(0);
  });

  test('bKash slower than the player may wait: the callback answers “pending” in time, the rest goes on behind it', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    sim.failNext('execute', 'timeout');
    const began = Date.now();
    const res = await callback({ paymentID, status: 'success' }).expect(200);
    // 0.6 × UPSTREAM_TIMEOUT_MS (2,400 ms here), before bKash's own timeout (3,000 ms) and the status asked after it.
    // The timeouts are long enough that page logins through the same server do not hit them on a busy machine.
    expect(Date.now() - began).toBeLessThan(3000);
    expect(res.body.outcome).toBe('pending');
    await t.settled();
    // The execute never happened at bKash: the payment stays open for the job, the purchase pending.
    expect(await payment(paymentID)).toMatchObject({ state: 'created' });
    expect((await txn(id))?.status).toBe('pending');
  });

  test('a player who paid and closed his browser (no callback at all): the reconciliation confirms it', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    // bKash completes a payment the merchant did not execute only through execute: the job asks, sees "Initiated", waits.
    await age(paymentID);
    expect(await t.app.payments.reconcile(180)).toBe(1);
    expect((await txn(id))?.status).toBe('pending');
    expect(await t.db.one('SELECT checks FROM bkash_payments WHERE payment_id = $1', [paymentID])).toEqual({ checks: 1 });
    // Its lease holds: no run, on this instance or another, asks again before it runs out; after it, one does.
    expect(await t.app.payments.reconcile(180)).toBe(0);
    await t.db.query(`UPDATE bkash_payments SET lease_until = now() - interval '1 second' WHERE payment_id = $1`, [paymentID]);
    expect(await t.app.payments.reconcile(180)).toBe(1);
    expect(await t.db.one('SELECT checks FROM bkash_payments WHERE payment_id = $1', [paymentID])).toEqual({ checks: 2 });
  });

  test('a forged cancel or failure while bKash says Initiated changes nothing and tells its sender nothing', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    // The player authorised it on bKash's page; bKash says "Initiated" until we execute it.
    await sim.pay(paymentID, SANDBOX);
    for (const [status, as] of [
      ['cancel', null],
      ['failure', null],
      ['cancel', b],
      ['failure', staff],
    ] as const) {
      const res = await callback({ paymentID, status }, 'en', as).expect(200);
      expect(res.body).toEqual(NOTHING);
      expect(JSON.stringify(res.body)).not.toContain(String(id));
    }
    expect(await payment(paymentID)).toMatchObject({ state: 'created' });
    expect(await txn(id)).toEqual({ status: 'pending', trx_id: null });
    expect(await audits('transaction.checkout_failed')).toHaveLength(0);
    // The owner's own cancel while bKash still says Initiated: the same, his page says we are waiting for bKash.
    expect((await callback({ paymentID, status: 'cancel' }).expect(200)).body).toMatchObject({ transaction_id: id, outcome: 'pending' });
    expect(await payment(paymentID)).toMatchObject({ state: 'created' });
    // His success then confirms it.
    expect((await callback({ paymentID, status: 'success' }).expect(200)).body.outcome).toBe('confirmed');
    expect((await txn(id))?.status).toBe('success');
  });

  test('anyone but the owner is told nothing of a payment, settled or not; the owner is told', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    // An anonymous success callback (bKash's browser without cookies) still executes it: bKash's word decides.
    expect((await callback({ paymentID, status: 'success' }, 'en', null).expect(200)).body).toEqual(NOTHING);
    expect((await txn(id))?.status).toBe('success');
    for (const as of [null, b, staff])
      expect((await callback({ paymentID, status: 'cancel' }, 'en', as).expect(200)).body).toEqual(NOTHING);
    const mine = await callback({ paymentID, status: 'cancel' }).expect(200);
    expect(mine.body).toMatchObject({ transaction_id: id, outcome: 'confirmed', checkout: { payment_id: paymentID, state: 'completed' } });
  });

  test('a cancel bKash confirms (Cancelled) ends the purchase even from an anonymous callback, which learns nothing', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.cancel(paymentID);
    expect((await callback({ paymentID, status: 'cancel' }, 'en', null).expect(200)).body).toEqual(NOTHING);
    expect(await payment(paymentID)).toMatchObject({ state: 'cancelled' });
    expect(await txn(id)).toEqual({ status: 'failed', trx_id: null });
  });

  test('unknown paymentID 404; a bad body 400; each in the caller’s language; nothing changed', async () => {
    const unknown = await callback({ paymentID: 'TR0011NOSUCHPAYMENT', status: 'success' }, 'bn');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'এই বিকাশ পেমেন্ট খুঁজে পাওয়া যায়নি।', code: 'not_found' });
    for (const body of [
      {},
      { paymentID: 'X1' },
      { paymentID: 'X1', status: 'paid' },
      { paymentID: 'bad id!', status: 'success' },
      { paymentID: 'X'.repeat(101), status: 'success' },
      { paymentID: 'X1', status: 'success', amount: '1' },
      { paymentID: 5, status: 'success' },
    ]) {
      const res = await callback(body);
      expect(res.status).toBe(400);
    }
    expect((await t.db.query('SELECT * FROM audit_log')).length).toBe(0);
  });
});

describe('refunds: money that cannot become a ticket goes back', () => {
  test('sales closed between the start and the payment: refunded once, the purchase failed, the player told', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 second' WHERE id = $1`, [lottery]);
    const res = await callback({ paymentID, status: 'success' }).expect(200);
    expect(res.body.outcome).toBe('refunded');
    await t.settled();
    const p = await payment(paymentID);
    expect(p).toMatchObject({ state: 'refunded', reason: 'sales_closed', refund_trx_id: expect.any(String) });
    expect(sim.payment(paymentID)?.refunds).toHaveLength(1);
    expect(await txn(id)).toEqual({ status: 'failed', trx_id: null });
    expect(await audits('payment.refund_due')).toHaveLength(1);
    expect(await audits('payment.refunded')).toHaveLength(1);
    await t.app.messages.dispatch();
    const refunded = t.messages.filter((m) => m.purpose === 'payment_refunded');
    expect(refunded).toEqual([expect.objectContaining({ channel: 'sms', to: a.phone })]);
    expect(refunded[0]?.text).toContain(p?.refund_trx_id as string);
    // The job finds nothing more to do, and never refunds twice.
    await age(paymentID);
    expect(await t.app.payments.reconcile(180)).toBe(0);
    expect(sim.payment(paymentID)?.refunds).toHaveLength(1);
  });

  test('a checkout still open when the tickets froze: the ticket rejected; money bKash took after is refunded (sales_closed)', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 second' WHERE id = $1`, [lottery]);
    expect(await freezeDue(t.db)).toBe(1);
    expect(await txn(id)).toEqual({ status: 'failed', trx_id: null });
    expect((await payment(paymentID))?.state).toBe('created');
    // The player finishes on bKash's page after the close and comes back: the money is not a ticket any more.
    await sim.pay(paymentID, SANDBOX);
    await age(paymentID);
    await callback({ paymentID, status: 'success' }).expect(200);
    await t.settled();
    expect(await payment(paymentID)).toMatchObject({ state: 'refunded', reason: 'sales_closed', refund_trx_id: expect.any(String) });
    expect(sim.payment(paymentID)?.refunds).toHaveLength(1);
    expect(await txn(id)).toEqual({ status: 'failed', trx_id: null });
    expect(await audits('transaction.confirmed_by_bkash')).toHaveLength(0);
  });

  test('one purchase paid twice (two checkouts): the first confirms, the second is refunded', async () => {
    const lottery = await insertLottery(t);
    const id = await pending(a, lottery);
    const one = (await start(a, id).expect(201)).body.payment_id as string;
    const two = (await start(a, id).expect(201)).body.payment_id as string;
    await sim.pay(one, SANDBOX);
    await sim.pay(two, SANDBOX);
    expect((await callback({ paymentID: one, status: 'success' })).body.outcome).toBe('confirmed');
    expect((await callback({ paymentID: two, status: 'success' })).body.outcome).toBe('refunded');
    await t.settled();
    expect(await payment(two)).toMatchObject({ state: 'refunded', reason: 'already_paid' });
    expect((await txn(id))?.status).toBe('success');
  });

  test('a payment whose amount is not the purchase’s: refunded, never confirmed', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    await t.db.query('UPDATE transactions SET amount = 200 WHERE id = $1', [id]);
    await sim.pay(paymentID, SANDBOX);
    expect((await callback({ paymentID, status: 'success' })).body.outcome).toBe('refunded');
    await t.settled();
    expect(await payment(paymentID)).toMatchObject({ state: 'refunded', reason: 'amount_mismatch' });
    expect((await txn(id))?.status).toBe('failed');
  });

  test('the refund’s answer lost: stays due, and the job finds the refund made instead of making another', async () => {
    const lottery = await insertLottery(t);
    const { paymentID } = await started(a, lottery);
    await sim.pay(paymentID, SANDBOX);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 second' WHERE id = $1`, [lottery]);
    sim.failNext('refund', 'lose_answer');
    await callback({ paymentID, status: 'success' }).expect(200);
    await t.settled();
    expect(await payment(paymentID)).toMatchObject({ state: 'refund_due' });
    expect(sim.payment(paymentID)?.refunds).toHaveLength(1);
    await age(paymentID);
    await t.db.query('UPDATE bkash_payments SET lease_until = NULL');
    expect(await t.app.payments.reconcile(180)).toBe(1);
    expect(await payment(paymentID)).toMatchObject({ state: 'refunded', refund_trx_id: sim.payment(paymentID)?.refunds[0]?.refundTrxID });
    expect(sim.payment(paymentID)?.refunds).toHaveLength(1);
  });
});

describe('what staff see', () => {
  const dashboard = async () => (await to(t, api.dashboard, { as: staff }).expect(200)).body;

  test('each purchase’s checkout on the transactions list; the dashboard counts payments still open; the audit log names the system', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    const sendMoney = await pending(b, lottery, '01-02-03-04-05-06');
    expect((await dashboard()).payments_waiting).toBe(1);
    const before = await to(t, api.transactions, { as: staff }).expect(200);
    const row = (x: number) => (before.body as { id: number; checkout: unknown }[]).find((r) => r.id === x);
    expect(row(id)?.checkout).toMatchObject({ payment_id: paymentID, state: 'created', trx_id: null });
    expect(row(sendMoney)?.checkout).toBeNull();
    await sim.pay(paymentID, SANDBOX);
    await callback({ paymentID, status: 'success' }).expect(200);
    expect((await dashboard()).payments_waiting).toBe(0);
    const one = await to(t, api.transactions, { query: { search: (await txn(id))?.trx_id }, as: staff }).expect(200);
    expect(one.body).toEqual([
      expect.objectContaining({ id, status: 'success', checkout: expect.objectContaining({ state: 'completed' }) }),
    ]);
    // Staff cannot take back a ticket bKash confirmed.
    for (const status of ['pending', 'failed'])
      expect((await to(t, api.updateTransaction, { params: { id }, as: staff, lang: 'bn' }).send({ status })).body).toEqual({
        detail: expect.stringContaining('বিকাশ এই পেমেন্ট নিশ্চিত করেছে'),
        code: 'confirmed_by_bkash',
      });
    expect((await txn(id))?.status).toBe('success');
    const staffAgent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    const page = await staffAgent.get('/admin/transactions').expect(200);
    expect(page.text).toContain('bKash checkout');
    expect(page.text).toContain('Paid, confirmed by bKash');
    const card = page.text.slice(page.text.indexOf(`aria-labelledby="transaction-${id}"`));
    expect(card.slice(0, card.indexOf('</article>'))).not.toContain('<form');
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [staff.id]);
    const audit = await staffAgent.get('/admin/audit-log').expect(200);
    expect(audit.text).toContain('transaction.confirmed_by_bkash');
    expect(audit.text).toContain('The system (on bKash&#x27;s word)');
    await t.db.query('UPDATE users SET is_superuser = false WHERE id = $1', [staff.id]);
  });
});

describe('the pages, without JavaScript', () => {
  test('payment page → Pay with bKash → bKash’s page → back → the receipt: “Ticket confirmed ✓”, in both languages', async () => {
    const lottery = await insertLottery(t, { name: 'Page Draw', name_bn: 'পাতার ড্র' });
    // Sales close (and the draw follows) on Saturday 5 January 2030, 20:00 in Dhaka.
    await t.db.query(`UPDATE lotteries SET end_date = '2030-01-05T14:00:00Z' WHERE id = $1`, [lottery]);
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    const id = await pending(a, lottery);
    const page = await agent.get(`/payment/${id}`).expect(200);
    expect(page.text).toContain(`action="/payment/${id}/bkash"`);
    expect(page.text).toContain('Or: Send Money and enter the TrxID');
    const go = await agent
      .post(`/payment/${id}/bkash`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text) });
    expect(go.status).toBe(303);
    const bkashUrl = go.headers.location as string;
    const paymentID = /\/checkout\/([^/?#]+)/.exec(bkashUrl)?.[1] as string;
    expect(sim.payment(paymentID)).toBeDefined();
    const back = new URL(await sim.pay(paymentID, SANDBOX));
    const ret = await agent.get(back.pathname + back.search);
    expect(ret.status).toBe(303);
    expect(ret.headers.location).toBe(`/payment/${id}`);
    const done = await agent.get(`/payment/${id}`).expect(200);
    const trx = (await t.db.one<{ trx_id: string }>('SELECT trx_id FROM transactions WHERE id = $1', [id]))!.trx_id;
    expect(trx).toMatch(/^[A-Z0-9]{8,20}$/);
    const shown = done.text.replace(/<script\b[\s\S]*?<\/script>/g, '');
    expect(shown).toContain('<h1>Ticket confirmed ✓</h1>');
    expect(shown).not.toContain('Paying for your ticket');
    expect(shown).toContain('Page Draw');
    expect(shown).toContain('05-12-23-34-45-07');
    expect(shown).toContain('<dd><span class="nowrap">5 Jan 2030,</span> <span class="nowrap">8:00 PM</span></dd>');
    expect(shown).toContain('TK. 100');
    expect(shown).toContain(trx);
    expect(shown).toContain(`href="/quick-play?lottery=${lottery}"`);
    expect(shown).toMatch(/href="\/my-lotteries"[^>]*>My tickets</);
    expect(shown).not.toContain(`action="/payment/${id}/bkash"`);
    const bn = (await agent.get(`/payment/${id}?lng=bn`).redirects(1).expect(200)).text.replace(/<script\b[\s\S]*?<\/script>/g, '');
    expect(bn).toContain('<h1>টিকিট নিশ্চিত ✓</h1>');
    expect(bn).toContain('পাতার ড্র');
    expect(bn).toMatch(/৫ জানু[^<]* ২০৩০,<\/span> <span class="nowrap">রাত ৮:০০/);
    expect(bn).toContain('৳১০০');
    expect(bn).toContain(trx);
    expect(bn).toContain('আরেকটি কিনুন');
  });

  test('the ticket page’s “Pay with bKash” buys and goes straight to bKash; “Send Money” to the payment page', async () => {
    const lottery = await insertLottery(t, { name: 'Ticket Page Draw' });
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    const ticketPage = await agent.get(`/quick-play/${lottery}/${TICKET}`).expect(200);
    expect(ticketPage.text).toMatch(/name="pay" value="checkout"|value="checkout"[^>]*name="pay"/);
    const key = /name="idempotency_key"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="idempotency_key"/.exec(ticketPage.text);
    const form = { _csrf: csrfFrom(ticketPage.text), idempotency_key: key?.[1] ?? key?.[2] ?? '', amount: '100', payment_method: 'bkash' };
    const go = await agent
      .post(`/quick-play/${lottery}/${TICKET}/buy`)
      .type('form')
      .send({ ...form, pay: 'checkout' });
    expect(go.status).toBe(303);
    expect(go.headers.location).toMatch(/\/checkout\/[^/]+$/);
    const [bought] = await t.db.query<{ id: number; status: string }>('SELECT id, status FROM transactions WHERE lottery_id = $1', [
      lottery,
    ]);
    expect(bought?.status).toBe('pending');
    expect(await t.db.query('SELECT payment_id FROM bkash_payments WHERE transaction_id = $1', [bought?.id])).toHaveLength(1);

    // bKash down: the purchase stands, the payment page says so and offers both ways again.
    const other = await agent.get(`/quick-play/${lottery}/01-02-03-04-05-06`).expect(200);
    const k2 = /name="idempotency_key"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="idempotency_key"/.exec(other.text);
    for (let i = 0; i < 4; i++) sim.failNext('create', 'http500');
    const down = await agent
      .post(`/quick-play/${lottery}/01-02-03-04-05-06/buy`)
      .type('form')
      .send({ ...form, _csrf: csrfFrom(other.text), idempotency_key: k2?.[1] ?? k2?.[2] ?? '', pay: 'checkout' });
    expect(down.status).toBe(303);
    expect(down.headers.location).toMatch(/^\/payment\/\d+\?checkout=unavailable$/);
    const page = await agent.get(down.headers.location as string).expect(200);
    expect(page.text).toContain('bKash is not answering just now.');
    expect(page.text).toContain('Or: Send Money and enter the TrxID');
  });

  test('in Bengali, a cancelled payment says so and offers to buy again; an unknown payment is a clear page', async () => {
    const lottery = await insertLottery(t);
    const agent = await loginAs(t.url, b.phone, 'secret-pass-1');
    agent.set('Cookie', 'lang=bn');
    const { id, paymentID } = await started(b, lottery);
    const back = new URL(await sim.cancel(paymentID));
    const ret = await agent.get(back.pathname + back.search).expect(303);
    const page = await agent.get(ret.headers.location as string).expect(200);
    expect(page.text).toContain('আপনি বিকাশে পেমেন্ট বাতিল করেছেন');
    expect(page.text).toContain('আবার টিকিট কিনুন');
    expect((await txn(id))?.status).toBe('failed');
    const unknown = await agent.get('/payment/bkash/callback?paymentID=NOSUCH&status=success');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('এই বিকাশ পেমেন্ট খুঁজে পাওয়া যায়নি');
    const bad = await agent.get('/payment/bkash/callback?status=success');
    expect(bad.status).toBe(400);
  });

  test('the callback page: the owner goes to his payment page; anyone else sees only that the payment is being checked', async () => {
    const lottery = await insertLottery(t);
    const { id, paymentID } = await started(a, lottery);
    const back = new URL(await sim.pay(paymentID, SANDBOX));
    const address = back.pathname + back.search;
    // Without cookies (bKash's duplicate, another browser): a neutral page, no purchase named; the payment still settles.
    const anonymous = await request(t.url).get(address).set('Accept-Language', 'bn').expect(200);
    expect(anonymous.text).toContain('আমরা বিকাশের কাছে এই পেমেন্টটি যাচাই করছি');
    expect(anonymous.text).not.toContain(`/payment/${id}`);
    expect((await txn(id))?.status).toBe('success');
    const other = await loginAs(t.url, b.phone, 'secret-pass-1');
    const seen = await other.get(address).expect(200);
    expect(seen.text).toContain('We are checking this payment with bKash.');
    expect(seen.text).not.toContain(`/payment/${id}`);
    const owner = await loginAs(t.url, a.phone, 'secret-pass-1');
    const ret = await owner.get(address).expect(303);
    expect(ret.headers.location).toBe(`/payment/${id}`);
  });

  test('a refused checkout shows above its button on the same page', async () => {
    const lottery = await insertLottery(t);
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    const id = await pending(a, lottery);
    const page = await agent.get(`/payment/${id}`).expect(200);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 second' WHERE id = $1`, [lottery]);
    const res = await agent
      .post(`/payment/${id}/bkash`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text) });
    expect(res.status).toBe(409);
    expect(res.text).toContain('This lottery is no longer on sale, so it cannot be paid for.');
  });
});
