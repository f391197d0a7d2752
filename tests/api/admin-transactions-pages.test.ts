/**
 * /admin/transactions as a browser without JavaScript uses it (docs/rules/pages.md#4-without-javascript,
 * #9-back-office): the cards with what staff check (TrxID, amount against the ticket price), search and the status
 * filter on the server, approve and reject through the card's plain form, the API's refusal shown, and a post
 * without its CSRF token changing nothing.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let staffAgent: Agent;
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
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of ['audit_log', 'prizes', 'transactions', 'lotteries', 'rate_limits']) await t.db.query(`DELETE FROM ${table}`);
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
    // Approval needs a TrxID: only the card that has one offers Approve; the other says why (lotteries-and-sales.md §8).
    expect(page.text.match(/>Approve</g)).toHaveLength(1);
    expect(page.text.match(/>Reject</g)).toHaveLength(2);
    expect(page.text).toContain('Approve is offered once the player has entered the TrxID bKash sent him.');

    // The lottery in the page's language.
    const bn = await staffAgent.get('/admin/transactions').set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('পদ্মা সাপ্তাহিক');
    expect(bn.text).toContain('খেলোয়াড় বিকাশের পাঠানো TrxID দেওয়ার পর অনুমোদনের বোতাম দেখানো হবে।');
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

  test('approve, then reject through the card’s form; a refused change shows the API’s message', async () => {
    const lottery = await insertLottery(t);
    const first = await bought(a, lottery, '05-12-23-34-45-07', { trx_id: 'FIRST12345' });
    const second = await bought(b, lottery, '01-02-03-04-05-06');
    const page = await staffAgent.get('/admin/transactions?status=pending').expect(200);
    // The form posts back to the list as it was (search and filter kept).
    expect(page.text).toContain(`action="/admin/transactions?status=pending" method="post"`);
    const _csrf = csrfFrom(page.text);

    const ok = await staffAgent
      .post('/admin/transactions?status=pending')
      .type('form')
      .send({ _csrf, id: String(first), status: 'success' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Successfully Updated Transaction');
    expect(await statusOf(first)).toBe('success');
    // The list after the change: the approved one left the pending filter.
    expect(ok.text).not.toContain('Rahim Uddin');

    const rejected = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, id: String(second), status: 'failed' });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('Transaction Rejected Successfully');
    expect(await statusOf(second)).toBe('failed');
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log ORDER BY id');
    expect(audit.map((r) => r.action)).toEqual(['transaction.approve', 'transaction.reject']);

    // success → failed directly is refused by the API: its message, nothing changed.
    const refused = await staffAgent
      .post('/admin/transactions')
      .type('form')
      .send({ _csrf, id: String(first), status: 'failed' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('directly: move it back to pending first.');
    expect(await statusOf(first)).toBe('success');
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
