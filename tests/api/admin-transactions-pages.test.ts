/**
 * /admin/transactions as a browser without JavaScript uses it (docs/rules/pages.md#4-without-javascript,
 * #9-back-office): the cards with what staff check (TrxID, amount against the ticket price), search and the status
 * filter on the server, approval proposed with a reason on the card's plain form and approved or rejected by a
 * second staff member with a reason (docs/rules/payments.md#1-who-may-do-what), reject through the card's form, the
 * API's refusal shown, a post without its CSRF token changing nothing, and a superuser's list of staff-held tickets.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let staffAgent: Agent;
let secondAgent: Agent;
let a: Player;
let b: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin', email: 'rahim@example.com' });
  b = await account(t, { name: 'Fatema Begum' });
  const u = await createUser(t, { name: 'Desk Staff', phone: '01955500011', is_staff: true });
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
  const v = await createUser(t, { name: 'Second Staff', phone: '01955500013', is_staff: true });
  secondAgent = request.agent(t.url);
  secondAgent.set('Cookie', 'lang=en');
  await loginAs(secondAgent, v.phone, v.password);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of ['audit_log', 'prizes', 'transaction_approval_proposals', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const statusOf = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;

async function bought(p: Player, lottery: number, ticket: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, extra));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

describe('/admin/transactions without JavaScript', () => {
  test('cards with the player, lottery, ticket, amount, TrxID and bKash number; a missing TrxID and a changed price are flagged', async () => {
    const padma = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    await bought(a, padma, '05-12-23-34-45-07', { trx_id: 'ABC12345XY', payment_number: '01812345678' });
    await bought(b, padma, '01-02-03-04-05-06');
    await t.db.query('UPDATE lotteries SET ticket_price = 150 WHERE id = $1', [padma]);
    const page = await staffAgent.get('/admin/transactions').expect(200);
    expect(page.text).toContain('2 transactions');
    for (const s of [
      'Rahim Uddin',
      'rahim@example.com',
      a.phone,
      'Padma Weekly',
      '05-12-23-34-45-07',
      'ABC12345XY',
      '01812345678',
      'TK. 100',
    ])
      expect(page.text).toContain(s);
    expect(page.text).toContain('No TrxID given');
    expect(page.text).toContain('Differs from the ticket price (TK. 150)');
    expect(page.text).toContain('>Reject<');
    // Approval needs a TrxID: only the card that has one offers a proposal; the other says why (lotteries-and-sales.md §8).
    expect(page.text.match(/>Propose approval</g)).toHaveLength(1);
    expect(page.text).not.toContain('>Approve<');
    expect(page.text.match(/>Reject</g)).toHaveLength(2);
    expect(page.text).toContain('Propose approval is offered once the player has entered the TrxID bKash sent him.');
    expect(page.text).toContain('No approval waits for a second staff member.');
    // Not a superuser: no staff-held tickets.
    expect(page.text).not.toContain('id="staff-held"');

    // The lottery in the page's language.
    const bn = await staffAgent.get('/admin/transactions').set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('পদ্মা সাপ্তাহিক');
    expect(bn.text).toContain('খেলোয়াড় বিকাশের পাঠানো TrxID দেওয়ার পর অনুমোদনের প্রস্তাবের বোতাম দেখানো হবে।');
    expect(bn.text).toContain('অনুমোদনের প্রস্তাব করুন');
  });

  test('search and the status filter are the server’s; nothing found says so', async () => {
    const lottery = await insertLottery(t, { name: 'Meghna Draw' });
    const ra = await bought(a, lottery, '05-12-23-34-45-07', { trx_id: 'RAHIM12345' });
    await bought(b, lottery, '01-02-03-04-05-06');
    await t.db.query(`UPDATE transactions SET status = 'success' WHERE id = $1`, [ra]);
    const found = await staffAgent.get('/admin/transactions?search=rahim12345').expect(200);
    expect(found.text).toContain('Rahim Uddin');
    expect(found.text).not.toContain('Fatema Begum');
    expect(found.text).toContain('1 transaction<');
    const approved = await staffAgent.get('/admin/transactions?status=success').expect(200);
    expect(approved.text).toContain('Rahim Uddin');
    expect(approved.text).not.toContain('Fatema Begum');
    expect(approved.text).toContain('>Remove Approval<');
    const none = await staffAgent.get('/admin/transactions?status=failed&search=rahim').expect(200);
    expect(none.text).toContain('No transactions found');
  });

  test('propose with a reason, a second staff member approves with a reason; reject through the card’s form; refusals show the API’s message', async () => {
    const lottery = await insertLottery(t);
    const first = await bought(a, lottery, '05-12-23-34-45-07', { trx_id: 'FIRST12345' });
    const second = await bought(b, lottery, '01-02-03-04-05-06');
    const page = await staffAgent.get('/admin/transactions?status=pending').expect(200);
    // The form posts back to the list as it was (search and filter kept).
    expect(page.text).toContain(`action="/admin/transactions?status=pending" method="post"`);
    const _csrf = csrfFrom(page.text);

    // The old one-person approval: the API's refusal, nothing changed.
    const alone = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, id: String(first), status: 'success' });
    expect(alone.status).toBe(409);
    expect(alone.text).toContain('Approving a payment by hand needs two staff members');
    expect(await statusOf(first)).toBe('pending');

    // A proposal needs its reason.
    const bare = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, intent: 'propose', id: String(first), reason: '' });
    expect(bare.status).toBe(400);
    expect(bare.text).toContain('Please give the reason (at most 500 characters).');
    const proposed = await staffAgent
      .post('/admin/transactions?status=pending')
      .type('form')
      .send({ _csrf, intent: 'propose', id: String(first), reason: 'Receipt shown at the desk' });
    expect(proposed.status).toBe(200);
    expect(proposed.text).toContain('Approval proposed: a second staff member must approve it.');
    expect(proposed.text).toContain('Approvals proposed by hand');
    expect(proposed.text).toContain('Receipt shown at the desk');
    expect(proposed.text).toContain('Approval proposed by Desk Staff');
    expect(await statusOf(first)).toBe('pending');
    const proposal = (await t.db.one<{ id: number }>('SELECT id FROM transaction_approval_proposals'))!.id;

    // Its author cannot approve it: the API's message.
    const same = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, intent: 'approve', proposal: String(proposal), reason: 'Me again' });
    expect(same.status).toBe(403);
    expect(same.text).toContain('You proposed this approval: a second staff member must approve it.');
    expect(await statusOf(first)).toBe('pending');

    // A second staff member sees who proposed and why, and approves with his reason.
    const seen = await secondAgent.get('/admin/transactions').expect(200);
    expect(seen.text).toContain('Desk Staff');
    expect(seen.text).toContain('Receipt shown at the desk');
    expect(seen.text).toContain('>Reject proposal<');
    const ok = await secondAgent
      .post('/admin/transactions?status=pending')
      .type('form')
      .send({ _csrf: csrfFrom(seen.text), intent: 'approve', proposal: String(proposal), reason: 'Checked the receipt' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Proposal approved: the ticket is confirmed.');
    expect(await statusOf(first)).toBe('success');
    // The list after the change: the approved one left the pending filter, and no proposal waits.
    expect(ok.text).not.toContain('Rahim Uddin');
    expect(ok.text).toContain('No approval waits for a second staff member.');

    const rejected = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, id: String(second), status: 'failed' });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('Transaction Rejected Successfully');
    expect(await statusOf(second)).toBe('failed');
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log ORDER BY id');
    expect(audit.map((r) => r.action)).toEqual(['transaction.approval_proposed', 'transaction.approve', 'transaction.reject']);

    // success → failed directly is refused by the API: its message, nothing changed.
    const refused = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, id: String(first), status: 'failed' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('directly: move it back to pending first.');
    expect(await statusOf(first)).toBe('success');
  });

  test('a proposal rejected by a second staff member with a reason: the purchase stays pending', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery, '05-12-23-34-45-07', { trx_id: 'REJECT1234' });
    const page = await staffAgent.get('/admin/transactions').expect(200);
    await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'propose', id: String(id), reason: 'Receipt shown' })
      .expect(200);
    const proposal = (await t.db.one<{ id: number }>('SELECT id FROM transaction_approval_proposals'))!.id;
    const seen = await secondAgent.get('/admin/transactions').set('Cookie', 'lang=bn').expect(200);
    expect(seen.text).toContain('হাতে অনুমোদনের প্রস্তাব');
    const res = await secondAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf: csrfFrom(seen.text), intent: 'reject', proposal: String(proposal), reason: 'The receipt is for another number' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Proposal rejected: the purchase stays pending.');
    expect(await statusOf(id)).toBe('pending');
    expect(await t.db.one('SELECT status, decision_reason FROM transaction_approval_proposals')).toEqual({
      status: 'rejected',
      decision_reason: 'The receipt is for another number',
    });
  });

  test('a superuser sees the tickets staff accounts hold, with lottery and status', async () => {
    const lottery = await insertLottery(t, { name: 'Held Draw' });
    const id = await bought(a, lottery, '05-12-23-34-45-07');
    const su = await createUser(t, { name: 'Chief Officer', phone: '01955500014', is_staff: true });
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [su.id]);
    await t.db.query('UPDATE transactions SET user_id = $1 WHERE id = $2', [su.id, id]);
    const agent = request.agent(t.url);
    agent.set('Cookie', 'lang=en');
    await loginAs(agent, su.phone, su.password);
    const page = await agent.get('/admin/transactions').expect(200);
    expect(page.text).toContain('<h2 id="staff-held">Tickets held by staff accounts</h2>');
    expect(page.text).toContain('1 transaction of a staff account');
    expect(page.text).toMatch(/<li><span class="nowrap">05-12-23-34-45-07<\/span>.*?Chief Officer.*?Held Draw.*?badge--pending/);
  });

  test('a post without its CSRF token changes nothing; players and visitors never get in', async () => {
    const lottery = await insertLottery(t);
    const id = await bought(a, lottery, '05-12-23-34-45-07');
    const res = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ id: String(id), status: 'success' });
    expect(res.status).toBe(403);
    expect(await statusOf(id)).toBe('pending');

    const u = await createUser(t, { name: 'Curious Player', phone: '01955500012' });
    const agent = request.agent(t.url);
    await loginAs(agent, u.phone, u.password);
    const profile = await agent.get('/profile').expect(200);
    const post = await agent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf: csrfFrom(profile.text), id: String(id), status: 'success' });
    expect(post.status).toBe(303);
    expect(post.headers.location).toBe('/login?from=%2Fadmin%2Ftransactions');
    expect(await statusOf(id)).toBe('pending');
    expect((await request(t.url).get('/admin/transactions')).headers.location).toBe('/login?from=%2Fadmin%2Ftransactions');
  });

  test('a list the API cannot give: the error panel with the support hint', async () => {
    const page = await staffAgent.get('/admin/transactions?page=abc').expect(200);
    expect(page.text).toContain('No transactions found');
    // A search the API refuses (control characters) is its message in the error panel.
    const bad = await staffAgent.get('/admin/transactions?search=%01x').expect(200);
    expect(bad.text).toContain('Please try again later or contact support if the problem persists.');
  });
});
