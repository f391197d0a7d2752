/** Lotteries, players and purchases for the purchase tests (purchases*.test.ts). */
import request from 'supertest';
import { SIMULATOR_CREDENTIALS } from '../../server/config.ts';
import { startSimulator, type BkashSimulator, type SimulatorOptions } from '../../scripts/bkash-simulator/simulator.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, type Agent } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, insertLottery, superuserAccount, type Player } from '../helpers/factories.ts';

// The accounts and lotteries these tests make come from the shared factories.
export { account, insertLottery, superuserAccount, type LotteryInput, type Player } from '../helpers/factories.ts';

/** One account of each signed-in role, named: a player, a staff member and a superuser. */
export async function roles(
  t: TestApp,
  names: { player: string; staff: string; superuser: string },
): Promise<{ player: Player; staff: Player; superuser: Player }> {
  const player = await account(t, { name: names.player });
  const staff = await account(t, { name: names.staff, is_staff: true });
  const superuser = await superuserAccount(t, { name: names.superuser });
  return { player, staff, superuser };
}

/** A purchase body that is valid for this lottery (price 100 unless told). */
export const purchase = (lotteryId: number, ticket: string, extra: Record<string, unknown> = {}) => ({
  lottery_id: lotteryId,
  ticket,
  amount: 100,
  transaction_type: 'payment',
  payment_method: 'bkash',
  nid: '',
  payment_number: '01712345678',
  ...extra,
});

let trxSeq = 0;

/** A TrxID not used before in this test file: staff approve a purchase only once it has one (lotteries-and-sales.md §8). */
export const trxId = (): string => `TRX${String(++trxSeq).padStart(7, '0')}`;

/** POST /api/v1/transactions-create/ as this player, with an Idempotency-Key when given. */
export function buy(t: TestApp, p: Player, body: object, key?: string) {
  const r = to(t, api.createTransaction, { as: p });
  return (key === undefined ? r : r.set('Idempotency-Key', key)).send(body);
}

export const rows = (t: TestApp) =>
  t.db.query<{ id: number; user_id: number; lottery_id: number; ticket: string; amount: number; status: string; trx_id: string | null }>(
    'SELECT id, user_id, lottery_id, ticket, amount, status, trx_id FROM transactions ORDER BY id',
  );

/** Ends the lottery's sales a minute ago, straight in the database: winners are chosen only after the close. */
export const closeSales = (t: TestApp, lotteryId: number) =>
  t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [lotteryId]);

/**
 * Finishes a lottery's draw with these winning tickets the one way the API allows it by hand: its sales closed, a
 * staff member proposes them and a second one approves (docs/rules/lotteries-and-sales.md#9-the-draw). Answers the
 * approval (201 and the draw's prizes), or the proposal's refusal.
 */
export async function drawByHand(t: TestApp, lotteryId: number, tickets: readonly string[]) {
  await closeSales(t, lotteryId);
  const [first, second] = await Promise.all([account(t, { is_staff: true }), account(t, { is_staff: true })]);
  const proposed = await to(t, api.drawLottery, { as: first }).send({ lottery_id: lotteryId, tickets, reason: 'Drawn by hand in a test' });
  if (proposed.status !== 202) return proposed;
  return to(t, api.approveDrawProposal, { params: { proposalId: proposed.body.id as number }, as: second });
}

/**
 * A ticket this player bought (with a TrxID) then approved by hand (status success), or rejected by `staff`, or left
 * pending, as told. Answers the transaction's id; throws when a step is refused.
 */
export async function sold(
  t: TestApp,
  staff: Player,
  p: Player,
  lottery: number,
  ticket: string,
  status: 'success' | 'pending' | 'failed' = 'success',
): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, { trx_id: trxId() }));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id as number;
  if (status !== 'pending') {
    const put =
      status === 'success'
        ? await approveByHand(t, id)
        : await request(t.url)
            .put(`/api/v1/transactions/${id}/`)
            .set(...staff.auth)
            .send({ status });
    if (put.status !== 200) throw new Error(`status change failed: ${put.status}`);
  }
  return id;
}

/**
 * A generated ticket `staff` makes for this lottery, and `p`'s activation of it (its answer, whatever it is: a test
 * may expect a refusal). Throws when the ticket could not be made.
 */
export async function generateAndActivate(t: TestApp, staff: Player, p: Player, lottery: number) {
  const made = await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity: 1 });
  if (made.status !== 201) throw new Error(`generating failed: ${made.status} ${JSON.stringify(made.body)}`);
  const ticket = made.body[0] as { ticket_number: string; secret_number: string };
  const activated = await to(t, api.activateTicket, { as: p }).send({
    ticket_number: ticket.ticket_number,
    secret_number: ticket.secret_number,
  });
  return { ticket, activated };
}

/**
 * A test app whose bKash is a simulator of its own over HTTP (closed with the app): for tests that pay prizes by bKash
 * (Pay now) without being about bKash.
 */
