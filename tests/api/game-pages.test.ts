/**
 * Knowing what you buy (docs/rules/lotteries-and-sales.md#12-odds-and-the-advertised-prize, decision 057): every lottery
 * card (home, /all-lotteries) and the ticket page say which game the lottery is — winning tickets drawn among those
 * sold, with the chance of a ticket bought now; or numbers matched, with each tier's exact odds — and the advertised
 * prize is never TK. 0. The home page's latest results show the draw's date and time and label their lines. The staff
 * draw page's facts read sensibly when fewer tickets are sold than winners. English and Bengali; PGlite and PostgreSQL.
 */
import request from 'supertest';
import { formatDate } from '../../shared/dates.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs, type Agent } from '../helpers/session.ts';
import { account, drawByHand, insertLottery, sold, type Player } from './purchase-fixtures.ts';
import { numbersLottery } from '../helpers/factories.ts';

let t: TestApp;
let staff: Player;
let player: Player;
let staffAgent: Agent;

const TICKETS = ['01-02-03-04-05-06', '10-20-30-40-50-10', '05-12-23-34-45-07', '11-22-33-44-55-15', '07-14-21-28-35-14'];
const MINE = '02-04-06-08-10-12';

/** What a page shows: its HTML without its scripts (the hydration data carries every text of the page). */
const shown = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');
const page = async (path: string, lng: 'en' | 'bn') =>
  shown((await request(t.url).get(path).set('Cookie', `lang=${lng}`).expect(200)).text);
/** The part of a page from `start` to the next `end`. */
const between = (html: string, start: string, end: string) => {
  const from = html.indexOf(start);
  expect(from).toBeGreaterThanOrEqual(0);
  const to = html.indexOf(end, from + start.length);
  return html.slice(from, to < 0 ? undefined : to);
};
/** The words a visitor reads, tags taken out. */
const words = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
const card = async (name: string, lng: 'en' | 'bn') => words(between(await page('/all-lotteries', lng), `>${name}<`, '</article>'));

/** The player's ticket, approved or left pending; his 10 purchases a minute start afresh (the test buys more). */
async function sell(lottery: number, ticket: string, status: 'success' | 'pending' = 'success') {
  await t.db.query('DELETE FROM rate_limits');
  await sold(t, staff, player, lottery, ticket, status);
}

/** A lottery that draws `winners` winning tickets, with `n` tickets sold (approved). */
async function ticketsLottery(name: string, name_bn: string, winners: number, n: number, end = 7): Promise<number> {
  const id = await insertLottery(t, { name, name_bn, end });
  await t.db.query('UPDATE lotteries SET winners = $2 WHERE id = $1', [id, winners]);
  for (const ticket of TICKETS.slice(0, n)) await sell(id, ticket);
  return id;
}

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Game Staff', is_staff: true });
  player = await account(t, { name: 'Game Player' });
  const u = await createUser(t, { name: 'Game Page Staff', phone: '01955500057', is_staff: true });
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
}, 60_000);
afterAll(() => t.close());

