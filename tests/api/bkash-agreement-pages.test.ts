/**
 * "Remember my bKash account" on the pages, as a browser without JavaScript uses them
 * (docs/rules/payments.md#11-remembered-bkash-agreements): ticked at checkout, bKash's approval, back to the app, which
 * starts the payment with the agreement (the PIN only) and ends on the receipt; the next payment from the remembered
 * account or another; the profile's page that shows and forgets it. English and Bengali, against the bKash simulator.
 */
import { SANDBOX, type BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { api } from '../../shared/api/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { appWithSimulator, buy, freshPayments, insertLottery, keyFrom, purchase, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let sim: BkashSimulator;
let close: () => Promise<void>;
let a: Player;
let agent: Agent;

beforeAll(async () => {
  ({ t, sim, a, close } = await appWithSimulator());
  agent = await loginAs(t.url, a.phone, 'secret-pass-1');
});
afterAll(() => close());
beforeEach(async () => {
  await freshPayments(t, sim, ['bkash_agreements']);
  agent.set('Cookie', 'lang=en');
});

/** A pending purchase of `a` (no TrxID) in a new lottery: its id. */
async function pending(ticket = '05-12-23-34-45-07'): Promise<number> {
  const lottery = await insertLottery(t, { price: 100 });
  const res = await buy(t, a, purchase(lottery, ticket, { payment_number: undefined }));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** The paymentID in a simulator page's address. */
const paymentIdOf = (location: string | undefined): string => /\/checkout\/([^/?]+)/.exec(location ?? '')?.[1] ?? '';

/** The browser follows bKash back to `location` (a callback of ours), without following further. */
const back = (location: string) => agent.get(new URL(location).pathname + new URL(location).search);

/** "Pay with bKash" on the payment page of purchase `id` with "Remember my bKash account" ticked: bKash's approval page. */
async function rememberWhilePaying(id: number) {
  const page = await agent.get(`/payment/${id}`).expect(200);
  const go = await agent
    .post(`/payment/${id}/bkash`)
    .type('form')
    .send({ _csrf: csrfFrom(page.text), remember: '1' });
  expect(go.status).toBe(303);
  return { page, location: go.headers.location };
}

/** Approves on bKash's page and comes back: the app's answer to the agreement's callback. */
async function approveAndReturn(location: string | undefined) {
  const id = paymentIdOf(location);
  expect(id).toMatch(/^TR0000/);
  return back(await sim.pay(id));
}

describe('the payment page', () => {
  test('“Remember my bKash account” ticked: bKash’s approval, then at once the payment with it (PIN only), then the receipt', async () => {
    const id = await pending();
    const { page, location } = await rememberWhilePaying(id);
    expect(page.text).toContain('name="remember" value="1"');
    expect(page.text).toContain('Remember my bKash account');
    const returned = await approveAndReturn(location);
    // Back at the app: the agreement made, the payment started with it, the browser sent to its PIN-only page.
    expect(returned.status).toBe(303);
    const payment = paymentIdOf(returned.headers.location);
    expect(sim.payment(payment)).toMatchObject({ kind: 'payment', amount: '100', agreementID: expect.any(String), wallet: SANDBOX.wallet });
    const paid = await back(await sim.pay(payment, { pin: SANDBOX.pin }));
    expect([paid.status, paid.headers.location]).toEqual([303, `/payment/${id}`]);
    const receipt = await agent.get(`/payment/${id}`).expect(200);
    expect(receipt.text).toContain('TK. 100');
    expect((await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status).toBe('success');
  });

  test('remembered: the page says so (masked), pays with it, or from another account; in Bengali too', async () => {
    const first = await pending('01-02-03-04-05-06');
    await approveAndReturn((await rememberWhilePaying(first)).location);

    const id = await pending();
    agent.set('Cookie', 'lang=bn');
    const bn = await agent.get(`/payment/${id}`).expect(200);
    expect(bn.text).toContain('আপনার মনে রাখা বিকাশ অ্যাকাউন্ট 0177*****75 থেকে');
    expect(bn.text).toContain('অন্য বিকাশ অ্যাকাউন্ট থেকে পেমেন্ট করুন');
    expect(bn.text).not.toContain('name="remember"');
    const other = await agent
      .post(`/payment/${id}/bkash`)
      .type('form')
      .send({ _csrf: csrfFrom(bn.text), agreement: 'skip' });
    expect(sim.payment(paymentIdOf(other.headers.location))).toMatchObject({ agreementID: null });
    const withIt = await agent
      .post(`/payment/${id}/bkash`)
      .type('form')
      .send({ _csrf: csrfFrom(bn.text) });
    expect(sim.payment(paymentIdOf(withIt.headers.location))).toMatchObject({ agreementID: expect.any(String) });
  });

  test('the approval cancelled on bKash’s page: back to the payment page, which says so and lets him pay as before', async () => {
    const id = await pending();
    const returned = await back(await sim.cancel(paymentIdOf((await rememberWhilePaying(id)).location)));
    expect([returned.status, returned.headers.location]).toEqual([303, `/payment/${id}?agreement=failed`]);
    const again = await agent.get(returned.headers.location!).expect(200);
    expect(again.text).toContain('Your bKash account was not remembered.');
    expect(again.text).toContain('name="remember"');
  });
});

describe('the ticket page', () => {
  test('“Pay with bKash” with “Remember my bKash account”: the purchase, then bKash’s approval', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const ticket = '07-14-21-28-35-09';
    const page = await agent.get(`/quick-play/${lottery}/${ticket}`).expect(200);
    expect(page.text).toContain('name="remember"');
    const go = await agent
      .post(`/quick-play/${lottery}/${ticket}/buy`)
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        idempotency_key: keyFrom(page.text),
        amount: '100',
        payment_method: 'bkash',
        pay: 'checkout',
        remember: '1',
      });
    expect(go.status).toBe(303);
    expect(paymentIdOf(go.headers.location)).toMatch(/^TR0000/);
    const [made] = await t.db.query<{ transaction_id: number }>('SELECT transaction_id FROM bkash_agreements');
    expect(made?.transaction_id).toBeGreaterThan(0);
  });
});

