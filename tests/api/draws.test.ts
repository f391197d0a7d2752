/**
 * The draw by hand (docs/rules/lotteries-and-sales.md#9-the-draw): POST /api/v1/draw-lottery/ proposes the winners,
 * POST /api/v1/draw-proposals/{id}/approve/ by a second staff member finishes the draw; GET /api/v1/get-prizes/{id}/.
 * Staff only; only `success` tickets of the lottery win, no duplicates, at most the lottery's winners; the lottery's
 * own total prize split in whole taka; results published in the same transaction; once per lottery, even when two
 * staff finish it at the same moment; audited. The proposal itself: tests/api/draw-proposals.test.ts. On PGlite and
 * PostgreSQL.
 */
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, closeSales, insertLottery, purchase, type Player, sold as soldBy, superuserAccount } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player, checker: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Draw Officer', is_staff: true });
  checker = await account(t, { name: 'Second Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of ['audit_log', 'prize_payouts', 'prize_claims', 'prizes', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const T3 = '10-20-30-40-50-15';

const propose = (p: Player | null, body: unknown, lang = 'en') => to(t, api.drawLottery, { as: p, lang }).send(body as object);
/** The second staff member's approval of a draw proposal, which finishes the draw. */
const approve = (by: Player, proposalId: number, lang = 'en') => to(t, api.approveDrawProposal, { params: { proposalId }, as: by, lang });
/**
 * A draw by hand: the lottery's sales closed (winners are chosen only after the close), `p` proposes the tickets (with a
 * reason, unless the body is a bad one being tested), then the second staff member approves; answers the approval, or
 * the proposal's refusal.
 */
async function draw(p: Player | null, body: unknown, lng = 'en', by = checker) {
  const lottery = (body as { lottery_id?: unknown } | null)?.lottery_id;
  if (typeof lottery === 'number') await closeSales(t, lottery);
  const withReason = body && typeof body === 'object' && !Array.isArray(body) ? { reason: 'By hand in a test', ...body } : body;
  const proposed = await propose(p, withReason, lng);
  if (proposed.status !== 202) return proposed;
  return approve(by, proposed.body.id as number, lng);
}
const prizes = (p: Player | null, lottery: number | string) => to(t, api.lotteryPrizes, { params: { lotteryId: lottery }, as: p });

/** A ticket bought by this player and approved (status success), unless told to leave it as it is. */
const sold = (p: Player, lottery: number, ticket: string, status?: 'success' | 'pending' | 'failed') =>
  soldBy(t, staff, p, lottery, ticket, status);

const state = async (lottery: number) => ({
  lottery: await t.db.one<{ is_result_published: boolean; drawn_at: string | null }>(
    'SELECT is_result_published, drawn_at FROM lotteries WHERE id = $1',
    [lottery],
  ),
  prizes: await t.db.query<{ ticket: string; prize_money: number; transaction_id: number }>(
    'SELECT ticket, prize_money, transaction_id FROM prizes WHERE lottery_id = $1 ORDER BY id',
    [lottery],
  ),
  audit: await t.db.query<{ action: string; actor_id: number; entity_id: string; before: unknown; after: Record<string, unknown> }>(
    "SELECT action, actor_id, entity_id, before, after FROM audit_log WHERE entity = 'lottery' ORDER BY id",
  ),
});

/** Nothing of a refused draw remains: no prize, results unpublished, no audit record. */
async function unchanged(lottery: number) {
  const s = await state(lottery);
  expect(s.lottery).toEqual({ is_result_published: false, drawn_at: null });
  expect(s.prizes).toEqual([]);
  expect(s.audit).toEqual([]);
}

describe('who may', () => {
  test('anonymous 401 and a player 403 on both endpoints; nothing is drawn', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    for (const res of [await draw(null, { lottery_id: lottery, tickets: [T1] }), await prizes(null, lottery)]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('not_authenticated');
    }
    for (const res of [await draw(a, { lottery_id: lottery, tickets: [T1] }), await prizes(a, lottery)]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    }
    await unchanged(lottery);
  });

  test('staff who lost the right are refused at once', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const former = await account(t, { is_staff: true });
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [former.id]);
    expect((await draw(former, { lottery_id: lottery, tickets: [T1] })).status).toBe(403);
    await unchanged(lottery);
  });
});

