/**
 * The back office's pages as a browser without JavaScript uses them (docs/rules/pages.md#4-without-javascript,
 * #9-back-office), and the dashboard's figures (GET /api/v1/admin/dashboard/): create a lottery through the plain
 * form, find it in the list, edit it (an unticked box says "no"; an unchanged date keeps its stored hour), and
 * nobody but staff gets in.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, buy, drawByHand, insertLottery, purchase, type Player, trxId, approveByHand, claimToPay } from './purchase-fixtures.ts';

let t: TestApp;
let staffAgent: Agent;
let staff: Player;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Desk Officer', is_staff: true });
  player = await account(t, { name: 'Rahim Uddin' });
  const u = await createUser(t, { name: 'Page Staff', phone: '01955500001', is_staff: true });
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'prize_payouts',
    'prize_claims',
    'generated_tickets',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const lotteries = () =>
  t.db.query<{ id: number; name: string; published: boolean; featured: boolean; end_date: string }>('SELECT * FROM lotteries ORDER BY id');

describe('creating and editing a lottery without JavaScript', () => {
  test('the form with its defaults → a refused post keeps the values → created → listed → edited', async () => {
    const page = await staffAgent.get('/admin/create-lottery').expect(200);
    expect(page.text).toContain('Create lottery');
    expect(page.text).toMatch(/name="winners"[^>]*value="1"|value="1"[^>]*name="winners"/);
    expect(page.text).toMatch(/name="ticket_price"[^>]*value="100"|value="100"[^>]*name="ticket_price"/);
    const form = {
      _csrf: csrfFrom(page.text),
      name: 'Karnaphuli Draw',
      name_bn: 'কর্ণফুলী ড্র',
      description: '',
      description_bn: '',
      start_date: '2026-12-01',
      end_date: '2026-11-30',
      total_prize: '5000',
      ticket_price: '50',
      winners: '2',
      total_tickets: '500',
      published: 'on',
    };
    const bad = await staffAgent.post('/admin/create-lottery').type('form').send(form);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('The end date must be after the start date.');
    expect(bad.text).toContain('value="Karnaphuli Draw"');
    expect(await lotteries()).toEqual([]);

    const ok = await staffAgent
      .post('/admin/create-lottery')
      .type('form')
      .send({ ...form, end_date: '2026-12-07' });
    expect(ok.status).toBe(303);
    const [row] = await lotteries();
    expect(row).toMatchObject({ name: 'Karnaphuli Draw', published: true, featured: false, end_date: '2026-12-07T14:00:00.000Z' });
    // Staff are shown the lottery they created, with a line above its form (not a toast over the page).
    expect(ok.headers.location).toBe(`/admin/lotteries/${row?.id}/edit?notice=created`);
    const shown = await staffAgent.get(ok.headers.location as string).expect(200);
    expect(shown.text).toMatch(/<div class="alert alert--success" role="status">The lottery was created\.<\/div>/);
    expect(shown.text).toContain('value="Karnaphuli Draw"');
    const bn = await staffAgent
      .get(ok.headers.location as string)
      .set('Cookie', 'lang=bn')
      .expect(200);
    expect(bn.text).toContain('লটারি তৈরি হয়েছে');
    expect((await staffAgent.get(`/admin/lotteries/${row?.id}/edit`).expect(200)).text).not.toContain('alert--success');

    const list = await staffAgent.get('/admin/lotteries?search=karnaphuli&filter=active').expect(200);
    expect(list.text).toContain('Karnaphuli Draw');
    expect(list.text).toContain('কর্ণফুলী ড্র');
    expect(list.text).toContain(`href="/admin/lotteries/${row?.id}/edit"`);
    const none = await staffAgent.get('/admin/lotteries?search=karnaphuli&filter=inactive').expect(200);
    expect(none.text).toContain('No lotteries found');

    // Edit: untick "published", tick "featured"; the end date's hour is kept when the date is not changed.
    await t.db.query(`UPDATE lotteries SET end_date = '2026-12-07T08:30:00Z' WHERE id = $1`, [row?.id]);
    const edit = await staffAgent.get(`/admin/lotteries/${row?.id}/edit`).expect(200);
    expect(edit.text).toContain('value="Karnaphuli Draw"');
    const saved = await staffAgent
      .post(`/admin/lotteries/${row?.id}/edit`)
      .type('form')
      .send({
        ...form,
        _csrf: csrfFrom(edit.text),
        end_date: '2026-12-07',
        end_date_was: '2026-12-07',
        start_date_was: '2026-12-01',
        published: undefined,
        featured: 'on',
      });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('The lottery was saved.');
    const [after] = await lotteries();
    expect(after).toMatchObject({ published: false, featured: true, end_date: '2026-12-07T08:30:00.000Z' });
  });

  test('a numbers lottery through the same form: the kind chosen, only its prize fields sent, the rollover target offered', async () => {
    const page = await staffAgent.get('/admin/create-lottery').expect(200);
    expect(page.text).toContain('name="kind" checked="" value="tickets"');
    // Both kinds' fields are in the page, as a browser without JavaScript posts them.
    const form = {
      _csrf: csrfFrom(page.text),
      name: 'Padma Numbers',
      start_date: '2026-12-01',
      end_date: '2026-12-07',
      ticket_price: '50',
      total_tickets: '5000',
      kind: 'numbers',
      total_prize: '1000',
      winners: '1',
      jackpot_share: '40',
      tier2_prize: '50000',
      tier3_prize: 'lots',
      tier4_prize: '100',
      tier5_prize: '0',
      rollover_to: '',
      published: 'on',
    };
    const bad = await staffAgent.post('/admin/create-lottery').type('form').send(form);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="[^"]*-err" class="field__error">[^<]+</);
    expect(await lotteries()).toEqual([]);
    const ok = await staffAgent
      .post('/admin/create-lottery')
      .type('form')
      .send({ ...form, tier3_prize: '5000' });
    expect(ok.status).toBe(303);
    const [first] = await t.db.query<{ id: number; kind: string; jackpot_share: number; tier3_prize: number; tier5_prize: number }>(
      'SELECT id, kind, jackpot_share, tier3_prize, tier5_prize FROM lotteries',
    );
    expect(first).toMatchObject({ kind: 'numbers', jackpot_share: 40, tier3_prize: 5000, tier5_prize: 0 });
    // A second numbers lottery is offered the first as the target of its unwon jackpot; the edit page shows the tiers.
    const again = await staffAgent.get('/admin/create-lottery').expect(200);
    expect(again.text).toContain(`<option value="${first!.id}">Padma Numbers</option>`);
    const edit = await staffAgent.get(`/admin/lotteries/${first!.id}/edit`).expect(200);
    expect(edit.text).toContain('name="kind" checked="" value="numbers"');
    expect(edit.text).toMatch(/name="tier3_prize"[^>]*value="5000"|value="5000"[^>]*name="tier3_prize"/);
    expect(edit.text).not.toContain(`<option value="${first!.id}">`);
  });

  test('an unknown lottery is Not Found; refused changes come back under their fields', async () => {
    expect((await staffAgent.get('/admin/lotteries/999999/edit')).status).toBe(404);
    const id = await insertLottery(t, { name: 'Sold Draw' });
    await buy(t, player, purchase(id, '05-12-23-34-45-07'));
    const edit = await staffAgent.get(`/admin/lotteries/${id}/edit`).expect(200);
    const res = await staffAgent
      .post(`/admin/lotteries/${id}/edit`)
      .type('form')
      .send({
        _csrf: csrfFrom(edit.text),
        name: 'Sold Draw',
        winners: '1',
        ticket_price: '100',
        total_prize: '100000',
        total_tickets: '0',
        start_date: '',
        end_date: '',
      });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Enter a whole number from 1 to 10000000.');
  });

  test('taking results back: a reason field; a superuser only, with a reason (docs/rules/lotteries-and-sales.md#9-the-draw)', async () => {
    const id = await insertLottery(t, { name: 'Drawn Draw' });
    await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [id]);
    const edit = await staffAgent.get(`/admin/lotteries/${id}/edit`).expect(200);
    expect(edit.text).toContain('Reason for taking back the results');
    const value = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(edit.text)?.[1] ?? '';
    const post = (extra: Record<string, string>) =>
      staffAgent
        .post(`/admin/lotteries/${id}/edit`)
        .type('form')
        .send({
          _csrf: csrfFrom(edit.text),
          name: 'Drawn Draw',
          winners: value('winners'),
          ticket_price: value('ticket_price'),
          total_prize: value('total_prize'),
          total_tickets: value('total_tickets'),
          start_date: value('start_date_was'),
          start_date_was: value('start_date_was'),
          end_date: value('end_date_was'),
          end_date_was: value('end_date_was'),
          published: 'on',
          ...extra,
        });
    // Result published unticked by staff who are not superusers: refused, nothing changed.
    const refused = await post({ results_reason: 'Wrong draw' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only a superuser may take back the results of a drawn lottery.');
    const u = await t.db.one<{ id: number }>("SELECT id FROM users WHERE phone = '01955500001'");
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [u!.id]);
    try {
      const blank = await post({ results_reason: '' });
      expect(blank.status).toBe(400);
      expect(blank.text).toContain('Please give the reason for taking back the results.');
      expect(await t.db.one('SELECT is_result_published FROM lotteries WHERE id = $1', [id])).toEqual({ is_result_published: true });
      expect((await post({ results_reason: 'Wrong draw' })).status).toBe(200);
      expect(await t.db.one('SELECT is_result_published FROM lotteries WHERE id = $1', [id])).toEqual({ is_result_published: false });
      const [audit] = await t.db.query<{ after: Record<string, unknown> }>("SELECT after FROM audit_log WHERE action = 'lottery.update'");
      expect(audit?.after).toMatchObject({ is_result_published: false, results_reason: 'Wrong draw' });
    } finally {
      await t.db.query('UPDATE users SET is_superuser = false WHERE id = $1', [u!.id]);
    }
  });

  test('a form without its CSRF token changes nothing', async () => {
    const res = await staffAgent
      .post('/admin/create-lottery')
      .type('form')
      .send({ name: 'No Token', winners: '1', ticket_price: '1', total_prize: '1', start_date: '2026-12-01', end_date: '2026-12-02' });
    expect(res.status).toBe(403);
    expect(await lotteries()).toEqual([]);
  });

  test('players and visitors never get in', async () => {
    const u = await createUser(t, { name: 'Curious Player', phone: '01955500002' });
    const agent = request.agent(t.url);
    await loginAs(agent, u.phone, u.password);
    for (const path of ['/admin/dashboard', '/admin/lotteries', '/admin/create-lottery', '/admin']) {
      const res = await agent.get(path);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`/login?from=${encodeURIComponent(path)}`);
      expect((await request(t.url).get(path)).headers.location).toBe(`/login?from=${encodeURIComponent(path)}`);
    }
    const page = await agent.get('/profile').expect(200);
    const post = await agent
      .post('/admin/create-lottery')
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        name: 'Sneaky',
        winners: '1',
        ticket_price: '1',
        total_prize: '1',
        start_date: '2026-12-01',
        end_date: '2026-12-02',
      });
    expect(post.status).toBe(303);
    expect(await lotteries()).toEqual([]);
  });
});

describe('GET /api/v1/admin/dashboard/', () => {
  test('staff only', async () => {
    expect((await request(t.url).get('/api/v1/admin/dashboard/')).status).toBe(401);
    expect(
      (
        await request(t.url)
          .get('/api/v1/admin/dashboard/')
          .set(...player.auth)
      ).status,
    ).toBe(403);
  });

  test('figures from the database: approved revenue and tickets, what waits, the five newest of each', async () => {
    const open = await insertLottery(t, { name: 'Open Draw' });
    await insertLottery(t, { name: 'Hidden Draw', published: false });
    await insertLottery(t, { name: 'Drawn Draw', results: true });
    const ids: number[] = [];
    for (const ticket of ['01-02-03-04-05-06', '02-03-04-05-06-07', '03-04-05-06-07-08'])
      ids.push((await buy(t, player, purchase(open, ticket, { trx_id: trxId() }))).body.id);
    for (const id of ids.slice(0, 2)) expect((await approveByHand(t, id)).status).toBe(200);
    const users = (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM users'))?.n;
    const res = await request(t.url)
      .get('/api/v1/admin/dashboard/')
      .set(...staff.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      total_users: users,
      active_lotteries: 1,
      total_revenue: 200,
      tickets_sold: 2,
      pending_transactions: 1,
      pending_transfers: 0,
    });
    expect(res.body.recent_lotteries.map((l: { name: string }) => l.name)).toEqual(['Drawn Draw', 'Hidden Draw', 'Open Draw']);
    expect(res.body.recent_transactions).toHaveLength(3);
    const page = await staffAgent.get('/admin/dashboard').expect(200);
    expect(page.text).toContain('TK. 200');
    expect(page.text).toContain('Open Draw');
  });
});

describe('prize claims without JavaScript', () => {
  test('the list with its summary, filters, and Approve (with its confirmation) / Complete / Mark failed as form posts', async () => {
    const lottery = await insertLottery(t, { name: 'Claims Draw' });
    const sale = await buy(t, player, purchase(lottery, '05-12-23-34-45-07', { trx_id: trxId() }));
    expect((await approveByHand(t, sale.body.id)).status).toBe(200);
    const drawn = await drawByHand(t, lottery, ['05-12-23-34-45-07']);
    expect(drawn.status).toBe(201);
    const prize = drawn.body.prizes[0].id as number;
    await request(t.url)
      .post('/api/v1/send-prize-claim-otp/')
      .set(...player.auth)
      .send({ prize_id: prize })
      .expect(200);
    const code = await t.lastCode(player.phone, 'claim');
    await request(t.url)
      .post('/api/v1/submit-prize-claim/')
      .set(...player.auth)
      .send({ prize, payment_method: 'nagad', account_number: '01712345678', account_holder_name: 'Rahim Uddin', otp: code })
      .expect(200);
    const claim = await t.db.one<{ id: number }>('SELECT id FROM prize_claims WHERE prize_id = $1', [prize]);

    const page = await staffAgent.get('/admin/prize-claims').expect(200);
    expect(page.text).toContain('Claims Draw');
    expect(page.text).toContain('01712345678');
    expect(page.text).toContain('Details submitted');
    expect(page.text).toMatch(/Pending transfers<\/span><span class="admin-stat__value">1</);
    expect((await staffAgent.get('/admin/prize-claims?status=transfer_completed').expect(200)).text).toContain('No prize claims found');
    expect((await staffAgent.get('/admin/prize-claims?search=rahim&payment_method=nagad').expect(200)).text).toContain('Claims Draw');
    // Paid to Nagad by hand: the transfer is recorded with its reference (a bKash wallet's has Pay now, below).
    expect(page.text).not.toContain('value="pay"');

    // TK. 100,000 is above PAYOUT_SECOND_APPROVAL_TK: a second staff member approves first (four eyes).
    expect(page.text).toContain('Needs a second approval');
    expect(page.text).toContain('Complete after another staff member approves');
    expect(page.text).toContain(`href="/admin/prize-claims?approve=${claim?.id}"`);
    const early = await staffAgent
      .post('/admin/prize-claims')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), claim: String(claim?.id), intent: 'complete', reference: 'NGD8812345' });
    expect(early.status).toBe(409);
    expect(early.text).toContain('a second staff member must approve the transfer before it can be completed');
    const confirm = await staffAgent.get(`/admin/prize-claims?approve=${claim?.id}`).expect(200);
    expect(confirm.text).toContain('id="approve-transfer-title"');
    expect(confirm.text).toContain('Approve this transfer?');
    const approved = await staffAgent
      .post('/admin/prize-claims')
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text), claim: String(claim?.id), intent: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Transfer approved: another staff member can complete it now');
    expect(approved.text).toContain('Approved by Page Staff');
    expect(approved.text).toContain('You approved: another staff member completes');
    expect(approved.text).not.toContain('id="approve-transfer-title"');
    // The approver does not complete; another staff member does.
    const self = await staffAgent
      .post('/admin/prize-claims')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), claim: String(claim?.id), intent: 'complete', reference: 'NGD8812345' });
    expect(self.status).toBe(403);
    expect(self.text).toContain('You approved this transfer: another staff member must complete it.');
    await t.db.query('UPDATE prize_claims SET transfer_approved_by = $2 WHERE id = $1', [claim?.id, staff.id]);

    const done = await staffAgent
      .post('/admin/prize-claims')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), claim: String(claim?.id), intent: 'complete', reference: 'NGD8812345' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Transfer status updated successfully');
    expect(done.text).toContain('Paid: NGD8812345');
    expect((await t.db.one<{ status: string }>('SELECT status FROM prize_claims WHERE id = $1', [claim?.id]))?.status).toBe(
      'transfer_completed',
    );

    const again = await staffAgent
      .post('/admin/prize-claims')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), claim: String(claim?.id), intent: 'fail' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('The transfer can only change while payment details are submitted');
    const bad = await staffAgent
      .post('/admin/prize-claims')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), claim: 'x', intent: 'complete' });
    expect(bad.status).toBe(400);
  });

  test("a bKash wallet's prize: Pay now as a form post; bKash's balance unread here, so it waits and nothing is sent", async () => {
    const claim = { id: await claimToPay(t, player, { name: 'Wallet Draw' }) };
    const page = await staffAgent.get('/admin/prize-claims?search=wallet').expect(200);
    // Pay now asks first (a page of its own without JavaScript): what is paid, to which wallet.
    expect(page.text).toContain(`href="/admin/prize-claims?search=wallet&amp;pay=${claim.id}"`);
    expect(page.text).not.toContain('name="reference"');
    const confirm = await staffAgent.get(`/admin/prize-claims?search=wallet&pay=${claim.id}`).expect(200);
    expect(confirm.text).toContain('id="pay-now-title"');
    expect(confirm.text).toContain('value="pay"');
    const paid = await staffAgent
      .post(`/admin/prize-claims?search=wallet&pay=${claim.id}`)
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text), claim: String(claim?.id), intent: 'pay' });
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('Payout sent to bKash');
    expect(paid.text).toContain(`Waits for the bKash balance (invoice BHAGYA-PRIZE-${claim?.id}-1)`);
    expect(paid.text).not.toContain('value="pay"');
    expect(paid.text).not.toContain('id="pay-now-title"');
    expect(await t.db.query('SELECT state FROM prize_payouts')).toEqual([{ state: 'waiting' }]);
    // A payout sent without an answer: the TrxID form, and "not sent" for another staff member than who pressed.
    await t.db.query(`UPDATE prize_payouts SET state = 'unknown', pressed_by = $1`, [player.id]);
    const unknown = await staffAgent.get('/admin/prize-claims?search=wallet').expect(200);
    expect(unknown.text).toContain('Sent to bKash without an answer');
    expect(unknown.text).toContain('name="trx_id"');
    expect(unknown.text).toContain('value="not_sent"');
    const wrong = await staffAgent
      .post('/admin/prize-claims?search=wallet')
      .type('form')
      .send({ _csrf: csrfFrom(unknown.text), claim: String(claim?.id), intent: 'settle', trx_id: 'not a trx' });
    expect(wrong.status).toBe(400);
    await t.db.query('DELETE FROM prize_payouts');
  });
});

describe('generated tickets without JavaScript', () => {
  test('generate through the form, filter, delete after the confirmation, and the export link of one lottery', async () => {
    const lottery = await insertLottery(t, { name: 'Offline Draw' });
    const page = await staffAgent.get('/admin/generated-tickets').expect(200);
    expect(page.text).toContain('No generated tickets found');
    expect(page.text).toContain('Choose one lottery in the filter to export');
    const csrf = csrfFrom(page.text);
    const none = await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'generate', lottery_id: '', quantity: '3' });
    expect(none.status).toBe(400);
    expect(none.text).toContain('Please select a lottery');
    // Not a number: one ticket (the back office's rule); 101 is refused by the API.
    const one = await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'generate', lottery_id: String(lottery), quantity: 'abc' });
    expect(one.status).toBe(200);
    expect(one.text).toContain('Tickets generated successfully (1)');
    const tooMany = await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'generate', lottery_id: String(lottery), quantity: '101' });
    expect(tooMany.status).toBe(400);
    await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'generate', lottery_id: String(lottery), quantity: '2' })
      .expect(200);
    const rows = await t.db.query<{ id: number; ticket_number: string; secret_sealed: string }>(
      'SELECT id, ticket_number, secret_sealed FROM generated_tickets ORDER BY id',
    );
    expect(rows).toHaveLength(3);

    const list = await staffAgent.get(`/admin/generated-tickets?lottery_id=${lottery}&activation=not_activated`).expect(200);
    // Stored sealed (docs/rules/tickets.md#6-generated-tickets); staff see it opened.
    const secret = t.keys.open('generated-secret', rows[0]!.secret_sealed);
    expect(list.text).toContain(`${secret.slice(0, 4)} ${secret.slice(4, 8)} ${secret.slice(8, 12)} ${secret.slice(12)}`);
    expect(list.text).toContain(`href="/bff/api/v1/generated-tickets/export/?lottery_id=${lottery}"`);
    expect(list.text).toContain('Export to CSV (3 non-activated)');

    const ask = await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'delete', ticket: String(rows[0]!.id) });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Are you sure you want to delete this ticket?');
    expect(await t.db.query('SELECT id FROM generated_tickets')).toHaveLength(3);
    const del = await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'delete-confirmed', ticket: String(rows[0]!.id) });
    expect(del.status).toBe(200);
    expect(del.text).toContain('Ticket deleted successfully');
    expect(await t.db.query('SELECT id FROM generated_tickets')).toHaveLength(2);
    const bad = await staffAgent
      .post('/admin/generated-tickets')
      .type('form')
      .send({ _csrf: csrf, intent: 'delete-confirmed', ticket: 'x' });
    expect(bad.status).toBe(400);
  });
});

describe('transactions of activated tickets', () => {
  test('an activated generated ticket shows no status actions on /admin/transactions', async () => {
    await t.db.query('DELETE FROM generated_tickets');
    const lottery = await insertLottery(t, { name: 'Activation Draw' });
    const made = await request(t.url)
      .post('/api/v1/generated-tickets/')
      .set(...staff.auth)
      .send({ lottery_id: lottery, quantity: 1 })
      .expect(201);
    const g = made.body[0] as { ticket_number: string; secret_number: string };
    await request(t.url)
      .post('/api/v1/activate-generated-ticket/')
      .set(...player.auth)
      .send({ ticket_number: g.ticket_number, secret_number: g.secret_number })
      .expect(200);
    const page = await staffAgent.get(`/admin/transactions?search=${g.ticket_number}`).expect(200);
    const card = page.text.slice(page.text.indexOf('Activation Draw'));
    expect(card).toContain(g.ticket_number);
    expect(page.text).not.toContain('name="status" value="pending"');
    expect(page.text).not.toContain('name="status" value="failed"');
  });
});
