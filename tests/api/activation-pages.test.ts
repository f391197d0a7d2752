/**
 * Activating a generated ticket through the pages, as a browser without JavaScript does
 * (docs/rules/tickets.md#7-activating-a-generated-ticket): My Lotteries' last card links to /my-lotteries/activate,
 * whose form has one text input for the ticket number and one for the secret; a correct pair shows the success view
 * and My Lotteries lists the ticket as an activation; a wrong pair, malformed input and a post without its CSRF token
 * change nothing.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';
import { pageAccount } from '../helpers/factories.ts';

let t: TestApp;
let staff: Player;
beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

async function generated(name = 'Eid Bumper', name_bn = 'ঈদ বাম্পার'): Promise<{ ticket_number: string; secret_number: string }> {
  const lottery = await insertLottery(t, { name, name_bn });
  const res = await request(t.url)
    .post('/api/v1/generated-tickets/')
    .set(...staff.auth)
    .send({ lottery_id: lottery, quantity: 1 })
    .expect(201);
  return res.body[0];
}

const activations = (userId: number) =>
  t.db.query<{ ticket: string; status: string }>(
    `SELECT ticket, status FROM transactions WHERE user_id = $1 AND transaction_type = 'activation'`,
    [userId],
  );

describe('activating without JavaScript', () => {
  test('My Lotteries → the activate page → success view → My Lotteries lists the activation', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Rahim Uddin' });
    const g = await generated();
    const list = await agent.get('/my-lotteries').expect(200);
    expect(list.text).toContain('Activate a ticket');
    expect(list.text).toContain('href="/my-lotteries/activate"');

    const page = await agent.get('/my-lotteries/activate').expect(200);
    expect(page.text).toContain('Activate a ticket');
    expect(page.text).toContain('name="ticket_number"');
    expect(page.text).toContain('name="secret_number"');
    const s = g.secret_number;
    const done = await agent
      .post('/my-lotteries/activate')
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        ticket_number: g.ticket_number,
        secret_number: `${s.slice(0, 4)} ${s.slice(4, 8)} ${s.slice(8, 12)} ${s.slice(12)}`,
      });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Ticket activated');
    expect(done.text).toContain('Ticket activated successfully!');
    expect(done.text).toContain('Eid Bumper');
    expect(done.text).toContain('Confirmed');
    expect(done.text).toContain('Activate another');
    expect(await activations(id)).toEqual([{ ticket: g.ticket_number, status: 'success' }]);

    const after = await agent.get('/my-lotteries').expect(200);
    expect(after.text).toContain('Eid Bumper');
    // Said in words, never the field's raw value (docs/rules/lotteries-and-sales.md#7-buying-a-ticket, "The pages").
    expect(after.text).toContain('<p class="my-ticket__note">Activated from a generated ticket</p>');
    expect(after.text).not.toContain('<dd>activation</dd>');
  });

  test('in Bengali: the form, the Bengali lottery name and the Bengali wrong-pair message', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Fatema Begum', lang: 'bn' });
    const g = await generated('Puja Draw', 'পূজার ড্র');
    const page = await agent.get('/my-lotteries/activate').expect(200);
    expect(page.text).toContain('টিকিট সক্রিয় করুন');
    expect(page.text).toContain('গোপন নম্বর');
    const wrong = await agent
      .post('/my-lotteries/activate')
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        ticket_number: g.ticket_number,
        secret_number: '0000000000000000' === g.secret_number ? '1111111111111111' : '0000000000000000',
      });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('টিকিট নম্বর বা গোপন নম্বর সঠিক নয়');
    const ok = await agent
      .post('/my-lotteries/activate')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), ticket_number: g.ticket_number, secret_number: g.secret_number });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('পূজার ড্র');
    expect(await activations(id)).toHaveLength(1);
  });

  test('a wrong pair and malformed input: the messages, the typed ticket kept, nothing activated', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Karim Mia' });
    const g = await generated();
    const page = await agent.get('/my-lotteries/activate').expect(200);
    const post = (body: Record<string, string>) =>
      agent
        .post('/my-lotteries/activate')
        .type('form')
        .send({ _csrf: csrfFrom(page.text), ...body });
    const wrong = await post({
      ticket_number: g.ticket_number,
      secret_number: '1234-5678-1234-5678' === g.secret_number ? '1111111111111111' : '1234-5678-1234-5678',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Invalid ticket number or secret number');
    expect(wrong.text).toContain(`value="${g.ticket_number}"`);
    expect(wrong.text).not.toContain('1234-5678-1234-5678');
    const malformed = await post({ ticket_number: '05-12-23', secret_number: '123' });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('A ticket is 5 different numbers');
    expect(malformed.text).toContain('The secret number has 16 digits.');
    const empty = await post({ ticket_number: '', secret_number: '' });
    expect(empty.text).toContain('Please enter the ticket number.');
    expect(empty.text).toContain('Please enter the secret number.');
    expect(await activations(id)).toEqual([]);
  });

  test('a form without its CSRF token changes nothing; a visitor is sent to log in', async () => {
    const { agent, id } = await pageAccount(t, { name: 'Csrf Test' });
    const g = await generated();
    const res = await agent
      .post('/my-lotteries/activate')
      .type('form')
      .send({ ticket_number: g.ticket_number, secret_number: g.secret_number });
    expect(res.status).toBe(403);
    expect(await activations(id)).toEqual([]);
    const anon = await request(t.url).get('/my-lotteries/activate');
    expect(anon.status).toBe(303);
    expect(anon.headers.location).toBe(`/login?from=${encodeURIComponent('/my-lotteries/activate')}`);
  });
});
