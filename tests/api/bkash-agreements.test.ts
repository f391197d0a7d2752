/**
 * A remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements, docs/rules/bkash.md#7-agreements),
 * against the bKash simulator over HTTP: the player approves an agreement once (wallet, code, PIN), bKash's callback
 * makes it once however often it arrives, his next checkout asks only his PIN, he forgets it on his profile; an
 * agreement ended in bKash's app is forgotten at the next checkout. Who may do what, bad input. On PGlite and PostgreSQL.
 */
import { SANDBOX, type BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { api } from '../../shared/api/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { appWithSimulator, buy, freshPayments, insertLottery, purchase, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let sim: BkashSimulator;
let close: () => Promise<void>;
let a: Player, b: Player, staff: Player;

beforeAll(async () => {
  ({ t, sim, a, b, staff, close } = await appWithSimulator());
});
afterAll(() => close());
beforeEach(() => freshPayments(t, sim, ['bkash_agreements']));

const startAgreement = (p: Player | null, body: object = {}, lang = 'en') => to(t, api.startBkashAgreement, { as: p, lang }).send(body);
const agreementCallback = (body: object, as: Player | null = a) => to(t, api.bkashAgreementCallback, { as }).send(body);
const mine = async (p: Player) => (await to(t, api.myBkashAgreement, { as: p }).expect(200)).body;
const rows = () =>
  t.db.query<{ user_id: number; state: string; ended_by: string | null; agreement_id: string | null; reason: string | null }>(
    'SELECT user_id, state, ended_by, agreement_id, reason FROM bkash_agreements ORDER BY id',
  );
const audits = (action: string) =>
  t.db.query<{ entity_id: string; actor_id: number | null }>('SELECT * FROM audit_log WHERE action = $1', [action]);

/** `p` asks for an agreement and approves it on bKash's page; the creation's paymentID and the callback's query. */
async function approved(p: Player = a, body: object = {}): Promise<string> {
  const res = await startAgreement(p, body).expect(201);
  await sim.pay(res.body.payment_id);
  return res.body.payment_id as string;
}

/** `p` has an agreement in force: asked, approved, and the callback brought back. */
async function remembered(p: Player = a): Promise<string> {
  const paymentID = await approved(p);
  expect((await agreementCallback({ paymentID, status: 'success' }, p).expect(200)).body.outcome).toBe('active');
  return sim.payment(paymentID)?.agreementID as string;
}

/** A pending purchase of `p` in a new lottery, its id. */
async function pending(p: Player, ticket = '05-12-23-34-45-07'): Promise<number> {
  const lottery = await insertLottery(t, { price: 100 });
  const res = await buy(t, p, purchase(lottery, ticket, { payment_number: undefined }));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe('POST /api/v1/bkash-agreement/ and its callback', () => {
  test('asked, approved with wallet, code and PIN, called back: in force on that wallet, told masked; audited', async () => {
    const res = await startAgreement(a).expect(201);
    expect(res.body).toEqual({ payment_id: expect.stringMatching(/^TR0000/), bkash_url: expect.stringContaining('/checkout/') });
    expect(sim.payment(res.body.payment_id)).toMatchObject({ kind: 'agreement', payerReference: a.phone });
    expect(sim.payment(res.body.payment_id)?.callbackURL).toBe(`${t.url}/payment/bkash/agreement`);
    expect(await mine(a)).toBeNull();
    await sim.pay(res.body.payment_id);
    const back = await agreementCallback({ paymentID: res.body.payment_id, status: 'success' }).expect(200);
    expect(back.body).toEqual({ outcome: 'active', transaction_id: null, wallet: '0177*****75' });
    expect(await mine(a)).toEqual({ wallet: '0177*****75', since: expect.any(String) });
    expect(await mine(b)).toBeNull();
    expect(await rows()).toEqual([
      expect.objectContaining({ user_id: a.id, state: 'active', agreement_id: expect.stringMatching(/^TokenizedMerchant01/) }),
    ]);
    expect(await audits('bkash_agreement.create')).toEqual([expect.objectContaining({ entity_id: String(a.id), actor_id: null })]);
  });

  test('a callback that arrives twice, or twice at once, makes the agreement once; anyone but its player learns nothing', async () => {
    const paymentID = await approved();
    const [one, two] = await Promise.all([
      agreementCallback({ paymentID, status: 'success' }),
      agreementCallback({ paymentID, status: 'success' }, null),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.body).toEqual({ outcome: null, transaction_id: null, wallet: null });
    // The one that did not claim it may answer before the other's execute ends: `pending` or `active`, never a second.
    expect(['active', 'pending']).toContain(one.body.outcome);
    await agreementCallback({ paymentID, status: 'success' }).expect(200);
    expect(sim.payment(paymentID)?.executeCalls).toBe(1);
    expect((await rows()).map((r) => r.state)).toEqual(['active']);
    expect((await agreementCallback({ paymentID, status: 'success' }, b).expect(200)).body).toEqual({
      outcome: null,
      transaction_id: null,
      wallet: null,
    });
  });

  test('cancelled or failed on bKash’s page: no agreement; an execute refused or unanswered: none either, and he may ask again', async () => {
    const cancelled = (await startAgreement(a).expect(201)).body.payment_id as string;
    await sim.cancel(cancelled);
    expect((await agreementCallback({ paymentID: cancelled, status: 'cancel' }).expect(200)).body.outcome).toBe('failed');
    const lost = await approved();
    sim.failNext('execute', 'lose_answer');
    expect((await agreementCallback({ paymentID: lost, status: 'success' }).expect(200)).body.outcome).toBe('failed');
    expect((await rows()).map((r) => [r.state, r.reason])).toEqual([
      ['failed', 'cancel'],
      ['failed', 'no_answer'],
    ]);
    expect(await mine(a)).toBeNull();
    expect((await startAgreement(a)).status).toBe(201);
  });

  test('with a purchase: the callback names it to its player, to be paid now', async () => {
    const id = await pending(a);
    const paymentID = await approved(a, { transaction_id: id });
    expect((await agreementCallback({ paymentID, status: 'success' }).expect(200)).body).toEqual({
      outcome: 'active',
      transaction_id: id,
      wallet: '0177*****75',
    });
  });

  test('refused: one in force already 409; another’s purchase 404; anonymous 401; staff 403; bad input 400; an unknown approval 404', async () => {
    await remembered();
    const again = await startAgreement(a, {}, 'bn');
    expect([again.status, again.body.code]).toEqual([409, 'agreement_exists']);
    expect(again.body.detail).toContain('বিকাশ অ্যাকাউন্ট আগেই মনে রাখা আছে');
    const others = await pending(a, '01-02-03-04-05-06');
    expect((await startAgreement(b, { transaction_id: others })).status).toBe(404);
    expect((await startAgreement(null)).status).toBe(401);
    expect((await startAgreement(staff)).body.code).toBe('staff_cannot_play');
    expect((await startAgreement(b, { transaction_id: 'x' })).status).toBe(400);
    expect((await startAgreement(b, { wallet: '01770618575' })).status).toBe(400);
    expect((await agreementCallback({ paymentID: 'TR0000nothing', status: 'success' })).status).toBe(404);
    expect((await agreementCallback({ paymentID: 'bad id!', status: 'success' })).status).toBe(400);
    expect((await agreementCallback({ paymentID: 'TR0000x', status: 'maybe' })).status).toBe(400);
    expect((await rows()).length).toBe(1);
  });

  test('bKash not answering the request: 503, nothing kept', async () => {
    for (let i = 0; i < 3; i++) sim.failNext('create', 'http500');
    const res = await startAgreement(a);
    expect([res.status, res.body.detail]).toEqual([503, expect.stringContaining('bKash is not answering')]);
    expect(await rows()).toEqual([]);
  });

  test('a newer approval replaces the older agreement, which is cancelled at bKash', async () => {
    const first = await remembered();
    // Both approvals asked before either came back (two tabs).
    await t.db.query("UPDATE bkash_agreements SET state = 'cancelled', ended_by = 'replaced' WHERE state = 'active'");
    const paymentID = await approved();
    await t.db.query("UPDATE bkash_agreements SET state = 'active', ended_by = NULL WHERE agreement_id = $1", [first]);
    await agreementCallback({ paymentID, status: 'success' }).expect(200);
    await t.settled();
    expect((await rows()).map((r) => [r.state, r.ended_by])).toEqual([
      ['cancelled', 'replaced'],
      ['active', null],
    ]);
    expect(sim.agreement(first)?.status).toBe('Cancelled');
  });
});

describe('paying with it', () => {
  test('the next checkout is a payment with the agreement: his PIN only; confirmed as any checkout', async () => {
    const agreementID = await remembered();
    const id = await pending(a);
    const res = await to(t, api.startCheckout, { params: { id }, as: a }).expect(201);
    expect(sim.payment(res.body.payment_id)).toMatchObject({ kind: 'payment', agreementID, wallet: SANDBOX.wallet, amount: '100' });
    await sim.pay(res.body.payment_id, { pin: SANDBOX.pin });
    const back = await to(t, api.bkashCallback, { as: a }).send({ paymentID: res.body.payment_id, status: 'success' }).expect(200);
    expect(back.body.outcome).toBe('confirmed');
    const paid = await t.db.one<{ agreement_id: string | null }>('SELECT agreement_id FROM bkash_payments WHERE payment_id = $1', [
      res.body.payment_id,
    ]);
    expect(paid?.agreement_id).toBe(agreementID);
  });

  test('?agreement=skip pays from another wallet, as without one; a bad value is 400', async () => {
    await remembered();
    const id = await pending(a);
    const res = await to(t, api.startCheckout, { params: { id }, query: { agreement: 'skip' }, as: a }).expect(201);
    expect(sim.payment(res.body.payment_id)).toMatchObject({ agreementID: null, wallet: null });
    expect((await to(t, api.startCheckout, { params: { id }, query: { agreement: 'always' } as never, as: a })).status).toBe(400);
  });

  test('ended in bKash’s app: the next checkout forgets it (audited) and pays without it', async () => {
    const agreementID = await remembered();
    sim.cancelAgreementInApp(agreementID);
    const id = await pending(a);
    const res = await to(t, api.startCheckout, { params: { id }, as: a }).expect(201);
    expect(sim.payment(res.body.payment_id)).toMatchObject({ agreementID: null });
    expect((await rows()).map((r) => [r.state, r.ended_by])).toEqual([['cancelled', 'bkash']]);
    expect(await audits('bkash_agreement.cancel')).toHaveLength(1);
    expect(await mine(a)).toBeNull();
  });
});

describe('DELETE /api/v1/bkash-agreement/', () => {
  test('forgets it: cancelled at bKash, then here, audited; a second time 404; another player’s stays', async () => {
    const mineId = await remembered(a);
    const hisId = await remembered(b);
    await to(t, api.cancelBkashAgreement, { as: a }).expect(204);
    expect(sim.agreement(mineId)?.status).toBe('Cancelled');
    expect(sim.agreement(hisId)?.status).toBe('Completed');
    expect(await mine(a)).toBeNull();
    expect(await mine(b)).toEqual(expect.objectContaining({ wallet: '0177*****75' }));
    expect(await audits('bkash_agreement.cancel')).toEqual([expect.objectContaining({ entity_id: String(a.id), actor_id: a.id })]);
    const twice = await to(t, api.cancelBkashAgreement, { as: a });
    expect([twice.status, twice.body.code]).toEqual([404, 'not_found']);
    expect((await to(t, api.cancelBkashAgreement, { as: null })).status).toBe(401);
    expect((await to(t, api.cancelBkashAgreement, { as: staff })).status).toBe(404);
  });

  test('bKash not answering: 503 and it stays; bKash not knowing it any more: forgotten all the same', async () => {
    const agreementID = await remembered();
    for (let i = 0; i < 3; i++) sim.failNext('agreementCancel', 'http500');
    expect((await to(t, api.cancelBkashAgreement, { as: a })).status).toBe(503);
    expect(await mine(a)).not.toBeNull();
    sim.reset();
    await to(t, api.cancelBkashAgreement, { as: a }).expect(204);
    expect(await mine(a)).toBeNull();
    expect(sim.agreement(agreementID)).toBeUndefined();
  });
});