export async function startTestAppWithBkash(env: Record<string, string> = {}): Promise<TestApp> {
  const s = await startSimulator({ ...SIMULATOR_CREDENTIALS });
  const t = await startTestApp({ BKASH_BASE_URL: s.baseUrl, ...env });
  const closeApp = t.close.bind(t);
  t.close = async () => {
    await closeApp();
    await s.close();
  };
  return t;
}

/**
 * The bKash simulator over HTTP and a test app that talks to it with short timeouts (a bKash that does not answer is
 * given up on quickly), with two players and a staff member. `close` stops both.
 */
export async function appWithSimulator(opts: Partial<SimulatorOptions> = {}) {
  const s = await startSimulator({ ...SIMULATOR_CREDENTIALS, ...opts });
  const t = await startTestApp({ BKASH_BASE_URL: s.baseUrl, BKASH_TIMEOUT_MS: '3000', UPSTREAM_TIMEOUT_MS: '4000' });
  return {
    t,
    sim: s.sim as BkashSimulator,
    simUrl: s.baseUrl,
    a: await account(t, { name: 'Rahim Uddin' }),
    b: await account(t, { name: 'Fatema Begum' }),
    staff: await account(t, { name: 'Staff Member', is_staff: true }),
    close: async () => {
      await t.close();
      await s.close();
    },
  };
}

/**
 * A test's fresh start against the bKash simulator: bKash's memory forgotten, the app's background work done, and no
 * purchases, payments or what hangs on them (`first`: tables to empty before those, e.g. bkash_agreements).
 */
export async function freshPayments(t: TestApp, sim: BkashSimulator, first: readonly string[] = []): Promise<void> {
  sim.reset();
  await t.settled();
  for (const table of [...first, 'bkash_payments', 'audit_log', 'player_messages', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
}

/** Two staff accounts of a test app, made once: who proposes and who approves a payment by hand. */
const approvers = new WeakMap<TestApp, Promise<[Player, Player]>>();

/**
 * Approves a pending purchase the one way the API allows it by hand: a staff member proposes it with a reason and a
 * second one approves the proposal (docs/rules/payments.md#1-who-may-do-what). Answers the approval (200 and the
 * proposal), or the proposal's refusal.
 */
export async function approveByHand(t: TestApp, transactionId: number) {
  let two = approvers.get(t);
  if (!two) approvers.set(t, (two = Promise.all([account(t, { is_staff: true }), account(t, { is_staff: true })])));
  const [first, second] = await two;
  const proposed = await to(t, api.proposeApproval, { params: { id: transactionId }, as: first }).send({
    reason: 'Receipt shown in a test',
  });
  if (proposed.status !== 201) return proposed;
  return to(t, api.approveApprovalProposal, { params: { proposalId: proposed.body.id as number }, as: second }).send({
    reason: 'Receipt checked in a test',
  });
}

/** The idempotency key the ticket page's purchase form carries. */
export const keyFrom = (html: string): string => {
  const m = /name="idempotency_key"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="idempotency_key"/.exec(html);
  const k = m?.[1] ?? m?.[2];
  if (!k) throw new Error('no idempotency_key field in the page');
  return k;
};

/** Posts the ticket page's purchase form for this combination (Send Money), as a browser without JavaScript does. */
export async function buyOnPage(agent: Agent, lottery: number, ticket: string) {
  const page = await agent.get(`/quick-play/${lottery}/${ticket}`).expect(200);
  return agent
    .post(`/quick-play/${lottery}/${ticket}/buy`)
    .type('form')
    .send({ _csrf: csrfFrom(page.text), idempotency_key: keyFrom(page.text), amount: '100', payment_method: 'bkash' });
}

/**
 * A winning ticket of `p` in a new lottery (drawn by hand) with a claim whose payout details are in: `money` taka
 * (default 5,000, at most PAYOUT_SECOND_APPROVAL_TK), to `account` by `method` (default bKash). Answers the claim's id.
 */
export async function claimToPay(
  t: TestApp,
  p: Player,
  o: { name?: string; money?: number; method?: string; account?: string } = {},
): Promise<number> {
  const ticket = '05-12-23-34-45-07';
  const lottery = await insertLottery(t, { name: o.name ?? 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
  const res = await buy(t, p, purchase(lottery, ticket, { trx_id: trxId() }));
  if (typeof res.body.id !== 'number') throw new Error(`buying failed: ${res.status} ${JSON.stringify(res.body)}`);
  if ((await approveByHand(t, res.body.id)).status !== 200) throw new Error('approving failed');
  const prize = (await drawByHand(t, lottery, [ticket])).body.prizes[0].id as number;
  await t.db.query('UPDATE prizes SET prize_money = $2 WHERE id = $1', [prize, o.money ?? 5000]);
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name, submitted_at)
     VALUES ($1, $2, 'payment_info_submitted', $3, $4, 'Rahim Uddin', now()) RETURNING id`,
    [prize, p.id, o.method ?? 'bkash', o.account ?? '01712345678'],
  );
  return row!.id;
}
