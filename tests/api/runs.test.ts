/**
 * Runs of consecutive draws, paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips, decision 078): a slip of
 * a game's lines for its next draws makes one pending entry per line and draw; one bKash checkout of the slip's lead pays
 * the whole and confirms every entry at once, and a failed payment confirms none and frees them all. Limits count the
 * run; a combination held in one draw is told before paying, with a suggestion. Against the bKash simulator, on PGlite
 * and PostgreSQL.
 */
import { SANDBOX, type BkashSimulator } from '../../scripts/bkash-simulator/simulator.ts';
import { api } from '../../shared/api/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { freezeDue } from '../../server/draws/freeze-job.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';
import { dueOnRound } from './numbers-fixtures.ts';
import { clearGames, GAME_BODY } from './game-fixtures.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { keyFrom } from './purchase-fixtures.ts';
import { appWithSimulator, approveByHand, buy, purchase, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let sim: BkashSimulator;
let close: () => Promise<void>;
let a: Player, b: Player, staff: Player;

beforeAll(async () => {
  ({ t, sim, a, b, staff, close } = await appWithSimulator());
});
afterAll(() => close());
beforeEach(async () => {
  sim.reset();
  await t.settled();
  await t.db.query('DELETE FROM bkash_payments');
  await t.db.query('UPDATE slips SET lead_id = NULL');
  await t.db.query('DELETE FROM prize_payouts');
  await t.db.query('DELETE FROM prize_claims');
  await t.db.query('DELETE FROM prizes');
  await t.db.query('DELETE FROM transactions');
  await t.db.query('DELETE FROM slips');
  await t.db.query('DELETE FROM play_limit_events');
  await t.db.query('DELETE FROM play_limits');
  await clearGames(t);
});

const MINE = '05-12-23-34-45-07';

async function game(extra: object = {}): Promise<number> {
  const res = await to(t, api.createGame, { as: staff }).send({ ...GAME_BODY, draws_ahead: 5, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const run = (p: Player | null, body: object, lang = 'en', key?: string) => {
  const r = to(t, api.createRun, { as: p, lang });
  return (key ? r.set('Idempotency-Key', key) : r).send(body);
};
const callback = (body: object) => to(t, api.bkashCallback, { as: a }).send(body);
const entries = (slipId: number) =>
  t.db.query<{ id: number; status: string; trx_id: string | null; ticket: string }>(
    'SELECT id, status, trx_id, ticket FROM transactions WHERE slip_id = $1 ORDER BY id',
    [slipId],
  );
/** The bKash number players send money to (the payment page's), as the app is configured. */
const receiver = async (id: number): Promise<string> =>
  (await to(t, api.myTransaction, { params: { id }, as: a }).expect(200)).body.bkash_receiver_number as string;
const slip = (id: number) => t.db.one<{ status: string; trx_id: string | null }>('SELECT status, trx_id FROM slips WHERE id = $1', [id]);

/** A run of `draws` of the game with `lines`, made by `a`, its checkout started: the slip and bKash's paymentID. */
async function started(gameId: number, draws: number, lines: string[]) {
  const res = await run(a, { game_id: gameId, draws, lines });
  expect(res.status).toBe(201);
  const checkout = await to(t, api.startCheckout, { params: { id: res.body.lead_id }, as: a });
  expect(checkout.status).toBe(201);
  return { run: res.body, paymentID: checkout.body.payment_id as string };
}

describe('POST /api/v1/runs/', () => {
  test('a run of 5 draws: 5 pending entries, one per draw in draw order, one amount (TK. 100 × 5)', async () => {
    const g = await game();
    const res = await run(a, { game_id: g, draws: '5', lines: MINE });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ game_id: g, draws: 5, draws_asked: 5, lines: 1, amount: 500, status: 'pending' });
    const e = res.body.entries as {
      id: number;
      lottery: { id: number; draw_at: string };
      ticket: string;
      status: string;
      slip_id: number;
    }[];
    expect(e.map((x) => [x.ticket, x.status, x.slip_id])).toEqual(Array(5).fill([MINE, 'pending', res.body.id]));
    expect([...e].sort((x, y) => Date.parse(x.lottery.draw_at) - Date.parse(y.lottery.draw_at))).toEqual(e);
    expect(new Set(e.map((x) => x.lottery.id)).size).toBe(5);
    expect(res.body.lead_id).toBe(e[0]!.id);
    // My Lotteries' unfinished list has the run once, its lead standing for it, the slip's summary beside it.
    const mine = await to(t, api.myLotteries, { as: a }).expect(200);
    expect(mine.body.unfinished.map((x: { id: number }) => x.id)).toEqual([res.body.lead_id]);
    expect(mine.body.runs).toEqual([
      expect.objectContaining({ id: res.body.id, draws: 5, lines: 1, amount: 500, status: 'pending', tickets: [MINE], drawn: 0 }),
    ]);
    // The slip as its player reads it; another player's answer is none.
    expect((await to(t, api.getRun, { params: { id: res.body.id }, as: a })).body).toEqual(res.body);
    expect((await to(t, api.getRun, { params: { id: res.body.id }, as: b })).status).toBe(404);
  });

  test('a play slip: several lines (one quick-picked) for 3 draws, each line of each draw an entry; a quick pick is free in all', async () => {
    const g = await game();
    const res = await run(a, { game_id: g, draws: 3, lines: [MINE, 'quick', '01-02-03-04-05-06'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ lines: 3, draws: 3, amount: 900 });
    const tickets = new Set((res.body.entries as { ticket: string }[]).map((x) => x.ticket));
    expect(tickets.size).toBe(3);
    expect(tickets.has(MINE)).toBe(true);
  });

  test('fewer draws on sale than asked: the run is shortened before payment, and says so', async () => {
    const g = await game({ draws_ahead: 3 });
    const res = await run(a, { game_id: g, draws: 12, lines: [MINE] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ draws: 3, draws_asked: 12, amount: 300 });
  });

  test('a combination held in one of the draws: 409 naming the draw, a suggestion free in all of them; nothing made', async () => {
    const g = await game();
    const [, second] = await t.db.query<{ id: number }>('SELECT id FROM lotteries WHERE game_id = $1 ORDER BY draw_at', [g]);
    expect((await buy(t, b, purchase(second!.id, MINE))).status).toBe(201);
    const res = await run(a, { game_id: g, draws: 5, lines: [MINE] }, 'bn');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ticket_taken');
    expect(res.body).toMatchObject({ ticket: MINE, lottery_id: second!.id });
    expect(res.body.suggestion).toMatch(/^\d{2}(-\d{2}){5}$/);
    expect(res.body.detail).toContain(res.body.suggestion);
    expect(res.body.detail).toMatch(/ড্র-তে/);
    expect(await t.db.query('SELECT id FROM slips')).toEqual([]);
    // The suggestion is free in every draw: a run with it is made.
    expect((await run(a, { game_id: g, draws: 5, lines: [res.body.suggestion] })).status).toBe(201);
  });

  test.each([
    ['a run that is not offered', { draws: 4 }, 'draws'],
    ['no line', { lines: [] }, 'lines'],
    ['eleven lines', { lines: Array(11).fill('quick') }, 'lines'],
    ['a line that is no ticket', { lines: ['1-2-3'] }, 'lines'],
  ])('%s: 400 under its field, nothing made', async (_, change, field) => {
    const g = await game();
    const res = await run(a, { game_id: g, draws: 5, lines: [MINE], ...change });
    expect(res.status).toBe(400);
    expect(res.body[field]).toEqual([expect.any(String)]);
    expect(await t.db.query('SELECT id FROM slips')).toEqual([]);
  });

  test('the same line twice, an unknown game, a paused game without draws: refused', async () => {
    const g = await game({ draws_ahead: 1 });
    expect((await run(a, { game_id: g, draws: 1, lines: [MINE, MINE] })).body.code).toBe('run_line_twice');
    expect((await run(a, { game_id: g + 100, draws: 1, lines: [MINE] })).body.code).toBe('game_not_found');
    await t.db.query(
      "UPDATE lotteries SET end_date = now() - interval '1 minute', start_date = now() - interval '2 days', draw_at = now() WHERE game_id = $1",
      [g],
    );
    expect((await run(a, { game_id: g, draws: 1, lines: [MINE] })).body.code).toBe('no_draws_on_sale');
  });

  test('anonymous 401, staff 403 (staff do not play)', async () => {
    const g = await game();
    expect((await run(null, { game_id: g, draws: 1, lines: [MINE] })).status).toBe(401);
    expect((await run(staff, { game_id: g, draws: 1, lines: [MINE] })).body.code).toBe('staff_cannot_play');
  });

  test('an Idempotency-Key used again answers the slip made then, with 200', async () => {
    const g = await game();
    const first = await run(a, { game_id: g, draws: 3, lines: [MINE] }, 'en', 'slip-1');
    const again = await run(a, { game_id: g, draws: 3, lines: [MINE] }, 'en', 'slip-1');
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(await t.db.query('SELECT id FROM slips')).toHaveLength(1);
  });

  test('spend limits count the whole run when it is bought', async () => {
    const g = await game();
    await to(t, api.setMyLimits, { as: a }).send({ day: 400, week: null, month: null }).expect(200);
    const over = await run(a, { game_id: g, draws: 5, lines: [MINE] });
    expect([over.status, over.body.code]).toEqual([409, 'spend_limit']);
    expect((await run(a, { game_id: g, draws: 3, lines: [MINE] })).status).toBe(201);
  });
});

describe('one payment for the whole run', () => {
  test('the lead’s checkout asks bKash for the whole amount; paid, every entry is confirmed at once, the slip paid', async () => {
    const g = await game();
    const { run: r, paymentID } = await started(g, 5, [MINE]);
    expect(sim.payment(paymentID)).toMatchObject({ amount: '500', merchantInvoiceNumber: String(r.lead_id) });
    await sim.pay(paymentID, SANDBOX);
    const res = await callback({ paymentID, status: 'success' }).expect(200);
    expect(res.body.outcome).toBe('confirmed');
    const trx = sim.payment(paymentID)?.trxID;
    expect((await entries(r.id)).map((e) => e.status)).toEqual(Array(5).fill('success'));
    // The lead carries bKash's TrxID; the slip records it for all.
    expect((await entries(r.id))[0]!.trx_id).toBe(trx);
    expect(await slip(r.id)).toEqual({ status: 'paid', trx_id: trx });
    expect(await t.db.query("SELECT id FROM audit_log WHERE action = 'transaction.confirmed_by_bkash'")).toHaveLength(5);
  });

  test('no staff member takes back a paid run’s entry alone: each was confirmed on bKash’s word with the run', async () => {
    const g = await game();
    const { run: r, paymentID } = await started(g, 3, [MINE]);
    await sim.pay(paymentID, SANDBOX);
    await callback({ paymentID, status: 'success' }).expect(200);
    for (const e of r.entries as { id: number }[]) {
      const res = await to(t, api.updateTransaction, { params: { id: e.id }, as: staff }).send({ status: 'pending' });
      expect([res.status, res.body.code]).toEqual([409, 'confirmed_by_bkash']);
    }
    expect((await entries(r.id)).map((e) => e.status)).toEqual(['success', 'success', 'success']);
  });

  test('another entry than the lead cannot be paid alone, nor given a TrxID', async () => {
    const g = await game();
    const res = await run(a, { game_id: g, draws: 3, lines: [MINE] });
    const other = (res.body.entries as { id: number }[])[1]!.id;
    const c = await to(t, api.startCheckout, { params: { id: other }, as: a });
    expect([c.status, c.body.code]).toEqual([409, 'run_entry']);
    const trx = await to(t, api.setTrxId, { params: { id: other }, as: a }).send({ trx_id: 'ABCD1234EF' });
    expect([trx.status, trx.body.code]).toEqual([409, 'run_entry']);
  });

  test('a cancelled payment confirms none: every entry fails, its numbers free for anyone, the slip failed', async () => {
    const g = await game();
    const { run: r, paymentID } = await started(g, 3, [MINE]);
    await sim.cancel(paymentID);
    expect((await callback({ paymentID, status: 'cancel' }).expect(200)).body.outcome).toBe('cancelled');
    expect((await entries(r.id)).map((e) => e.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await slip(r.id))?.status).toBe('failed');
    const third = (r.entries as { lottery: { id: number } }[])[2]!.lottery.id;
    expect((await buy(t, b, purchase(third, MINE))).status).toBe(201);
  });

  test('the run’s first draw closed before payment: the freeze rejects its entry and releases the later ones', async () => {
    const g = await game();
    const res = await run(a, { game_id: g, draws: 3, lines: [MINE] });
    const firstLottery = (res.body.entries as { lottery: { id: number } }[])[0]!.lottery.id;
    await t.db.query(`UPDATE lotteries SET start_date = now() - interval '1 day', end_date = now() - interval '1 minute' WHERE id = $1`, [
      firstLottery,
    ]);
    expect(await freezeDue(t.db)).toBe(1);
    expect((await entries(res.body.id)).map((e) => e.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await slip(res.body.id))?.status).toBe('failed');
    // Its checkout can no longer start.
    expect((await to(t, api.startCheckout, { params: { id: res.body.lead_id }, as: a })).body.code).toBe('not_pending');
  });
});

describe('one Send Money for the whole run (its TrxID given on its first entry)', () => {
  const setTrx = (id: number, trx_id: string, p: Player = a) => to(t, api.setTrxId, { params: { id }, as: p }).send({ trx_id });

  test('money of the whole amount sent: bKash’s check confirms every entry at once, the slip paid with the TrxID', async () => {
    const g = await game();
    const r = (await run(a, { game_id: g, draws: 3, lines: [MINE] }).expect(201)).body;
    const trx = sim.sendMoney({ from: SANDBOX.wallet, to: await receiver(r.lead_id), amount: 300 });
    const res = await setTrx(r.lead_id, trx).expect(200);
    expect(res.body.status).toBe('success');
    expect((await entries(r.id)).map((e) => e.status)).toEqual(['success', 'success', 'success']);
    expect(await slip(r.id)).toEqual({ status: 'paid', trx_id: trx });
    expect(await t.db.query("SELECT id FROM audit_log WHERE action = 'transaction.confirmed_by_bkash'")).toHaveLength(3);
    // Paid: no one staff member takes an entry back.
    const other = (r.entries as { id: number }[])[1]!.id;
    const back = await to(t, api.updateTransaction, { params: { id: other }, as: staff }).send({ status: 'pending' });
    expect([back.status, back.body.code]).toEqual([409, 'confirmed_by_bkash']);
  });

  test('money of one draw’s price only: not confirmed (amount differs), every entry still waiting', async () => {
    const g = await game();
    const r = (await run(a, { game_id: g, draws: 3, lines: [MINE] }).expect(201)).body;
    const trx = sim.sendMoney({ from: SANDBOX.wallet, to: await receiver(r.lead_id), amount: 100 });
    await setTrx(r.lead_id, trx).expect(200);
    // Staff judging it by hand see what the run's one payment must be.
    const listed = (await to(t, api.transactions, { as: staff }).expect(200)).body as { id: number; run_paid: unknown }[];
    expect(listed.find((x) => x.id === r.lead_id)?.run_paid).toEqual({ draws: 3, lines: 1, amount: 300 });
    expect(listed.filter((x) => x.id !== r.lead_id).map((x) => x.run_paid)).toEqual([null, null]);
    const check = await t.db.one<{ state: string; reason: string }>('SELECT state, reason FROM trx_id_checks WHERE transaction_id = $1', [
      r.lead_id,
    ]);
    expect(check).toEqual({ state: 'refused', reason: 'amount_differs' });
    expect((await entries(r.id)).map((e) => e.status)).toEqual(['pending', 'pending', 'pending']);
    expect((await slip(r.id))?.status).toBe('pending');
  });

  test('a TrxID on another entry than the first: 409 under the field, pointing to the first draw', async () => {
    const g = await game();
    const r = (await run(a, { game_id: g, draws: 3, lines: [MINE] }).expect(201)).body;
    const other = (r.entries as { id: number }[])[2]!.id;
    const res = await setTrx(other, 'ABCD1234EF');
    expect([res.status, res.body.code]).toEqual([409, 'run_entry']);
    expect(res.body.trx_id).toEqual([expect.stringContaining('first draw')]);
  });

  test('two staff members approve the first entry by hand: the whole run is confirmed, audited on each entry', async () => {
    const g = await game();
    const r = (await run(a, { game_id: g, draws: 3, lines: [MINE] }).expect(201)).body;
    // A TrxID bKash does not know: the check refuses it, and staff look at the receipt.
    await setTrx(r.lead_id, 'ZZZZ9999ZZ').expect(200);
    expect((await approveByHand(t, r.lead_id)).status).toBe(200);
    expect((await entries(r.id)).map((e) => e.status)).toEqual(['success', 'success', 'success']);
    expect(await slip(r.id)).toEqual({ status: 'paid', trx_id: 'ZZZZ9999ZZ' });
    const approvals = await t.db.query<{ after: { proposal_id?: number } }>(
      "SELECT after FROM audit_log WHERE action = 'transaction.approve'",
    );
    expect(approvals).toHaveLength(3);
    expect(approvals.every((x) => typeof x.after.proposal_id === 'number')).toBe(true);
  });

  test('staff reject the first entry: the whole run is released; another entry’s status is not staff’s to change', async () => {
    const g = await game();
    const r = (await run(a, { game_id: g, draws: 3, lines: [MINE] }).expect(201)).body;
    const [, second] = r.entries as { id: number }[];
    const alone = await to(t, api.updateTransaction, { params: { id: second!.id }, as: staff }).send({ status: 'failed' });
    expect([alone.status, alone.body.code]).toEqual([409, 'run_entry']);
    await to(t, api.updateTransaction, { params: { id: r.lead_id }, as: staff })
      .send({ status: 'failed' })
      .expect(200);
    expect((await entries(r.id)).map((e) => e.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await slip(r.id))?.status).toBe('failed');
    // Its numbers are free again in every draw.
    const third = (r.entries as { lottery: { id: number } }[])[2]!.lottery.id;
    expect((await buy(t, b, purchase(third, MINE))).status).toBe(201);
    // A failed run stays failed: its first entry is not moved back alone.
    const again = await to(t, api.updateTransaction, { params: { id: r.lead_id }, as: staff }).send({ status: 'pending' });
    expect([again.status, again.body.code]).toEqual([409, 'run_entry']);
  });
});

describe('the ticket page: consecutive draws, without JavaScript', () => {
  /** The game's first draw's ticket page for MINE, as `a` logged in, in `lng`. */
  async function ticketPage(lng: 'en' | 'bn') {
    const g = await game();
    const [first] = await t.db.query<{ id: number }>('SELECT id FROM lotteries WHERE game_id = $1 ORDER BY draw_at', [g]);
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    agent.set('Cookie', `lang=${lng}`);
    const page = await agent.get(`/quick-play/${first!.id}/${MINE}`).expect(200);
    const form = { _csrf: csrfFrom(page.text), idempotency_key: keyFrom(page.text), amount: '100', payment_method: 'bkash' };
    return { g, lottery: first!.id, agent, page: page.text, form };
  }

  test('a game’s draw offers 1, 3, 5, 12 or 25 draws, each with the price of the whole run, in both languages', async () => {
    const en = await ticketPage('en');
    expect(en.page).toContain('Consecutive draws');
    for (const n of [1, 3, 5, 12, 25]) expect(en.page).toMatch(new RegExp(`name="draws"[^>]*value="${n}"|value="${n}"[^>]*name="draws"`));
    expect(en.page).toMatch(/TK\. 100<\/span> × <span class="nowrap">5<\/span> = <span class="nowrap">TK\. 500/);
    await clearGames(t);
    const bn = await ticketPage('bn');
    expect(bn.page).toContain('ধারাবাহিক ড্র');
    expect(bn.page).toMatch(/৳১০০<\/span> × <span class="nowrap">৫<\/span> = মোট <span class="nowrap">৳৫০০/);
  });

  test('“Pay with bKash” for 5 draws makes the run and goes to bKash for the whole amount', async () => {
    const { agent, lottery, form } = await ticketPage('en');
    const go = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send({ ...form, draws: '5', pay: 'checkout' });
    expect(go.status).toBe(303);
    expect(go.headers.location).toMatch(/\/checkout\/[^/]+$/);
    const [made] = await t.db.query<{ id: number; amount: number; lead_id: number }>('SELECT id, amount, lead_id FROM slips');
    expect(Number(made!.amount)).toBe(500);
    expect(await entries(made!.id)).toHaveLength(5);
    const [p] = await t.db.query<{ payment_id: string; amount: number }>('SELECT payment_id, amount FROM bkash_payments');
    expect(Number(p!.amount)).toBe(500);
    // Paid in the simulator: the run's first draw's page says the whole run is paid with one payment.
    await sim.pay(p!.payment_id, SANDBOX);
    await callback({ paymentID: p!.payment_id, status: 'success' }).expect(200);
    const lead = await agent.get(`/payment/${made!.lead_id}`).expect(200);
    expect(lead.text).toContain('One payment for the whole run');
    expect(lead.text).toMatch(/Amount paid<\/dt><dd class="summary__amount"><span class="nowrap">TK\. 500/);
    expect((await entries(made!.id)).every((e) => e.status === 'success')).toBe(true);
    // The run's page: its five draws, each a ticket as My Lotteries tells one, with its Lucky Chance code.
    const runPage = await agent.get(`/my-lotteries/runs/${made!.id}`).expect(200);
    expect(runPage.text).toContain('Your run of draws');
    expect(runPage.text).toContain('5 draws');
    expect(runPage.text.match(/<article class="card my-ticket"/g)).toHaveLength(5);
    expect(runPage.text.match(/Not drawn yet\./g)).toHaveLength(5);
    expect(runPage.text.match(/Lucky Chance code/g)).toHaveLength(5);
    // My Lotteries: the run is one item, leading to its page: its draws, its numbers, its one amount.
    const mine = await agent.get('/my-lotteries').expect(200);
    expect(mine.text.match(/<article class="card my-ticket/g)).toHaveLength(1);
    expect(mine.text).toContain(`href="/my-lotteries/runs/${made!.id}"`);
    expect(mine.text).toMatch(/<span class="nowrap">5 draws<\/span> in a row, <span class="nowrap">1 line of numbers<\/span>/);
    expect(mine.text).toContain('0 of 5 drawn');
    // Another player's run is not found.
    const other = await loginAs(t.url, b.phone, 'secret-pass-1');
    expect((await other.get(`/my-lotteries/runs/${made!.id}`)).status).toBe(404);
  });

  test('“Play these numbers again” on a run not paid: a new run of the same numbers and length, straight to bKash', async () => {
    const g = await game();
    const { run: r, paymentID } = await started(g, 3, [MINE, '01-02-03-04-05-06']);
    await sim.cancel(paymentID);
    await callback({ paymentID, status: 'cancel' }).expect(200);
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    const page = await agent.get(`/my-lotteries/runs/${r.id}`).expect(200);
    expect(page.text).toContain('Play these numbers again in the next 3 draws');
    const again = await agent
      .post(`/my-lotteries/runs/${r.id}`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), idempotency_key: keyFrom(page.text) });
    expect(again.status).toBe(303);
    expect(again.headers.location).toMatch(/\/checkout\/[^/]+$/);
    const made = await t.db.query<{ id: number; draws: number; lines: number; amount: number }>(
      'SELECT id, draws, lines, amount FROM slips WHERE id <> $1',
      [r.id],
    );
    expect(made.map((x) => [x.draws, x.lines, Number(x.amount)])).toEqual([[3, 2, 600]]);
    expect(new Set((await entries(made[0]!.id)).map((e) => e.ticket))).toEqual(new Set([MINE, '01-02-03-04-05-06']));
    // The same form sent again makes no second run.
    const twice = await agent
      .post(`/my-lotteries/runs/${r.id}`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), idempotency_key: keyFrom(page.text) });
    expect(twice.status).toBe(303);
    expect(await t.db.query('SELECT id FROM slips WHERE id <> $1', [r.id])).toHaveLength(1);
  });

  /** A form body with repeated fields (a play slip's lines), as a browser sends it. */
  const formBody = (fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
    return body.toString();
  };
  const moreLines = (...typed: string[]) => [...typed, ...Array<string>(9 - typed.length).fill('')];

  test('a play slip: the page’s numbers, a typed line (spaces for dashes) and 2 quick picks for 3 draws; the payment page shows the whole before paying', async () => {
    const { agent, lottery, form } = await ticketPage('en');
    const page = await agent.get(`/quick-play/${lottery}/${MINE}`).expect(200);
    // The slip's lines are offered: nine more lines and quick picks 0–9, folded away.
    expect(page.text.match(/name="more_lines"/g)).toHaveLength(9);
    expect(page.text).toContain('<details class="slip-lines">');
    const go = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send(formBody({ ...form, draws: '3', more_lines: moreLines('3 11 19 27 44 8'), quick_lines: '2', pay: 'checkout' }));
    expect(go.status).toBe(303);
    const [made] = await t.db.query<{ id: number; lines: number; draws: number; amount: number; lead_id: number }>(
      'SELECT id, lines, draws, amount, lead_id FROM slips',
    );
    expect([made!.lines, made!.draws, Number(made!.amount)]).toEqual([4, 3, 1200]);
    // Several lines: to the payment page first, where the whole amount is written out; nothing asked of bKash yet.
    expect(go.headers.location).toBe(`/payment/${made!.lead_id}`);
    expect(await t.db.query('SELECT payment_id FROM bkash_payments')).toEqual([]);
    const tickets = new Set((await entries(made!.id)).map((e) => e.ticket));
    expect(tickets.size).toBe(4);
    expect(tickets.has(MINE) && tickets.has('03-11-19-27-44-08')).toBe(true);
    expect(await entries(made!.id)).toHaveLength(12);
    const pay = await agent.get(go.headers.location!).expect(200);
    expect(pay.text).toMatch(/Lucky Chance code(<!-- -->)?: <span class="nowrap">BHG \d{4} \d{4}<\/span>/);
    expect(pay.text).toContain(`href="/my-lotteries/runs/${made!.id}"`);
    expect(pay.text).toMatch(
      /One payment for the whole slip: <span class="nowrap">4<\/span> lines of numbers in <span class="nowrap">3<\/span> draws, <span class="nowrap">TK\. 1,200<\/span>/,
    );
  });

  test('a play slip of one draw: the page’s numbers and a quick pick are a slip of 1 draw and 2 lines', async () => {
    const { agent, lottery, form } = await ticketPage('en');
    const go = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send(formBody({ ...form, draws: '1', more_lines: moreLines(), quick_lines: '1', pay: 'checkout' }));
    expect(go.status).toBe(303);
    const made = await t.db.query<{ lines: number; draws: number; amount: number }>('SELECT lines, draws, amount FROM slips');
    expect(made.map((x) => [x.lines, x.draws, Number(x.amount)])).toEqual([[2, 1, 200]]);
  });

  test('a typed line that is no ticket, or the page’s own numbers again: refused on the page, lines kept, nothing made', async () => {
    const { agent, lottery, form } = await ticketPage('bn');
    const bad = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send(formBody({ ...form, draws: '3', more_lines: moreLines('01-02-03', ''), quick_lines: '4', pay: 'checkout' }));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert">একটি টিকিটে থাকে ১ থেকে ৫৫-এর মধ্যে ৫টি আলাদা সংখ্যা');
    // The Bengali message of an invalid ticket, the typed line and the quick picks kept, the slip's lines open.
    expect(bad.text).toContain('value="01-02-03"');
    expect(bad.text).toMatch(/<option value="4" selected="">৪<\/option>/);
    expect(bad.text).toContain('<details class="slip-lines" open="">');
    const twice = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send(formBody({ ...form, draws: '3', more_lines: moreLines(MINE), quick_lines: '0', pay: 'checkout' }));
    expect(twice.status).toBe(400);
    expect(twice.text).toContain(`role="alert">${MINE} সংখ্যাগুলো দুটি সারিতে আছে`);
    expect(await t.db.query('SELECT id FROM slips')).toEqual([]);
    expect(await t.db.query('SELECT id FROM transactions')).toEqual([]);
  });

  test('a typed line someone holds in one of the draws: 409 on the page with a free suggestion; nothing made', async () => {
    const { agent, lottery, form } = await ticketPage('en');
    expect((await buy(t, b, purchase(lottery, '01-02-03-04-05-06'))).status).toBe(201);
    const res = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send(formBody({ ...form, draws: '3', more_lines: moreLines('01-02-03-04-05-06'), quick_lines: '0', pay: 'checkout' }));
    expect(res.status).toBe(409);
    expect(res.text).toMatch(
      /role="alert">Someone already holds 01-02-03-04-05-06 in the draw of .*for example \d\d-\d\d-\d\d-\d\d-\d\d-\d\d, free in every draw/,
    );
    expect(res.text).toContain('value="01-02-03-04-05-06"');
    expect(await t.db.query('SELECT id FROM slips')).toEqual([]);
  });

  test('“Send Money” for a run: the run made, then its first draw’s payment page with the Send Money steps for the whole amount', async () => {
    const { agent, lottery, form } = await ticketPage('en');
    const res = await agent
      .post(`/quick-play/${lottery}/${MINE}/buy`)
      .type('form')
      .send({ ...form, draws: '3', pay: 'send_money' });
    expect(res.status).toBe(303);
    const [made] = await t.db.query<{ id: number; lead_id: number; amount: number }>('SELECT id, lead_id, amount FROM slips');
    expect(res.headers.location).toBe(`/payment/${made!.lead_id}`);
    const page = await agent.get(res.headers.location!).expect(200);
    expect(page.text).toContain('name="trx_id"');
    expect(page.text).toMatch(/class="summary__amount"><span class="nowrap">TK\. 300/);
    // The TrxID typed there, of money bKash saw arrive: the whole run confirmed.
    const trx = sim.sendMoney({ from: SANDBOX.wallet, to: await receiver(made!.lead_id), amount: 300 });
    const sent = await agent
      .post(res.headers.location!)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), trx_id: trx, payment_number: '' });
    expect(sent.status).toBe(303);
    expect((await entries(made!.id)).every((e) => e.status === 'success')).toBe(true);
  });
});