describe('/profile/bkash', () => {
  test('none: how to have one; remembered: the wallet and since when, and “Forget” forgets it at bKash and here', async () => {
    expect((await agent.get('/profile/bkash').expect(200)).text).toContain('No bKash account remembered');
    const profile = await agent.get('/profile').expect(200);
    expect(profile.text).toContain('href="/profile/bkash"');
    const first = await pending();
    await approveAndReturn((await rememberWhilePaying(first)).location);
    agent.set('Cookie', 'lang=bn');
    const page = await agent.get('/profile/bkash').expect(200);
    expect(page.text).toMatch(/আপনার বিকাশ অ্যাকাউন্ট <strong class="nowrap">0177\*\*\*\*\*75<\/strong>/);
    const forget = await agent
      .post('/profile/bkash')
      .type('form')
      .send({ _csrf: csrfFrom(page.text) });
    expect([forget.status, forget.headers.location]).toEqual([303, '/profile/bkash?saved=forgotten']);
    const after = await agent.get(forget.headers.location!).expect(200);
    expect(after.text).toContain('আপনার বিকাশ অ্যাকাউন্ট আর মনে রাখা নেই।');
    expect(after.text).toContain('কোনো বিকাশ অ্যাকাউন্ট মনে রাখা নেই');
    const [agreement] = await t.db.query<{ agreement_id: string; state: string }>('SELECT agreement_id, state FROM bkash_agreements');
    expect(agreement?.state).toBe('cancelled');
    expect(sim.agreement(agreement!.agreement_id)?.status).toBe('Cancelled');
  });

  test('the approval’s page without a purchase: remembered, or not; a callback that is none: not found, or bad: 400', async () => {
    // Asked without a purchase (through the API, as another page could): the approval's page says it is remembered.
    const made = await to(t, api.startBkashAgreement, { as: a }).send({}).expect(201);
    const page = await back(await sim.pay(made.body.payment_id));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Your bKash account 0177*****75 is remembered');
    // Cancelled: not remembered.
    await t.db.query("UPDATE bkash_agreements SET state = 'cancelled', ended_by = 'player'");
    const again = await to(t, api.startBkashAgreement, { as: a }).send({}).expect(201);
    const cancelled = await back(await sim.cancel(again.body.payment_id));
    expect(cancelled.text).toContain('Your bKash account was not remembered');
    expect((await agent.get('/payment/bkash/agreement?paymentID=TR0000none&status=success')).status).toBe(404);
    expect((await agent.get('/payment/bkash/agreement?status=success')).status).toBe(400);
  });
});