describe('finishing a draw', () => {
  test('one prize per ticket, the total prize split equally, results published, audited', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly' }); // winners 2, total prize 100,000
    const ta = await sold(a, lottery, T1);
    const tb = await sold(b, lottery, T2);
    await sold(b, lottery, T3);
    const res = await draw(staff, { lottery_id: lottery, tickets: [T2, T1] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ lottery_id: lottery, total_prize: 100000, remainder: 0 });
    expect(
      res.body.prizes.map((p: { ticket: string; prize_money: number; transaction_id: number }) => [
        p.ticket,
        p.prize_money,
        p.transaction_id,
      ]),
    ).toEqual([
      [T2, 50000, tb],
      [T1, 50000, ta],
    ]);
    const s = await state(lottery);
    expect(s.lottery?.is_result_published).toBe(true);
    expect(new Date(s.lottery?.drawn_at ?? 0).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.drawn_at).toBe(s.lottery?.drawn_at);
    // The tickets frozen by the proposal (no job had), proposed by one, drawn by the other: all in the audit log.
    expect(s.audit.map((r) => [r.action, r.actor_id])).toEqual([
      ['lottery.freeze', null],
      ['lottery.draw_proposed', staff.id],
      ['lottery.draw', checker.id],
    ]);
    expect(s.audit[2]).toMatchObject({ entity_id: String(lottery) });
    expect(s.audit[2]?.after).toMatchObject({
      is_result_published: true,
      total_prize: 100000,
      remainder: 0,
      algorithm: 'unverifiable',
      proposed_by: staff.id,
      approved_by: checker.id,
    });
    expect((s.audit[2]?.after.prizes as unknown[]).length).toBe(2);
    // The results are public now, and the lottery is no longer on sale.
    const results = await to(t, api.lotteryResults);
    const mine = results.body.find((r: { lottery: { id: number } }) => r.lottery.id === lottery);
    expect(mine.prizes.map((p: { ticket: string }) => p.ticket).sort()).toEqual([T1, T2].sort());
    const late = await buy(t, a, purchase(lottery, '11-12-13-14-15-01'));
    expect(late.status).toBe(409);
    // get-prizes lists them in the order chosen.
    const listed = await prizes(staff, lottery);
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: { ticket: string }) => p.ticket)).toEqual([T2, T1]);
    // Won is not paid: a prize is paid out only once its claim's transfer is completed.
    expect(listed.body.map((p: { paid_out: boolean }) => p.paid_out)).toEqual([false, false]);
    const [first, second] = listed.body as { id: number; transaction_id: number }[];
    for (const [prize, status] of [
      [first!, 'transfer_completed'],
      [second!, 'payment_info_submitted'],
    ] as const)
      await t.db.query(
        `INSERT INTO prize_claims (prize_id, user_id, status, payment_method)
         SELECT $1, user_id, $2, 'bkash' FROM transactions WHERE id = $3`,
        [prize.id, status, prize.transaction_id],
      );
    expect((await prizes(staff, lottery)).body.map((p: { paid_out: boolean }) => p.paid_out)).toEqual([true, false]);
  });

  test('whole taka: the remainder of the split is not paid out', async () => {
    const lottery = await insertLottery(t);
    await t.db.query('UPDATE lotteries SET total_prize = 1000, winners = 3 WHERE id = $1', [lottery]);
    for (const [p, ticket] of [
      [a, T1],
      [b, T2],
      [a, T3],
    ] as const)
      await sold(p, lottery, ticket);
    const res = await draw(staff, { lottery_id: lottery, tickets: [T1, T2, T3] });
    expect(res.status).toBe(201);
    expect(res.body.remainder).toBe(1);
    expect((await state(lottery)).prizes.map((p) => p.prize_money)).toEqual([333, 333, 333]);
  });

  test('fewer tickets than winners: the total prize goes to those chosen', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const res = await draw(staff, { lottery_id: lottery, tickets: [T1] });
    expect(res.status).toBe(201);
    expect((await state(lottery)).prizes).toEqual([expect.objectContaining({ ticket: T1, prize_money: 100000 })]);
  });

  test('tickets in another written form are read canonically; a prize in the body never sets the money', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const res = await draw(staff, { lottery_id: lottery, tickets: ['45-5-34-12-23-7'], prize: 999999 });
    expect(res.status).toBe(201);
    expect((await state(lottery)).prizes).toEqual([expect.objectContaining({ ticket: T1, prize_money: 100000 })]);
  });
});