describe('a paid run with one draw left', () => {
  const due = (id: number, b: (typeof REAL_BEACONS)[number]) => dueOnRound(t, id, b);
  const told = () =>
    t.db.query<{ user_id: number; params: { run_id: number; draws: number; lottery_id: number } }>(
      "SELECT user_id, params FROM player_messages WHERE kind = 'run_last_draw'",
    );

  test('My Lotteries has the run as one item: its draws drawn, what they won, the prize to claim; its page claims it', async () => {
    const g = await game();
    const { run: r, paymentID } = await started(g, 3, [MINE]);
    await sim.pay(paymentID, SANDBOX);
    await callback({ paymentID, status: 'success' }).expect(200);
    const [first, second] = (r.entries as { lottery: { id: number; draw_at: string } }[]).map((e) => e.lottery);
    await due(first!.id, REAL_BEACONS[0]);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);
    // Lucky Chance pays 3 codes among the draw's paid entries: the run's only one wins, at least its 100,000.
    const prize = await t.db.one<{ prize_money: number }>('SELECT prize_money FROM prizes WHERE transaction_id = $1', [r.lead_id]);
    expect(Number(prize!.prize_money)).toBeGreaterThanOrEqual(100_000);

    const mine = await to(t, api.myLotteries, { as: a }).expect(200);
    expect(mine.body.tickets.map((x: { id: number }) => x.id)).toEqual([r.lead_id]);
    expect(mine.body.total).toBe(1);
    expect(mine.body.runs).toEqual([
      {
        id: r.id,
        game_name: 'Bhagya Lotto',
        game_name_bn: 'ভাগ্য লোটো',
        draws: 3,
        lines: 1,
        amount: 300,
        status: 'paid',
        tickets: [MINE],
        drawn: 1,
        won: Number(prize!.prize_money),
        to_claim: 1,
        first_draw_at: expect.any(String),
        last_draw_at: expect.any(String),
        next_draw_at: expect.any(String),
      },
    ]);
    expect(Date.parse(mine.body.runs[0].next_draw_at)).toBe(Date.parse(second!.draw_at));
    // Another player's list knows nothing of it.
    expect((await to(t, api.myLotteries, { as: b }).expect(200)).body).toMatchObject({ tickets: [], runs: [] });

    // The pages: one item saying the prize waits; the run's page leads to the claim of the drawn entry.
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    const list = await agent.get('/my-lotteries').expect(200);
    expect(list.text).toContain('1 of 3 drawn');
    expect(list.text).toContain('1 prize to claim: open the run to add your payment details.');
    const page = await agent.get(`/my-lotteries/runs/${r.id}`).expect(200);
    const [won] = await t.db.query<{ id: number }>('SELECT id FROM prizes WHERE transaction_id = $1', [r.lead_id]);
    expect(page.text).toContain(`href="/user/prize-claim/${won!.id}"`);
    expect(page.text.match(/Not drawn yet\./g)).toHaveLength(2);
    agent.set('Cookie', 'lang=bn');
    const bn = await agent.get('/my-lotteries').expect(200);
    expect(bn.text).toContain('৩টির মধ্যে ১টির ড্র হয়েছে');
  });

  test('its player is told once, when the draw before its last is drawn; not before, and not for an unpaid run', async () => {
    const g = await game();
    const { run: r, paymentID } = await started(g, 3, [MINE]);
    await sim.pay(paymentID, SANDBOX);
    await callback({ paymentID, status: 'success' }).expect(200);
    // b's run of 3, never paid: nobody tells him anything.
    expect((await run(b, { game_id: g, draws: 3, lines: ['01-02-03-04-05-06'] })).status).toBe(201);
    const [first, second, third] = (r.entries as { lottery: { id: number } }[]).map((e) => e.lottery.id);
    await due(first!, REAL_BEACONS[0]);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);
    expect(await told()).toEqual([]);
    await due(second!, REAL_BEACONS[1]);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);
    expect(await told()).toEqual([{ user_id: a.id, params: expect.objectContaining({ run_id: r.id, draws: 3, lottery_id: third }) }]);
    // Its words lead to the run's page.
    const page = await to(t, api.notifications, { as: a }).expect(200);
    expect(page.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'run_last_draw', link: `/my-lotteries/runs/${r.id}` })]),
    );
  });
});
