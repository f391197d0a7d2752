/**
 * What the tests of keeping play safe share (tests/api/play-limits.test.ts, tests/api/time-out.test.ts): the app with
 * bKash's simulator over HTTP, the tables cleared before each test, a caller in a language, and Send Money purchases
 * of new combinations.
 */
import request from 'supertest';
import { SIMULATOR_CREDENTIALS } from '../../server/config.ts';
import { startSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call, to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { approveByHand, buy, drawByHand, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';

/** The app with bKash's simulator over HTTP, as tests/api/bkash-checkout.test.ts runs it; close() stops both. */
export async function startPlayApp(): Promise<{ t: TestApp; close: () => Promise<void> }> {
  const s = await startSimulator(SIMULATOR_CREDENTIALS);
  const t = await startTestApp({ BKASH_BASE_URL: s.baseUrl });
  return {
    t,
    close: async () => {
      await t.close();
      await s.close();
    },
  };
}

/** Empties what a test of play writes, once the app's background work has settled. */
export async function clearPlay(t: TestApp): Promise<void> {
  await t.settled();
  for (const table of [
    'play_limit_events',
    'play_limits',
    'bkash_payments',
    'audit_log',
    'generated_tickets',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
    'one_time_codes',
  ])
    await t.db.query(`DELETE FROM ${table}`);
}

/** A request of `p` (anonymous when null) in the language `lng` to a URL written out (a test of the URL itself). */
export const caller =
  (t: TestApp) =>
  (p: Player | null, method: 'get' | 'put' | 'post' | 'patch', url: string, lng = 'en') => {
    const r = request(t.url)[method](url).set('Accept-Language', lng);
    return p ? r.set(...p.auth) : r;
  };

let ticketSeq = 0;
/** A new valid combination each call. */
export const nextTicket = () => {
  const n = ++ticketSeq;
  return `${String((n % 40) + 1).padStart(2, '0')}-${String((Math.floor(n / 40) % 40) + 1).padStart(2, '0')}-41-42-43-07`;
};

/** A Send Money purchase (TrxID given at once) of p in this lottery. */
export const sendMoney = (t: TestApp, p: Player, lottery: number, lng = 'en', price = 100) =>
  buy(t, p, purchase(lottery, nextTicket(), { trx_id: trxId(), amount: price })).set('Accept-Language', lng);

/**
 * p wins a prize in a new lottery (his purchase approved, drawn by hand); then `between` runs (a break taken); then he
 * claims it as a player does: the claim's code sent, the claim submitted. The claim's answer.
 */
export async function winThenClaim(t: TestApp, p: Player, between: () => Promise<unknown>) {
  const lottery = await insertLottery(t);
  const bought = await sendMoney(t, p, lottery);
  expect((await approveByHand(t, bought.body.id)).status).toBe(200);
  const d = await drawByHand(t, lottery, [bought.body.ticket]);
  expect(d.status).toBe(201);
  await between();
  const prize = d.body.prizes[0].id as number;
  expect((await to(t, api.myWinningTickets, { as: p })).body[0].can_claim).toBe(true);
  expect((await call(t, api.sendClaimCode, { body: { prize_id: prize } }, { as: p })).status).toBe(200);
  const otp = await t.lastCode(p.phone, 'claim');
  return to(t, api.submitClaim, { as: p }).send({
    prize,
    payment_method: 'bkash',
    account_number: '01712345678',
    account_holder_name: 'Rahim Uddin',
    otp,
  });
}