describe('refused draws change nothing', () => {
  test.each([
    [
      'a ticket chosen twice (in two written forms)',
      [T1, '5-12-23-34-45-7'],
      'The ticket 05-12-23-34-45-07 is chosen twice.',
      'draw_ticket_twice',
    ],
    ['more tickets than winners', [T1, T2, T3], 'This lottery has 2 winners, but 3 tickets were chosen.', 'draw_too_many_tickets'],
    [
      'a pending ticket',
      [T1, '02-03-04-05-06-07'],
      'The ticket 02-03-04-05-06-07 was not sold (approved) in this lottery.',
      'draw_ticket_not_sold',
    ],
    [
      'a rejected ticket',
      ['03-04-05-06-07-08'],
      'The ticket 03-04-05-06-07-08 was not sold (approved) in this lottery.',
      'draw_ticket_not_sold',
    ],
    [
      'a ticket nobody bought',
      ['20-21-22-23-24-09'],
      'The ticket 20-21-22-23-24-09 was not sold (approved) in this lottery.',
      'draw_ticket_not_sold',
    ],
  ])('%s', async (_name, tickets, message, code) => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    await sold(b, lottery, T3);
    await sold(a, lottery, '02-03-04-05-06-07', 'pending');
    await sold(a, lottery, '03-04-05-06-07-08', 'failed');
    const res = await draw(staff, { lottery_id: lottery, tickets });
    expect(res.status).toBe(400);
    // A field's refusal carries its code beside the field (docs/rules/api.md#2-errors).
    expect(res.body).toEqual({ tickets: [message], code });
    await unchanged(lottery);
  });

  test('every ticket not sold is named, each in its message under `tickets`', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const res = await draw(staff, { lottery_id: lottery, tickets: ['20-21-22-23-24-09', '20-21-22-23-25-09'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      tickets: [
        'The ticket 20-21-22-23-24-09 was not sold (approved) in this lottery.',
        'The ticket 20-21-22-23-25-09 was not sold (approved) in this lottery.',
      ],
      code: 'draw_ticket_not_sold',
    });
    await unchanged(lottery);
  });

  test('a ticket sold in another lottery does not win this one', async () => {
    const lottery = await insertLottery(t);
    const other = await insertLottery(t);
    await sold(a, other, T1);
    const res = await draw(staff, { lottery_id: lottery, tickets: [T1] });
    expect(res.status).toBe(400);
    await unchanged(lottery);
  });

  test.each([
    ['no tickets', (l: number) => ({ lottery_id: l, tickets: [] }), 'tickets'],
    ['tickets missing', (l: number) => ({ lottery_id: l }), 'tickets'],
    ['not a ticket', (l: number) => ({ lottery_id: l, tickets: ['56-1-2-3-4-5'] }), 'tickets'],
    ['tickets not a list', (l: number) => ({ lottery_id: l, tickets: T1 }), 'tickets'],
    ['control characters', (l: number) => ({ lottery_id: l, tickets: [`${T1}\u0000`] }), 'tickets'],
    ['lottery missing', () => ({ tickets: [T1] }), 'lottery_id'],
    ['lottery not a number', () => ({ lottery_id: 'abc', tickets: [T1] }), 'lottery_id'],
    ['an unknown field', (l: number) => ({ lottery_id: l, tickets: [T1], winners: 5 }), 'winners'],
  ])('400 for %s', async (_name, body, field) => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const res = await draw(staff, body(lottery));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toContain(field);
    await unchanged(lottery);
  });

  test('an unknown lottery is 404; a body that is not JSON 400', async () => {
    const res = await draw(staff, { lottery_id: 987654, tickets: [T1] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ lottery_id: ['Lottery not found'], code: 'not_found' });
    const raw = await to(t, api.drawLottery, { as: staff }).set('Content-Type', 'application/json').send('{"lottery_id":');
    expect(raw.status).toBe(400);
    expect((await prizes(staff, 987654)).status).toBe(404);
    expect((await prizes(staff, 'x')).status).toBe(404);
  });

  test('Bengali callers get the messages in Bengali', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const res = await draw(staff, { lottery_id: lottery, tickets: [T1, T1] }, 'bn');
    expect(res.status).toBe(400);
    expect(res.body.tickets[0]).toContain('দুবার');
    expect(res.body.code).toBe('draw_ticket_twice');
  });
});

