import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

type LotteryInput = {
  name: string;
  days?: number;
  featured?: boolean;
  published?: boolean;
  drawn?: boolean;
  price?: number;
  prize?: number;
  startsIn?: number;
};
async function insertLottery(l: LotteryInput): Promise<number> {
  const now = Date.now();
  const end = now + (l.days ?? 7) * DAY;
  const start = l.startsIn !== undefined ? now + l.startsIn * DAY : Math.min(now, end) - 10 * DAY;
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured, is_result_published, drawn_at)
     VALUES ($1, $2, $3, $4, $5, 1000, 2, $6, $7, $8, $9, $10) RETURNING id`,
    [
      l.name,
      `About ${l.name}`,
      iso(start),
      iso(end),
      l.price ?? 100,
      l.prize ?? 500_000,
      l.published ?? true,
      l.featured ?? false,
      l.drawn ?? false,
      l.drawn ? iso(end) : null,
    ],
  );
  return Number(row?.id);
}

async function insertPrize(lotteryId: number, ticket: string, money = 250_000) {
  const u = await createUser(t);
  const tx = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, $3, 100, 'bkash', 'success') RETURNING id`,
    [u.id, lotteryId, ticket],
  );
  await t.db.query('INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4)', [
    lotteryId,
    tx?.id,
    ticket,
    money,
  ]);
}

