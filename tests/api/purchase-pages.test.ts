/**
 * Buying a ticket through the pages, as a browser without JavaScript does (docs/rules/pages.md#4-without-javascript):
 * the ticket page's purchase form with its idempotency key → 303 to the payment page → the TrxID form → the ticket
 * in My Lotteries. A resent form makes no second transaction; a taken combination comes back on the ticket page.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { account, buy, insertLottery, purchase, rows } from './purchase-fixtures.ts';
import { pageAccount } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const TICKET = '05-12-23-34-45-07';

const keyFrom = (html: string): string => {
  const m = /name="idempotency_key"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="idempotency_key"/.exec(html);
  const k = m?.[1] ?? m?.[2];
  if (!k) throw new Error('no idempotency_key field in the page');
  return k;
};

const form = (html: string, extra: Record<string, string> = {}) => ({
  _csrf: csrfFrom(html),
  idempotency_key: keyFrom(html),
  amount: '100',
  payment_method: 'bkash',
  ...extra,
});

describe('buying a ticket without JavaScript', () => {
  test('ticket page → confirm → payment page (an unfinished payment in My Lotteries) → TrxID → a ticket awaiting confirmation', async () => {
    const lottery = await insertLottery(t, { name: 'Page Draw', name_bn: 'পাতার ড্র', price: 100 });
    const { agent } = await pageAccount(t, { name: 'Karim Mia' });
    const ticketPage = await agent.get(`/quick-play/${lottery}/${TICKET}`).expect(200);
    expect(ticketPage.text).toContain('Send Money and enter the TrxID');
    expect(ticketPage.text).toContain('Karim Mia');
    // Nagad and Rocket are shown, disabled, as "Soon"
    expect(ticketPage.text).toMatch(/value="nagad"[^>]*disabled|disabled[^>]*value="nagad"/);
    expect(ticketPage.text).toContain('Soon');

    const res = await agent.post(`/quick-play/${lottery}/${TICKET}/buy`).type('form').send(form(ticketPage.text));
    expect(res.status).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/payment\/\d+$/);
    const id = Number(location.split('/').pop());

    const pay = await agent.get(location).expect(200);
    expect(pay.text).toContain('01700000000');
    expect(pay.text).toContain('TK. 100');
    expect(pay.text).toContain('*247');
    expect(pay.text).toContain('Finish and go to my tickets');

    // Not paid yet: no ticket, one line leading back to the payment page.
    const before = await agent.get('/my-lotteries').expect(200);
    expect(before.text).not.toContain('class="card my-ticket"');
    expect(before.text).toContain(`<a class="my-unfinished__resume" href="${location}"`);
    expect(before.text).toContain('Unfinished payment — resume');

    const bad = await agent
      .post(location)
      .type('form')
      .send({ _csrf: csrfFrom(pay.text), trx_id: 'x!' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('field__error');

    const ok = await agent
      .post(location)
      .type('form')
      .send({ _csrf: csrfFrom(pay.text), trx_id: 'pg8n4k2x9q' });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(location);
    expect((await agent.get(location).expect(200)).text).toContain('PG8N4K2X9Q');

    const mine = await agent.get('/my-lotteries').expect(200);
    expect(mine.text).toContain('Page Draw');
    expect(mine.text).toContain('Awaiting confirmation');
    expect(mine.text).toContain('We have your TrxID <span class="nowrap">PG8N4K2X9Q</span> and are checking it.');
    expect(mine.text).toContain('Not drawn yet.');
    expect(mine.text).not.toContain('id="no-tickets"');
    expect(mine.text).not.toContain('Unfinished payment');
    expect((await rows(t)).find((r) => r.id === id)).toMatchObject({ status: 'pending', trx_id: 'PG8N4K2X9Q', ticket: TICKET });

    // Another player cannot open this payment page.
    const { agent: other } = await pageAccount(t, { name: 'Someone Else' });
    expect((await other.get(location)).status).toBe(404);
  });

  test('the same form sent twice makes one transaction and leads to the same payment page', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const { agent } = await pageAccount(t, { name: 'Double Submit' });
    const page = await agent.get(`/quick-play/${lottery}/${TICKET}`).expect(200);
    const body = form(page.text);
    const first = await agent.post(`/quick-play/${lottery}/${TICKET}/buy`).type('form').send(body);
    const second = await agent.post(`/quick-play/${lottery}/${TICKET}/buy`).type('form').send(body);
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    expect((await rows(t)).filter((r) => r.lottery_id === lottery)).toHaveLength(1);
  });

  test('a taken combination comes back on the ticket page with the numbers kept, in both languages', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const holder = await account(t);
    expect((await buy(t, holder, purchase(lottery, TICKET))).status).toBe(201);
    for (const lang of ['en', 'bn']) {
      const { agent } = await pageAccount(t, { name: `Late ${lang}`, lang });
      const page = await agent.get(`/quick-play/${lottery}/${TICKET}`).expect(200);
      const res = await agent.post(`/quick-play/${lottery}/${TICKET}/buy`).type('form').send(form(page.text));
      expect(res.status).toBe(409);
      expect(res.text).toContain(lang === 'en' ? 'These numbers have already been taken' : 'role="alert"');
      expect(res.text).toContain(lang === 'en' ? 'Pick different numbers' : 'action=edit');
      // the key of the failed try is kept for the next one
      expect(keyFrom(res.text)).toBe(keyFrom(page.text));
    }
    expect((await rows(t)).filter((r) => r.lottery_id === lottery)).toHaveLength(1);
  });

  test('a purchase refused because sales closed shows why on the ticket page; a visitor is sent to log in', async () => {
    const lottery = await insertLottery(t, { price: 100 });
    const { agent } = await pageAccount(t, { name: 'Closing Time' });
    const page = await agent.get(`/quick-play/${lottery}/${TICKET}`).expect(200);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [lottery]);
    const res = await agent.post(`/quick-play/${lottery}/${TICKET}/buy`).type('form').send(form(page.text));
    expect(res.status).toBe(409);
    expect(res.text).toContain('This ticket cannot be bought');
    expect(res.text).toContain('This lottery has ended');

    const visitor = request.agent(t.url);
    const v = await visitor.get(`/quick-play/${lottery}/${TICKET}/buy`);
    expect(v.status).toBe(303);
    expect(v.headers.location).toMatch(/^\/login\?from=/);
  });

  test('My Lotteries: the result of each ticket (waiting, won with its prize, lost), in English and Bengali', async () => {
    const name = 'Result Watcher';
    const { agent } = await pageAccount(t, { name });
    const me = await t.db.one<{ id: number }>(`SELECT id FROM users WHERE name = $1`, [name]);
    const drawn = await insertLottery(t, { name: 'Drawn Draw', name_bn: 'ড্র হয়ে যাওয়া লটারি', results: true, end: -1, start: -3 });
    const insert = async (ticket: string, status: string) =>
      (await t.db.one<{ id: number }>(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method) VALUES ($1, $2, $3, 100, $4, 'bkash') RETURNING id`,
        [me!.id, drawn, ticket, status],
      ))!.id;
    const winner = await insert('01-02-03-04-05-01', 'success');
    await insert('06-07-08-09-10-02', 'success');
    await t.db.query(`INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, '01-02-03-04-05-01', 50000)`, [
      drawn,
      winner,
    ]);
    const en = (await agent.get('/my-lotteries').expect(200)).text;
    expect(en).toContain('Drawn Draw');
    expect(en).toContain('Confirmed');
    expect(en).toMatch(/Congratulations! You won(<!-- -->)? <span class="nowrap">TK\. 50,000<\/span>/);
    expect(en).toContain('Better luck next time.');
    const bn = (await agent.get('/my-lotteries?lng=bn').redirects(1).expect(200)).text;
    expect(bn).toContain('ড্র হয়ে যাওয়া লটারি');
    expect(bn).toContain('৳৫০,০০০');
  });

  test('My Lotteries is paged by 10 with links to the next and previous pages', async () => {
    const { agent } = await pageAccount(t, { name: 'Many Tickets' });
    const me = await t.db.one<{ id: number }>(`SELECT id FROM users WHERE name = 'Many Tickets'`);
    const lottery = await insertLottery(t, { price: 100 });
    for (let i = 1; i <= 12; i++) {
      await t.db.query(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, payment_number) VALUES ($1, $2, $3, 100, 'success', 'bkash', '')`,
        [me!.id, lottery, `01-02-03-04-${String(10 + i).padStart(2, '0')}-01`],
      );
    }
    // A cancelled purchase is no ticket: it takes no place on a page.
    await t.db.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, payment_number) VALUES ($1, $2, '01-02-03-04-40-01', 100, 'failed', 'bkash', '')`,
      [me!.id, lottery],
    );
    const p1 = await agent.get('/my-lotteries').expect(200);
    expect(p1.text.match(/class="card my-ticket"/g)).toHaveLength(10);
    expect(p1.text).toContain('href="/my-lotteries?page=2"');
    const p2 = await agent.get('/my-lotteries?page=2').expect(200);
    expect(p2.text.match(/class="card my-ticket"/g)).toHaveLength(2);
    expect(p2.text).toContain('href="/my-lotteries"');
  });

  test('My Lotteries shows tickets only: cancelled purchases not at all, one awaiting payment as a line with its deadline, no raw values', async () => {
    const name = 'State Reader';
    const { agent } = await pageAccount(t, { name });
    const me = (await t.db.one<{ id: number }>(`SELECT id FROM users WHERE name = $1`, [name]))!;
    const lottery = await insertLottery(t, { name: 'State Draw', name_bn: 'অবস্থার ড্র', price: 100 });
    // Sales close on Saturday 5 January 2030, 20:00 in Dhaka (14:00 UTC).
    await t.db.query(`UPDATE lotteries SET end_date = '2030-01-05T14:00:00Z' WHERE id = $1`, [lottery]);
    const insert = async (ticket: string, status: string, trx: string | null, type = 'payment') =>
      (await t.db.one<{ id: number }>(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, status, payment_method, payment_number, trx_id, transaction_type)
         VALUES ($1, $2, $3, 100, $4, 'bkash', '', $5, $6) RETURNING id`,
        [me.id, lottery, ticket, status, trx, type],
      ))!.id;
    await insert('11-12-13-14-15-01', 'failed', null); // a cancelled checkout
    await insert('16-17-18-19-20-02', 'failed', 'FAILED0001'); // rejected by staff
    const unpaid = await insert('21-22-23-24-25-03', 'pending', null);
    await insert('26-27-28-29-30-04', 'pending', 'WAITING001');
    await insert('31-32-33-34-35-05', 'success', 'PAID000001');
    await insert('36-37-38-39-40-06', 'success', null, 'activation');
    const shown = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');

    const en = shown((await agent.get('/my-lotteries').expect(200)).text);
    expect(en.match(/class="card my-ticket"/g)).toHaveLength(3);
    for (const gone of ['11-12-13-14-15-01', '16-17-18-19-20-02', 'FAILED0001', 'Cancelled', 'Failed']) expect(en).not.toContain(gone);
    // The purchase awaiting payment: one line (no card), to its payment page, with the close in Dhaka time.
    expect(en).toContain('21-22-23-24-25-03');
    expect(en.match(/class="my-unfinished__resume"/g)).toHaveLength(1);
    expect(en).toContain(`href="/payment/${unpaid}" data-discover="true">Unfinished payment — resume</a>`);
    expect(en).toContain(
      'Pay with bKash, or send the money with Send Money and enter its TrxID, by <span class="nowrap">5 Jan 2030,</span> <span class="nowrap">8:00 PM</span>, when sales close',
    );
    // Paid with Send Money, awaiting confirmation: said in words, with the same deadline.
    expect(en).toContain('Awaiting confirmation');
    expect(en).toMatch(
      /We have your TrxID <span class="nowrap">WAITING001<\/span> and are checking it\. If it is not confirmed by <span class="nowrap">5 Jan 2030,<\/span> <span class="nowrap">8:00 PM<\/span>, when sales close/,
    );
    expect(en.match(/>Confirmed</g)).toHaveLength(2);
    expect(en).toContain('PAID000001');
    expect(en).toContain('Activated from a generated ticket');
    // No field's raw value.
    for (const raw of ['Type', '>payment<', '>activation<', '>pending<', '>success<', '>failed<', 'Pending', 'Pay and enter TrxID']) {
      expect([raw, en.includes(raw)]).toEqual([raw, false]);
    }

    const bn = shown((await agent.get('/my-lotteries?lng=bn').redirects(1).expect(200)).text);
    expect(bn).toContain('অসম্পূর্ণ পেমেন্ট — আবার শুরু করুন');
    expect(bn).toMatch(/৫ জানু[^<]* ২০৩০,<\/span> <span class="nowrap">রাত ৮:০০/);
    expect(bn).toContain('নিশ্চিত হওয়ার অপেক্ষায়');
    expect(bn).toContain('জেনারেট করা টিকিট থেকে সক্রিয় করা');
    expect(bn).not.toContain('বাতিল</span>');
    for (const raw of ['>payment<', '>pending<', 'ধরন']) expect([raw, bn.includes(raw)]).toEqual([raw, false]);
  });
});