describe('a lottery is drawn once', () => {
  test('a second finish is 409 and leaves the first prizes', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    expect((await draw(staff, { lottery_id: lottery, tickets: [T1] })).status).toBe(201);
    const again = await draw(staff, { lottery_id: lottery, tickets: [T2] });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_drawn');
    const s = await state(lottery);
    expect(s.prizes.map((p) => p.ticket)).toEqual([T1]);
    expect(s.audit.map((r) => r.action)).toEqual(['lottery.freeze', 'lottery.draw_proposed', 'lottery.draw']);
  });

  test('results taken back by staff do not open a second draw', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    expect((await draw(staff, { lottery_id: lottery, tickets: [T1] })).status).toBe(201);
    await t.db.query('UPDATE lotteries SET is_result_published = false WHERE id = $1', [lottery]);
    const again = await draw(staff, { lottery_id: lottery, tickets: [T2] });
    expect(again.status).toBe(409);
    expect((await state(lottery)).prizes.map((p) => p.ticket)).toEqual([T1]);
  });

  test('results taken back through the API hide them but never reopen sales: purchase, pages and generation refused', async () => {
    const lottery = await insertLottery(t, { name: 'Taken Back Draw' });
    await sold(a, lottery, T1);
    expect((await draw(staff, { lottery_id: lottery, tickets: [T1] })).status).toBe(201);
    // Taken back by a superuser, with a reason (docs/rules/lotteries-and-sales.md#9-the-draw), its end of sales moved
    // a week ahead again (the draw came after the close).
    const head = await superuserAccount(t, { name: 'Head Office' });
    const back = await to(t, api.updateLottery, { params: { id: lottery }, as: head }).send({
      is_result_published: false,
      results_reason: 'The draw is checked again',
      end_date: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ is_result_published: false, drawn: true, purchasable: false });
    // Its end date is a week away: only the draw closes it.
    const shown = await to(t, api.getLottery, { params: { id: lottery } });
    expect(shown.body).toMatchObject({ is_result_published: false, drawn: true, purchasable: false });
    expect(Date.parse(shown.body.end_date)).toBeGreaterThan(Date.now());
    const en = await buy(t, b, purchase(lottery, T2));
    expect(en.status).toBe(409);
    expect(en.body).toEqual({ detail: 'This lottery has ended, or the results have been published.', code: 'lottery_ended' });
    const bn = await buy(t, b, purchase(lottery, T3)).set('Accept-Language', 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body.detail).toBe('এই লটারি শেষ হয়ে গেছে, অথবা ফলাফল প্রকাশিত হয়েছে।');
    expect(await t.db.query('SELECT id FROM transactions WHERE lottery_id = $1 AND user_id = $2', [lottery, b.id])).toEqual([]);
    // Not offered in the quick-play panel, and no generated tickets for it either.
    await t.db.query('UPDATE lotteries SET featured = true WHERE id = $1', [lottery]);
    const featured = await to(t, api.featuredLotteries);
    expect(featured.body.map((l: { id: number }) => l.id)).not.toContain(lottery);
    const made = await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity: 1 });
    expect(made.status).toBe(409);
    // The ticket page and the number picker give the reason instead of the purchase form, for a logged-in player.
    const u = await createUser(t, { name: 'Late Buyer' });
    const agent = await loginAs(t.url, u.phone, u.password);
    const page = await agent.get(`/quick-play/${lottery}/${T2}`).set('Cookie', 'lang=en').expect(200);
    expect(page.text).toContain('This lottery has ended, or the results have been published.');
    expect(page.text).not.toMatch(/action="\/quick-play\/\d+\/[\d-]+\/buy"/);
    const pagebn = await agent.get(`/quick-play/${lottery}/${T2}`).set('Cookie', 'lang=bn').expect(200);
    expect(pagebn.text).toContain('এই লটারি শেষ হয়ে গেছে, অথবা ফলাফল প্রকাশিত হয়েছে।');
    const picker = await agent.get(`/all-lotteries?pick=${lottery}`).set('Cookie', 'lang=en').expect(200);
    expect(picker.text.slice(picker.text.indexOf('<dialog'))).toContain('This lottery has ended, or the results have been published.');
    const posted = await agent.post(`/quick-play/${lottery}/${T2}/buy`).type('form').send({ payment_method: 'bkash' });
    expect(posted.status).not.toBe(303);
    expect(await t.db.query('SELECT id FROM transactions WHERE lottery_id = $1 AND user_id = $2', [lottery, u.id])).toEqual([]);
  });

  test('three staff proposing at the same moment: one proposal; two approving it at once: exactly one set of prizes', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    const other = await account(t, { is_staff: true });
    const third = await account(t, { is_staff: true });
    await closeSales(t, lottery);
    const proposals = await Promise.all([
      propose(staff, { lottery_id: lottery, tickets: [T1, T2], reason: 'first' }),
      propose(other, { lottery_id: lottery, tickets: [T2], reason: 'second' }),
      propose(staff, { lottery_id: lottery, tickets: [T2, T1], reason: 'third' }),
    ]);
    expect(proposals.map((r) => r.status).sort()).toEqual([202, 409, 409]);
    expect(proposals.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(['proposal_pending', 'proposal_pending']);
    const kept = proposals.find((r) => r.status === 202)?.body as { id: number; tickets: string[]; proposed_by: { id: number } };
    const approvers = [checker, third, other].filter((x) => x.id !== kept.proposed_by.id).slice(0, 2);
    const results = await Promise.all(approvers.map((x) => approve(x, kept.id)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)?.body.code).toBe('proposal_decided');
    const s = await state(lottery);
    expect(s.prizes.map((p) => p.ticket)).toEqual(kept.tickets);
    expect(s.audit.map((r) => r.action)).toEqual(['lottery.freeze', 'lottery.draw_proposed', 'lottery.draw']);
  });
});