const get = (path: string, lang = 'en') => request(t.url).get(path).set('Cookie', `lang=${lang}`);
/** The visible text of some HTML (the page's JSON data script, which carries every client string, left out). */
const text = (html: string) =>
  html
    .replace(/<script[^>]*>[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

describe('home page, before anything is published', () => {
  test('every section shows its empty state and the page is still a 200', async () => {
    const res = await get('/').expect(200);
    const body = text(res.text);
    expect(body).toContain('No featured lottery right now');
    expect(body).toContain('No New Draw Results Available');
    expect(body).toContain('No lotteries are on sale right now');
    expect(res.text).toContain('href="/all-lotteries"');
  });
});

describe('with lotteries and results', () => {
  let featured: number;
  let closed: number;
  let drawn: number;
  let ids: number[] = [];
  beforeAll(async () => {
    featured = await insertLottery({ name: 'Saturday Mega Draw', days: 3, featured: true, price: 100, prize: 1_000_000 });
    ids = [featured];
    for (let i = 0; i < 12; i++) ids.push(await insertLottery({ name: `Weekly Draw ${i + 1}`, days: 10 + i }));
    closed = await insertLottery({ name: 'Ended Draw', days: -1 });
    await insertLottery({ name: 'Hidden Draw', days: 5, published: false });
    drawn = await insertLottery({ name: 'Ekushey Draw', days: -8, drawn: true });
    await insertPrize(drawn, '05-12-23-34-45-07');
  });

  test('home: the featured lottery in the quick-play island, three cards, "View N more", results with balls, the FAQ', async () => {
    const res = await get('/').expect(200);
    const html = res.text;
    const quick = html.slice(html.indexOf('id="quick-play"'), html.indexOf('id="featured"'));
    expect(quick).toContain('data-island="quick-play"');
    expect(text(quick)).toContain('Saturday Mega Draw');
    expect(text(quick)).toContain('TK. 1,000,000');
    expect(quick).toContain('action="/quick-play"');
    expect(quick.match(/name="main"/g)).toHaveLength(55);
    expect(quick.match(/name="last"/g)).toHaveLength(15);
    const cards = html.slice(html.indexOf('id="featured"'), html.indexOf('id="results"'));
    expect(cards.match(/<article class="lottery-card/g)).toHaveLength(3);
    // 15 published (the unpublished one does not count): 3 shown, 12 more
    expect(text(cards)).toContain('View 12 more lotteries');
    expect(cards).toContain(`href="/?pick=${featured}#pick"`);
    const results = html.slice(html.indexOf('id="results"'));
    expect(text(results)).toContain('Drawn');
    expect(text(results)).toContain('Ekushey Draw');
    expect(text(results)).toContain('Winning ticket: 05-12-23-34-45-07');
    expect(results.match(/class="ball ball--last/g)?.length).toBeGreaterThanOrEqual(1);
    expect(html.match(/<details name="home-faq"/g)).toHaveLength(4);
    expect(html).not.toContain('Hidden Draw');
  });

  test('home in Bengali: Bengali digits and texts', async () => {
    const body = text((await get('/', 'bn').expect(200)).text);
    expect(body).toContain('৳১০,০০,০০০');
    expect(body).toContain('আরও ১২টি লটারি দেখুন');
    expect(body).toContain('সর্বশেষ ড্র-এর ফলাফল');
  });

  test('/?pick=ID renders the number-selection dialog open for that lottery, closing back to the page', async () => {
    const res = await get(`/?pick=${featured}`).expect(200);
    const dialog = res.text.slice(res.text.indexOf('<dialog'));
    expect(dialog).toMatch(/^<dialog[^>]*id="pick"[^>]*open=""/);
    expect(text(dialog)).toContain('Saturday Mega Draw');
    expect(text(dialog)).toContain('Confirm Selection & Play');
    expect(text(dialog)).toContain('Easy Pick');
    expect(text(dialog)).not.toContain('Random Pick');
    expect(dialog).toContain('href="/#featured"');
    // A lottery that is not one of the three cards still opens (fetched by id); a closed one says why.
    const other = await get(`/?pick=${closed}`).expect(200);
    expect(text(other.text.slice(other.text.indexOf('<dialog')))).toContain('This lottery has ended, or the results have been published.');
  });

  test('/all-lotteries pages by 12 on the server, with the state of each lottery', async () => {
    const p1 = await get('/all-lotteries').expect(200);
    expect(p1.text.match(/<article class="lottery-card/g)).toHaveLength(12);
    expect(text(p1.text)).toContain('Page 1 of 2');
    expect(p1.text).toContain('href="/all-lotteries?page=2"');
    const p2 = await get('/all-lotteries?page=2').expect(200);
    expect(p2.text.match(/<article class="lottery-card/g)).toHaveLength(3);
    expect(text(p2.text)).toContain('Page 2 of 2');
    // Closed lotteries come last, with the reason.
    expect(text(p2.text)).toContain('Ended Draw');
    expect(text(p2.text)).toContain('This lottery has ended, or the results have been published.');
    const beyond = await get('/all-lotteries?page=9').expect(200);
    expect(text(beyond.text)).toContain('There are no lotteries on this page.');
    const junk = await get('/all-lotteries?page=abc').expect(200);
    expect(junk.text.match(/<article class="lottery-card/g)).toHaveLength(12);
  });

  test('/all-lotteries?pick=ID opens the quick-play dialog without JavaScript', async () => {
    const res = await get(`/all-lotteries?page=2&pick=${ids[12]}`).expect(200);
    const dialog = res.text.slice(res.text.indexOf('<dialog'));
    expect(dialog).toMatch(/^<dialog[^>]*id="pick"/);
    expect(text(dialog)).toContain('Weekly Draw 12');
    // One name for each button in every picker (decision 056).
    expect(text(dialog)).toContain('Confirm Selection & Play');
    expect(text(dialog)).toContain('Easy Pick');
    expect(dialog).toContain('href="/all-lotteries?page=2"');
  });

  test('/quick-play with a complete choice redirects to the canonical ticket page', async () => {
    const res = await get(`/quick-play?lottery=${featured}&main=45&main=5&main=23&main=12&main=34&last=7`);
    expect([302, 303]).toContain(res.status);
    expect(res.headers.location).toBe(`/quick-play/${featured}/05-12-23-34-45-07`);
  });

  test('/quick-play with an incomplete choice shows the picker again with the messages and the numbers kept', async () => {
    const res = await get(`/quick-play?lottery=${featured}&main=5&main=12&last=`).expect(400);
    const body = text(res.text);
    expect(body).toContain('Please select at least 5 numbers.');
    expect(body).toContain('Please select a last number.');
    expect(res.text).toMatch(/<input type="checkbox" name="main" checked="" value="5"\/>/);
    expect(res.text).toMatch(/<input type="checkbox" name="main" checked="" value="12"\/>/);
    expect(res.text.match(/checked=""/g)).toHaveLength(2);

    const six = await get(`/quick-play?lottery=${featured}&main=1&main=2&main=3&main=4&main=5&main=6&last=3`).expect(400);
    expect(text(six.text)).toContain('Please select only 5 numbers.');

    const bn = await get(`/quick-play?lottery=${featured}&main=5`, 'bn').expect(400);
    expect(text(bn.text)).toContain('অনুগ্রহ করে অন্তত ৫টি সংখ্যা বেছে নিন।');
    expect(text(bn.text)).toContain('অনুগ্রহ করে একটি শেষ সংখ্যা বেছে নিন।');
  });

  test('/quick-play without a lottery asks for one; Clear and Easy Pick work as form buttons', async () => {
    const none = await get('/quick-play?main=5').expect(400);
    expect(text(none.text)).toContain('Please select a lottery first');
    expect(text((await get('/quick-play?main=5', 'bn').expect(400)).text)).toContain('অনুগ্রহ করে আগে একটি লটারি বেছে নিন');
    const cleared = await get(`/quick-play?lottery=${featured}&main=5&main=6&action=clear`).expect(200);
    expect(cleared.text).not.toContain('checked=""');
    const easy = await get(`/quick-play?lottery=${featured}&action=easy`).expect(200);
    expect(easy.text.match(/name="main" checked=""/g)).toHaveLength(5);
    expect(easy.text.match(/name="last" checked=""/g)).toHaveLength(1);
    const missing = await get('/quick-play?lottery=99999&main=1').expect(404);
    expect(text(missing.text)).toContain('Lottery not found');
  });

  test('/quick-play/ID/unpadded redirects to the padded, sorted ticket', async () => {
    const res = await get(`/quick-play/${featured}/45-12-23-34-5-7`).expect(301);
    expect(res.headers.location).toBe(`/quick-play/${featured}/05-12-23-34-45-07`);
    expect((await get(`/quick-play/${featured}/5-12-23-34-45-7`).expect(301)).headers.location).toBe(
      `/quick-play/${featured}/05-12-23-34-45-07`,
    );
  });

  test('the ticket page for a visitor: lottery, ticket balls and a login link that comes back here', async () => {
    const res = await get(`/quick-play/${featured}/05-12-23-34-45-07`).expect(200);
    const body = text(res.text);
    expect(body).toContain('Saturday Mega Draw');
    expect(body).toContain('Ticket number: 05-12-23-34-45-07');
    expect(body).toContain('TK. 100');
    expect(body).toContain('Log in to buy this ticket');
    expect(res.text).toContain(`href="/login?from=%2Fquick-play%2F${featured}%2F05-12-23-34-45-07"`);
    expect(res.text).toContain(`href="/register?from=%2Fquick-play%2F${featured}%2F05-12-23-34-45-07"`);
    expect(res.text).toContain(
      `href="/quick-play?lottery=${featured}&amp;main=5&amp;main=12&amp;main=23&amp;main=34&amp;main=45&amp;last=7&amp;action=edit"`,
    );
  });

  test('the ticket page for a player: name and phone, the purchase form with bKash, Nagad and Rocket not yet', async () => {
    const u = await createUser(t, { name: 'Nusrat Jahan' });
    const agent = await loginAs(t.url, u.phone, u.password);
    const res = await agent.get(`/quick-play/${featured}/05-12-23-34-45-07`).set('Cookie', 'lang=en').expect(200);
    const aside = res.text.slice(res.text.indexOf('class="play-card play-buy"'));
    const body = text(aside);
    expect(body).toContain('Nusrat Jahan');
    expect(body).toContain(u.phone);
    expect(body).not.toContain('Log in to buy this ticket');
    const panel = aside.slice(0, aside.indexOf('</aside>'));
    // two buttons, the form's two ways to pay; the methods not taken yet are disabled radio inputs, not buttons
    expect(panel.match(/<button/g)).toHaveLength(2);
    expect(panel).toMatch(/<button type="submit" value="checkout"[^>]*name="pay">/);
    expect(panel).toMatch(/<button type="submit" value="send_money"[^>]*name="pay">/);
    expect(panel).toMatch(/<form[^>]*action="\/quick-play\/\d+\/05-12-23-34-45-07\/buy"/);
    expect(body).toContain('Send Money and enter the TrxID');
    for (const m of ['rocket', 'nagad'])
      expect(panel).toMatch(new RegExp(`<input[^>]*disabled[^>]*value="${m}"|<input[^>]*value="${m}"[^>]*disabled`));
  });

  test('a closed lottery: the ticket page gives the reason instead of the login', async () => {
    const res = await get(`/quick-play/${closed}/05-12-23-34-45-07`).expect(200);
    expect(text(res.text)).toContain('This lottery has ended, or the results have been published.');
    expect(text(res.text)).not.toContain('Log in to buy this ticket');
  });

  test('a missing lottery is a 404 "Lottery not found"; a bad ticket is "Ticket not found"', async () => {
    const missing = await get('/quick-play/99999/05-12-23-34-45-07').expect(404);
    expect(text(missing.text)).toContain('Lottery not found');
    const bn = await get('/quick-play/99999/05-12-23-34-45-07', 'bn').expect(404);
    expect(text(bn.text)).toContain('লটারি পাওয়া যায়নি');
    expect(text((await get('/quick-play/abc/05-12-23-34-45-07').expect(404)).text)).toContain('Lottery not found');
    const hidden = await t.db.one<{ id: number }>(`SELECT id FROM lotteries WHERE name = 'Hidden Draw'`);
    expect(text((await get(`/quick-play/${hidden?.id}/05-12-23-34-45-07`).expect(404)).text)).toContain('Lottery not found');
    for (const bad of ['05-12-23-34-45-16', '05-05-23-34-45-07', '05-12-23-34-56-07', 'lucky']) {
      const res = await get(`/quick-play/${featured}/${bad}`).expect(404);
      expect(text(res.text)).toContain('Ticket not found');
      expect(text(res.text)).toContain('A ticket is 5 different numbers from 1 to 55');
    }
  });

  test('a failing results call shows its red error panel while the rest of the home page renders', async () => {
    await t.db.query('ALTER TABLE prizes RENAME TO prizes_away');
    try {
      const res = await get('/').expect(200);
      const results = text(res.text.slice(res.text.indexOf('id="results"')));
      expect(results).toMatch(/Error: \S/);
      expect(text(res.text)).toContain('Saturday Mega Draw');
      expect(res.text).toContain('data-island="featured"');
    } finally {
      await t.db.query('ALTER TABLE prizes_away RENAME TO prizes');
    }
  });
});
