/**
 * Lottery names and descriptions in English and Bengali (docs/rules/lotteries-and-sales.md#2-names-in-english-and-bengali):
 * the API carries both; every page shows its language's, and the English one where no Bengali was given.
 */
import request from 'supertest';
import { lotteryDescription, lotteryName } from '../../shared/lotteries/names.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let both: number, englishOnly: number, drawn: number;

const DAY = 24 * 3600 * 1000;
const iso = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function insert(l: {
  name: string;
  name_bn: string;
  description: string;
  description_bn: string;
  featured?: boolean;
  drawn?: boolean;
  end?: number;
}) {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, name_bn, description, description_bn, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, featured, is_result_published, drawn_at)
     VALUES ($1, $2, $3, $4, $5, $6, 100, 1000, 1, 500000, true, $7, $8, $9) RETURNING id`,
    [
      l.name,
      l.name_bn,
      l.description,
      l.description_bn,
      iso(l.drawn ? -20 : -1),
      iso(l.end ?? 5),
      l.featured ?? false,
      l.drawn ?? false,
      l.drawn ? iso(l.end ?? -1) : null,
    ],
  );
  return row!.id;
}

beforeAll(async () => {
  t = await startTestApp();
  both = await insert({
    name: 'Saturday Mega Draw',
    name_bn: 'শনিবারের মেগা ড্র',
    description: 'The weekly jackpot.',
    description_bn: 'সাপ্তাহিক জ্যাকপট।',
    featured: true,
    end: 3,
  });
  englishOnly = await insert({ name: 'Lucky Fifty', name_bn: '', description: 'Small stake.', description_bn: '', end: 4 });
  drawn = await insert({ name: 'Ekushey Draw', name_bn: 'একুশে ড্র', description: '', description_bn: '', drawn: true, end: -2 });
  const u = await t.db.one<{ id: number }>(
    `INSERT INTO users (name, phone, password_hash, is_active) VALUES ('Winner', '01000000009', '!', true) RETURNING id`,
  );
  const tx = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, '05-12-23-34-45-07', 100, 'bkash', 'success') RETURNING id`,
    [u!.id, drawn],
  );
  await t.db.query(`INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, '05-12-23-34-45-07', 500000)`, [
    drawn,
    tx!.id,
  ]);
});
afterAll(async () => {
  await t.close();
});

const page = (path: string, lang: 'en' | 'bn') => request(t.url).get(path).set('Cookie', `lang=${lang}`).expect(200);
/** The visible text of a page (the JSON data script left out). */
const visible = (html: string) =>
  html
    .replace(/<script[^>]*>[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('the API carries both languages', () => {
  test('every lottery answer: name, name_bn, description, description_bn (empty when not given)', async () => {
    const one = await to(t, api.getLottery, { params: { id: both } }).expect(200);
    expect(one.body).toMatchObject({
      name: 'Saturday Mega Draw',
      name_bn: 'শনিবারের মেগা ড্র',
      description: 'The weekly jackpot.',
      description_bn: 'সাপ্তাহিক জ্যাকপট।',
    });
    const list = await to(t, api.publishedLotteries).expect(200);
    const plain = list.body.find((l: { id: number }) => l.id === englishOnly);
    expect(plain).toMatchObject({ name: 'Lucky Fifty', name_bn: '', description: 'Small stake.', description_bn: '' });
    const featured = await to(t, api.featuredLotteries).expect(200);
    expect(featured.body[0]).toMatchObject({ id: both, name_bn: 'শনিবারের মেগা ড্র', description_bn: 'সাপ্তাহিক জ্যাকপট।' });
    const results = await to(t, api.lotteryResults).expect(200);
    expect(results.body[0].lottery).toMatchObject({ id: drawn, name: 'Ekushey Draw', name_bn: 'একুশে ড্র' });
  });
});

describe('lotteryName / lotteryDescription', () => {
  test('Bengali on a Bengali page when given, else English', () => {
    const l = { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক', description: 'Weekly.', description_bn: ' ' };
    expect(lotteryName(l, 'bn')).toBe('পদ্মা সাপ্তাহিক');
    expect(lotteryName(l, 'en')).toBe('Padma Weekly');
    expect(lotteryDescription(l, 'bn')).toBe('Weekly.');
    expect(lotteryName({ name: 'Old answer' }, 'bn')).toBe('Old answer');
  });
});

describe('pages show their language’s name', () => {
  test('home in Bengali: the quick-play panel, the cards and the results in Bengali, English where no Bengali was given', async () => {
    const html = (await page('/', 'bn')).text;
    const text = visible(html);
    expect(text).toContain('শনিবারের মেগা ড্র');
    expect(text).toContain('সাপ্তাহিক জ্যাকপট।');
    expect(text).toContain('Lucky Fifty');
    expect(text).toContain('একুশে ড্র');
    expect(text).not.toContain('Saturday Mega Draw');
    expect(text).not.toContain('Ekushey Draw');
  });

  test('home in English: the English names only', async () => {
    const text = visible((await page('/', 'en')).text);
    expect(text).toContain('Saturday Mega Draw');
    expect(text).toContain('The weekly jackpot.');
    expect(text).toContain('Ekushey Draw');
    expect(text).not.toContain('শনিবারের মেগা ড্র');
    expect(text).not.toContain('একুশে ড্র');
  });

  test('all lotteries, the picker dialog and the ticket page in Bengali', async () => {
    const all = visible((await page('/all-lotteries', 'bn')).text);
    expect(all).toContain('শনিবারের মেগা ড্র');
    expect(all).toContain('Lucky Fifty');
    expect(all).not.toContain('Saturday Mega Draw');
    const dialog = (await page(`/all-lotteries?pick=${both}`, 'bn')).text;
    expect(visible(dialog.slice(dialog.indexOf('<dialog')))).toContain('শনিবারের মেগা ড্র');
    const ticket = visible((await page(`/quick-play/${both}/05-12-23-34-45-07`, 'bn')).text);
    expect(ticket).toContain('শনিবারের মেগা ড্র');
    expect(ticket).not.toContain('Saturday Mega Draw');
    const fallback = visible((await page(`/quick-play/${englishOnly}/05-12-23-34-45-07`, 'bn')).text);
    expect(fallback).toContain('Lucky Fifty');
  });
});
