/**
 * Prizes paid by bKash (docs/rules/lotteries-and-sales.md#11-prize-claims, "Paid by bKash";
 * docs/decisions/081-prizes-paid-by-bkash.md), against the bKash simulator over HTTP: Pay now sends one payout, whatever
 * happens — two staff at once, a lost answer, no answer at all, an app that died between sending and recording — a
 * refusal fails the claim with bKash's reason, a balance too low makes the payout wait, and a payout whose answer was
 * lost is settled with bKash's TrxID or, by a second staff member, found not sent. Who may do what, bad input. On
 * PGlite and PostgreSQL.
 */
import type { BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { api } from '../../shared/api/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { account, appWithSimulator, claimToPay, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let sim: BkashSimulator;
let close: () => Promise<void>;
let a: Player, staff: Player, second: Player;

beforeAll(async () => {
  ({ t, sim, a, staff, close } = await appWithSimulator());
  second = await account(t, { name: 'Second Officer', is_staff: true });
});
afterAll(() => close());
beforeEach(async () => {
  sim.reset();
  await t.settled();
  for (const table of [
    'prize_payouts',
    'bkash_balances',
    'audit_log',
    'player_messages',
    'prize_claims',
    'prizes',
    'bkash_payments',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const WALLET = '01712345678';

/** A's winning ticket with a claim to be paid (`money` taka, to `account` by `method`); the claim's id. */
const claimed = (o: { money?: number; method?: string; account?: string } = {}) => claimToPay(t, a, o);

const payNow = (p: Player | null, claim: number | string, lang = 'en') => to(t, api.payNow, { params: { id: claim }, as: p, lang });
const settle = (p: Player | null, claim: number | string, body: object, lang = 'en') =>
  to(t, api.settlePayout, { params: { id: claim }, as: p, lang }).send(body);
const notSent = (p: Player | null, claim: number | string, lang = 'en') => to(t, api.payoutNotSent, { params: { id: claim }, as: p, lang });
const balance = (p: Player | null) => to(t, api.bkashBalance, { as: p });
const claimRow = (id: number) =>
  t.db.one<{ status: string; transfer_reference: string | null; transfer_failure: string | null }>(
    'SELECT status, transfer_reference, transfer_failure FROM prize_claims WHERE id = $1',
    [id],
  );
const tries = () =>
  t.db.query<{ try: number; state: string; invoice: string; trx_id: string | null }>('SELECT * FROM prize_payouts ORDER BY id');
const audits = () =>
  t.db.query<{ action: string; actor_id: number | null }>(
    "SELECT action, actor_id FROM audit_log WHERE entity = 'prize_claim' ORDER BY id",
  );
const told = () => t.db.query<{ kind: string; params: Record<string, unknown> }>('SELECT kind, params FROM player_messages ORDER BY id');

describe('POST /api/v1/admin/prize-claims/{id}/pay-now/', () => {
  test("paid by bKash once: completed on bKash's word, its TrxID on the claim, in the audit and in the winner's message", async () => {
    const claim = await claimed();
    const res = await payNow(staff, claim).expect(200);
    const [sent] = sim.payouts();
    expect(sim.payouts()).toHaveLength(1);
    expect(sent).toMatchObject({ receiver: WALLET, amount: '5000', merchantInvoiceNumber: `BHAGYA-PRIZE-${claim}-1` });
    expect(res.body).toMatchObject({
      status: 'transfer_completed',
      transfer_reference: sent?.trxID,
      payout: { state: 'completed', trx_id: sent?.trxID, amount: 5000, receiver: WALLET, try: 1, pressed_by: { id: staff.id } },
    });
    expect(await claimRow(claim)).toMatchObject({ status: 'transfer_completed', transfer_reference: sent?.trxID });
    expect((await audits()).map((r) => [r.action, r.actor_id])).toEqual([
      ['claim.payout_sent', staff.id],
      ['claim.payout_completed', staff.id],
    ]);
    expect((await told()).filter((m) => m.kind === 'payout_sent')).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ trx_id: sent?.trxID, amount: 5000 }) }),
    ]);
    const mine = await to(t, api.notifications, { as: a, lang: 'bn' }).expect(200);
    expect(JSON.stringify(mine.body)).toContain(sent?.trxID);
    // Pressing again pays nothing more.
    expect((await payNow(staff, claim)).body.code).toBe('transfer_not_ready');
    expect(sim.payouts()).toHaveLength(1);
    // The balance was read before and after, and shows the money gone.
    const b = (await balance(staff).expect(200)).body;
    expect(b).toMatchObject({ fresh: true, owed_claimed: 0, waiting: 0 });
    expect(b.disbursement_paisa).toBe(sim.disbursementBalance());
  });

  test('two staff pressing at once send one payout', async () => {
    const claim = await claimed();
    const [one, two] = await Promise.all([payNow(staff, claim), payNow(second, claim)]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    expect(['payout_under_way', 'transfer_not_ready']).toContain((one.status === 409 ? one : two).body.code);
    expect(sim.payouts()).toHaveLength(1);
    expect(await tries()).toHaveLength(1);
    expect((await claimRow(claim))?.status).toBe('transfer_completed');
  });

  test('a lost answer: the payout is unknown, never sent again, and settled with the TrxID bKash shows', async () => {
    const claim = await claimed();
    sim.failNext('b2cPayment', 'lose_answer');
    const res = await payNow(staff, claim).expect(200);
    expect(res.body).toMatchObject({ status: 'payment_info_submitted', payout: { state: 'unknown', trx_id: null } });
    expect(sim.payouts()).toHaveLength(1); // the money left
    const again = await payNow(second, claim, 'bn');
    expect([again.status, again.body.code]).toEqual([409, 'payout_under_way']);
    expect(again.body.detail).toContain('উত্তর আসেনি');
    const failing = await to(t, api.failTransfer, { params: { id: claim }, as: staff });
    expect([failing.status, failing.body.code]).toEqual([409, 'payout_under_way']);
    await t.app.payouts.reconcile();
    expect(sim.payouts()).toHaveLength(1);
    expect((await tries()).map((p) => p.state)).toEqual(['unknown']);
    // A TrxID that is not this payout's is refused, with why.
    const other = sim.sendMoney({ from: '01812345678', to: WALLET, amount: 5000 });
    for (const [trx, why] of [
      ['ZZZZZZZZZZ', 'bKash knows no such transaction'],
      [other, ''],
    ] as const) {
      const wrong = await settle(staff, claim, { trx_id: trx });
      expect([wrong.status, wrong.body.code]).toEqual([422, 'trx_mismatch']);
      if (why) expect(wrong.body.detail).toContain(why);
    }
    expect((await settle(staff, claim, { trx_id: 'no!' })).status).toBe(400);
    const trx = sim.payouts()[0]?.trxID as string;
    const done = await settle(second, claim, { trx_id: trx.toLowerCase() }).expect(200);
    expect(done.body).toMatchObject({ status: 'transfer_completed', transfer_reference: trx, payout: { state: 'completed', trx_id: trx } });
    expect(sim.payouts()).toHaveLength(1);
    expect((await audits()).map((r) => r.action)).toEqual(['claim.payout_sent', 'claim.payout_unknown', 'claim.payout_settled']);
    expect((await told()).filter((m) => m.kind === 'payout_sent')).toHaveLength(1);
    expect((await settle(second, claim, { trx_id: trx })).body.code).toBe('payout_not_unknown');
  });

  test('no answer and nothing sent: a second staff member finds it not sent, and the next try has its own invoice', async () => {
    const claim = await claimed();
    sim.failNext('b2cPayment', 'http500');
    expect((await payNow(staff, claim).expect(200)).body.payout.state).toBe('unknown');
    expect(sim.payouts()).toHaveLength(0);
    const self = await notSent(staff, claim);
    expect([self.status, self.body.code]).toEqual([403, 'four_eyes']);
    expect((await notSent(second, claim).expect(200)).body.payout.state).toBe('not_sent');
    expect((await notSent(second, claim)).body.code).toBe('payout_not_unknown');
    const paid = await payNow(second, claim).expect(200);
    expect(paid.body.payout).toMatchObject({ state: 'completed', try: 2, invoice: `BHAGYA-PRIZE-${claim}-2` });
    expect(sim.payouts()).toHaveLength(1);
    expect((await tries()).map((p) => p.state)).toEqual(['not_sent', 'completed']);
  });

  test('the app died between sending and recording: the reconciliation job makes the payout unknown, audited by the system', async () => {
    const claim = await claimed();
    await t.db.query(
      `INSERT INTO prize_payouts (claim_id, try, invoice, amount, receiver, state, pressed_by, sent_at)
       VALUES ($1, 1, $2, 5000, $3, 'sending', $4, now() - interval '10 minutes')`,
      [claim, `BHAGYA-PRIZE-${claim}-1`, WALLET, staff.id],
    );
    expect((await payNow(second, claim)).body.code).toBe('payout_under_way');
    expect(await t.app.payouts.reconcile()).toBe(1);
    expect((await tries()).map((p) => p.state)).toEqual(['unknown']);
    expect(await audits()).toEqual([{ action: 'claim.payout_unknown', actor_id: null }]);
    expect(sim.payouts()).toHaveLength(0);
  });

  test("a refusal fails the claim with bKash's reason in both languages; the winner can give other details", async () => {
    const claim = await claimed({ account: '01300000045' });
    const res = await payNow(staff, claim).expect(200);
    expect(res.body).toMatchObject({ status: 'transfer_failed', transfer_failure: '2045', payout: { state: 'refused', code: '2045' } });
    expect(sim.payouts()).toHaveLength(0);
    const [m] = (await told()).filter((x) => x.kind === 'payout_failed');
    expect(m?.params).toMatchObject({ refusal: 'wallet' });
    for (const [lang, words] of [
      ['en', 'not a bKash customer wallet'],
      ['bn', 'বিকাশ গ্রাহক ওয়ালেট নয়'],
    ] as const)
      expect(JSON.stringify((await to(t, api.notifications, { as: a, lang }).expect(200)).body)).toContain(words);
    const w = (await to(t, api.myWinningTickets, { as: a }).expect(200)).body[0];
    expect(w).toMatchObject({ can_claim: true, claim: { status: 'transfer_failed' } });
  });

  test('a balance too low: the payout waits, nothing is sent; the job sends it once the balance covers it', async () => {
    const claim = await claimed();
    sim.setDisbursementBalance(1000);
    const res = await payNow(staff, claim).expect(200);
    expect(res.body).toMatchObject({ status: 'payment_info_submitted', payout: { state: 'waiting' } });
    expect(sim.payouts()).toHaveLength(0);
    expect((await balance(staff).expect(200)).body).toMatchObject({
      disbursement_paisa: 100000,
      owed_claimed: 5000,
      waiting: 1,
      waiting_amount: 5000,
    });
    await t.app.payouts.reconcile();
    expect(sim.payouts()).toHaveLength(0);
    sim.setDisbursementBalance(50_000);
    expect(await t.app.payouts.reconcile()).toBe(1);
    expect(sim.payouts()).toHaveLength(1);
    expect(await claimRow(claim)).toMatchObject({ status: 'transfer_completed', transfer_reference: sim.payouts()[0]?.trxID });
    expect((await audits()).map((r) => r.action)).toEqual(['claim.payout_waiting', 'claim.payout_completed']);
  });

  test('a waiting payout is given up when staff mark the transfer failed', async () => {
    const claim = await claimed();
    sim.setDisbursementBalance(0);
    await payNow(staff, claim).expect(200);
    expect((await to(t, api.failTransfer, { params: { id: claim }, as: second }).expect(200)).body.status).toBe('transfer_failed');
    expect((await tries()).map((p) => p.state)).toEqual(['not_sent']);
    sim.setDisbursementBalance(50_000);
    await t.app.payouts.reconcile();
    expect(sim.payouts()).toHaveLength(0);
  });

  test("the rules of paying: a second approval above the threshold, never one's own prize, bKash claims only", async () => {
    const big = await claimed({ money: 50_000 });
    const unapproved = await payNow(staff, big);
    expect([unapproved.status, unapproved.body.code]).toEqual([409, 'approval_required']);
    await to(t, api.approveTransfer, { params: { id: big }, as: second }).expect(200);
    expect((await payNow(second, big)).status).toBe(403);
    expect((await payNow(staff, big).expect(200)).body.status).toBe('transfer_completed');
    await t.db.query('DELETE FROM prize_payouts');
    await t.db.query('DELETE FROM prize_claims');
    const nagad = await claimed({ method: 'nagad' });
    const res = await payNow(staff, nagad, 'bn');
    expect([res.status, res.body.code]).toEqual([409, 'payout_not_bkash']);
    expect(res.body.detail).toContain('নগদ');
    expect(sim.payouts()).toHaveLength(1);
  });

  test('anonymous 401, a player 403, an unknown claim 404; nothing sent', async () => {
    const claim = await claimed();
    for (const p of [null, a]) {
      expect((await payNow(p, claim)).status).toBe(p ? 403 : 401);
      expect((await settle(p, claim, { trx_id: 'BK7QX2M9PA' })).status).toBe(p ? 403 : 401);
      expect((await notSent(p, claim)).status).toBe(p ? 403 : 401);
      expect((await balance(p)).status).toBe(p ? 403 : 401);
    }
    for (const id of [999999, 'abc']) {
      expect((await payNow(staff, id)).status).toBe(404);
      expect((await notSent(second, id)).status).toBe(404);
      expect((await settle(staff, id, { trx_id: 'BK7QX2M9PA' })).status).toBe(404);
    }
    expect((await settle(staff, claim, { trx_id: 'BK7QX2M9PA' })).body.code).toBe('payout_not_unknown');
    expect((await settle(staff, claim, {})).status).toBe(400);
    expect((await settle(staff, claim, { trx_id: 'BK7QX2M9PA', x: 1 })).status).toBe(400);
    expect(sim.payouts()).toHaveLength(0);
    expect(await tries()).toEqual([]);
  });
});