describe('a lottery that draws winning tickets says so, with the chance of a ticket now', () => {
  test('none sold: the winners drawn, and that no ticket is sold yet', async () => {
    await ticketsLottery('Empty Draw', 'খালি ড্র', 3, 0);
    const en = await card('Empty Draw', 'en');
    expect(en).toContain('Winning tickets drawn: 3 winners drawn among the tickets sold; they share the total prize equally.');
    expect(en).toContain('No ticket sold yet.');
    expect(en).not.toContain('How to win');
    expect(en).not.toContain('chance');
    const bn = await card('খালি ড্র', 'bn');
    expect(bn).toContain('বিজয়ী টিকিটের ড্র: বিক্রি হওয়া টিকিটের মধ্য থেকে ৩টি বিজয়ী টিকিট ড্র হবে; সেগুলো মোট পুরস্কার সমান ভাগে পাবে।');
    expect(bn).toContain('এখনো কোনো টিকিট বিক্রি হয়নি।');
  });

  test('fewer sold than winners: every ticket sold so far would win, said truthfully; so does the staff draw page', async () => {
    const id = await ticketsLottery('Few Sold Draw', 'কম বিক্রির ড্র', 3, 2);
    expect(await card('Few Sold Draw', 'en')).toContain('Fewer tickets sold so far than winners: every ticket sold so far would win.');
    expect(await card('কম বিক্রির ড্র', 'bn')).toContain('এ পর্যন্ত বিজয়ীর চেয়ে কম টিকিট বিক্রি হয়েছে: এ পর্যন্ত বিক্রি হওয়া প্রতিটি টিকিটই জিতবে।');
    const staffPage = words((await staffAgent.get(`/admin/lotteries/${id}/draw`).expect(200)).text);
    expect(staffPage).toContain('Up to 3 winning tickets drawn among the tickets sold: only 2 sold, so each of them wins · total prize');
    expect(staffPage).not.toContain('3 winners · 2 tickets sold');
  });

  test('more sold: 1 in (sold + 1) / winners, on the card and on the ticket page; bn digits', async () => {
    const id = await ticketsLottery('Busy Draw', 'ব্যস্ত ড্র', 3, 5);
    const text = 'Your chance now: 1 in 2 (5 tickets sold, yours counted).';
    expect(await card('Busy Draw', 'en')).toContain(text);
    expect(words(await page(`/quick-play/${id}/${MINE}`, 'en'))).toContain(text);
    const bnText = 'এখন আপনার সম্ভাবনা: ২-এ ১ (৫টি টিকিট বিক্রি হয়েছে, আপনারটি ধরে)।';
    expect(await card('ব্যস্ত ড্র', 'bn')).toContain(bnText);
    expect(words(await page(`/quick-play/${id}/${MINE}`, 'bn'))).toContain(bnText);
    // Staff see the winners among the tickets sold, not "3 winners · 5 tickets sold".
    const staffPage = words((await staffAgent.get(`/admin/lotteries/${id}/draw`).expect(200)).text);
    expect(staffPage).toContain('3 winning tickets drawn among the tickets sold (5 sold) · total prize');
  });

  test('a chance that is not a whole number is "about", to one decimal', async () => {
    await ticketsLottery('Close Draw', 'কাছাকাছি ড্র', 4, 4); // 5 / 4 = 1.25
    expect(await card('Close Draw', 'en')).toContain('Your chance now: about 1 in 1.3 (4 tickets sold, yours counted).');
    expect(await card('কাছাকাছি ড্র', 'bn')).toContain('এখন আপনার সম্ভাবনা: প্রায় ১.৩-এ ১');
  });

  test('sales closed: the game is said, no chance of buying now', async () => {
    await ticketsLottery('Closed Draw', 'বন্ধ ড্র', 2, 3, 1);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE name = 'Closed Draw'`);
    const en = await card('Closed Draw', 'en');
    expect(en).toContain('2 winners drawn among the tickets sold');
    expect(en).not.toContain('Your chance now');
  });
});

describe('a numbers lottery says so, with each tier’s odds, and never advertises TK. 0', () => {
  let fresh: number;
  beforeAll(async () => {
    fresh = await numbersLottery(t, staff, { name: 'Fresh Numbers', name_bn: 'নতুন সংখ্যা' });
  });

  test('new, nothing sold: the 2nd prize and a jackpot that grows, never TK. 0; on the card, the ticket page and home', async () => {
    const en = await card('Fresh Numbers', 'en');
    expect(en).toContain('2nd prize TK. 20,000');
    expect(en).toContain('The jackpot grows with every ticket sold.');
    expect(en).toContain(
      'Numbers matched: prizes by how many of the drawn numbers (5 of 1–55 and a last number of 1–15) your ticket matches.',
    );
    expect(en).not.toMatch(/TK\. 0(?![\d,])/);
    const ticket = words(await page(`/quick-play/${fresh}/${MINE}`, 'en'));
    expect(ticket).toContain('2nd prize TK. 20,000');
    expect(ticket).not.toMatch(/TK\. 0(?![\d,])/);
    // The home page: featured cards, the quick-play panel and the picker opened without JavaScript.
    await t.db.query('UPDATE lotteries SET featured = true WHERE id = $1', [fresh]);
    const home = words(await page(`/?pick=${fresh}`, 'en'));
    expect(home).toContain('2nd prize TK. 20,000');
    expect(home).not.toMatch(/TK\. 0(?![\d,])/);
    expect(home).not.toMatch(/Jackpot TK\. 0/i);
    const bn = await card('নতুন সংখ্যা', 'bn');
    expect(bn).toContain('২য় পুরস্কার ৳২০,০০০');
    expect(bn).toContain('প্রতিটি টিকিট বিক্রিতে জ্যাকপট বাড়ে।');
    expect(bn).not.toMatch(/৳০(?![০-৯,])/);
  });

  test('the tier table gives each tier’s exact odds and the odds of any prize; en and bn', async () => {
    const en = await card('Fresh Numbers', 'en');
    for (const [tier, odds] of [
      ['Jackpot', '1 in 52,181,415'],
      ['2nd prize', '1 in 3,727,244'],
      ['3rd prize', '1 in 208,726'],
      ['4th prize', '1 in 3,313'],
      ['5th prize', '1 in 142'],
    ])
      expect(en).toMatch(new RegExp(`${tier}[^]*?${odds}`));
    expect(en).toContain('Any prize: 1 in 136 tickets.');
    const bn = await card('নতুন সংখ্যা', 'bn');
    expect(bn).toContain('৫,২১,৮১,৪১৫-এ ১');
    expect(bn).toContain('৩৭,২৭,২৪৪-এ ১');
    expect(bn).toContain('যেকোনো পুরস্কার: ১৩৬টি টিকিটে ১টি।');
  });

  test('with paid tickets: the estimated jackpot, its share of the sales so far', async () => {
    const id = await numbersLottery(t, staff, { name: 'Selling Numbers', name_bn: 'বিক্রির সংখ্যা' });
    await sell(id, TICKETS[0] as string);
    await sell(id, TICKETS[1] as string, 'pending'); // not paid: not in the jackpot
    const en = await card('Selling Numbers', 'en');
    expect(en).toContain('Estimated jackpot TK. 50');
    expect(en).toContain('50% of the ticket sales paid so far; it grows with every ticket.');
    const bn = await card('বিক্রির সংখ্যা', 'bn');
    expect(bn).toContain('আনুমানিক জ্যাকপট ৳৫০');
    expect(bn).toContain('এ পর্যন্ত পরিশোধিত টিকিট বিক্রির ৫০%');
  });

  test('a jackpot share of 0 and no fixed prize: no amount at all, never TK. 0', async () => {
    await numbersLottery(t, staff, {
      name: 'Prizeless Numbers',
      name_bn: 'পুরস্কারহীন সংখ্যা',
      jackpot_share: 0,
      tier2_prize: 0,
      tier3_prize: 0,
      tier4_prize: 0,
      tier5_prize: 0,
    });
    // The advertised prize, from the name to the game's line (the tier table says what each tier pays: TK. 0).
    const headline = between(await card('Prizeless Numbers', 'en'), 'Prizeless Numbers', 'Numbers matched');
    expect(headline).toBe('Prizeless NumbersNo prize money set yet');
  });
});

describe('the home page’s latest results', () => {
  test('the draw’s date and time (Dhaka), and the winning tickets labelled; en and bn', async () => {
    const id = await ticketsLottery('Finished Draw', 'শেষ হওয়া ড্র', 1, 2);
    const res = await drawByHand(t, id, [TICKETS[1] as string]);
    expect(res.status).toBe(201);
    const at = (await t.db.one<{ drawn_at: string }>('SELECT drawn_at FROM lotteries WHERE id = $1', [id]))!.drawn_at;
    const en = words(between(await page('/', 'en'), 'result-card__name">Finished Draw', 'result-card__proof'));
    expect(en).toContain(`Drawn ${formatDate(at, 'en', { withTime: true })}`);
    expect(en).not.toContain('Start date');
    expect(en).toContain('Winning tickets');
    const html = between(await page('/', 'en'), 'result-card__name">Finished Draw', 'result-card__proof');
    expect(html).toMatch(
      /<p class="result-card__label" id="(winning-\d+)">Winning tickets<\/p><ul class="result-card__tickets" aria-labelledby="\1"/,
    );
    const bn = words(between(await page('/', 'bn'), 'result-card__name">শেষ হওয়া ড্র', 'result-card__proof'));
    expect(bn).toContain(`ড্র হয়েছে ${formatDate(at, 'bn', { withTime: true })}`);
    expect(bn).toContain('বিজয়ী টিকিট');
  });
});
