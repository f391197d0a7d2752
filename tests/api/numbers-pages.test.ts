/**
 * A numbers draw on the player's pages (docs/rules/lotteries-and-sales.md#9-the-draw "A numbers draw",
 * #10-results-for-players; docs/decisions/032-numbers-draw-tiers.md): the home page's result card shows the numbers
 * drawn, the winners per tier (counts and amounts, not the tickets) and the jackpot that rolled over; My Lotteries
 * shows each ticket's matched numbers and its tier; a numbers lottery's card shows its jackpot (what rolled in, guaranteed)
 * and How to win with each tier's odds; the proof page has the tier table. English and Bengali. On PGlite and PostgreSQL.
 *
 * The lottery is made and drawn through the API as tests/api/numbers-draw.test.ts does: after the sales close the test
 * tries seeds until the numbers drawn on drand's (real, signed) beacon give the tiers it needs, fixes that seed, then
 * enters the beacon's signature.
 */
import request from 'supertest';
import { matchOf, tierOf, type Match } from '../../shared/draws/tiers.ts';
import { formatTaka } from '../../shared/money.ts';
import { toDigits } from '../../shared/dates.ts';
import { ticketsDigest } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs, type Agent } from '../helpers/session.ts';
import { endSales, fixSeed, numbersWith, seedNumber, SIGNED } from './numbers-fixtures.ts';
import { account, buy, purchase, trxId, type Player, approveByHand } from './purchase-fixtures.ts';
import { dateFromNow, numbersLottery } from '../helpers/factories.ts';

let t: TestApp;
let staff: Player;
let player: Player;
let other: Player;

const PASSWORD = 'secret-pass-1';

/** The player's two tickets: one that reaches the 5th prize, one that wins nothing; the other player's two. */
const WINS = '05-12-23-34-45-07';
const LOSES = '02-09-18-27-55-15';
const OTHERS = ['01-02-03-04-05-06', '10-20-30-40-50-10'];

type Drawn = { id: number; target: number; numbers: number[]; winsMatch: Match; losesMatch: Match };
let drawn: Drawn;

async function create(body: object): Promise<number> {
  const res = await request(t.url)
    .post('/api/v1/lotteries/')
    .set(...staff.auth)
    .send(body);
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function sell(id: number, who: Player, ticket: string): Promise<void> {
  const res = await buy(t, who, purchase(id, ticket, { trx_id: trxId() }));
  expect(res.status).toBe(201);
  expect((await approveByHand(t, res.body.id)).status).toBe(200);
}

/**
 * A numbers lottery drawn through the API: the player's WINS reaches the 5th prize, LOSES and the other player's
 * tickets win nothing, so nobody wins the jackpot and it rolls into `target`, a numbers lottery still on sale.
 */
async function drawNumbersLottery(): Promise<Drawn> {
  const target = await numbersLottery(t, staff, { name: 'Next Numbers', name_bn: 'পরের সংখ্যা' });
  const id = await numbersLottery(t, staff, { name: 'Weekly Numbers', name_bn: 'সাপ্তাহিক সংখ্যা', rollover_to: target });
  await sell(id, player, WINS);
  await sell(id, player, LOSES);
  for (const x of OTHERS) await sell(id, other, x);
  // Sales ended an hour ago; the seed chosen, so that the test knows the numbers the draw on drand's beacon gives.
  await endSales(t, id);
  const digest = ticketsDigest([WINS, LOSES, ...OTHERS]);
  let seed = '';
  let numbers: number[] = [];
  for (let i = 0; !seed; i++) {
    const n = numbersWith(digest, seedNumber(i));
    if (tierOf(WINS, n) === 5 && [LOSES, ...OTHERS].every((x) => tierOf(x, n) === null)) [seed, numbers] = [seedNumber(i), n];
  }
  await fixSeed(t, id, seed);
  await request(t.url)
    .put(`/api/v1/lotteries/${id}/draw-beacon/`)
    .set(...staff.auth)
    .send({ signature: SIGNED.signature })
    .expect(200);
  const res = await request(t.url)
    .post(`/api/v1/lotteries/${id}/verifiable-draw/`)
    .set(...staff.auth)
    .expect(201);
  expect(res.body.numbers).toEqual(numbers);
  return { id, target, numbers, winsMatch: matchOf(WINS, numbers), losesMatch: matchOf(LOSES, numbers) };
}

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Numbers Staff', is_staff: true });
  player = await account(t, { name: 'Numbers Player' });
  other = await account(t, { name: 'Other Player' });
  drawn = await drawNumbersLottery();
}, 60_000);
afterAll(() => t.close());

/** What a page shows: its HTML without its scripts (the hydration data carries every text of the page). */
const shown = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');
const page = async (path: string, lng: 'en' | 'bn') =>
  shown((await request(t.url).get(path).set('Cookie', `lang=${lng}`).expect(200)).text);
/** The words a visitor reads: no tags (their attributes hold ids and addresses), no commitment or other hex value. */
const words = (html: string) => html.replace(/<code\b[\s\S]*?<\/code>/g, '').replace(/<[^>]*>/g, ' ');
const pad = (numbers: number[]) => numbers.map((n) => String(n).padStart(2, '0')).join('-');
/** The part of a page from the element that contains `start` to the next `end`. */
const between = (html: string, start: string, end: string) => {
  const from = html.indexOf(start);
  expect(from).toBeGreaterThanOrEqual(0);
  const to = html.indexOf(end, from + start.length);
  return html.slice(from, to < 0 ? undefined : to);
};

/** The jackpot: half of four tickets of TK. 100, nobody won it, so it rolled into the target. */
const JACKPOT = 200;

describe('the home page’s result card', () => {
  test('English: the numbers drawn as balls, the winners per tier with their amount, the rollover; no ticket listed', async () => {
    const html = await page('/', 'en');
    const card = between(html, 'result-card__name">Weekly Numbers', 'result-card__proof');
    // Each line labelled: the five winning numbers, then the last number (decision 057).
    const [main, last] = [drawn.numbers.slice(0, 5), drawn.numbers.slice(5)];
    expect(card).toContain(
      `<dt class="result-card__label">Winning numbers</dt><dd class="balls balls--sm"><span class="visually-hidden">${pad(main).replaceAll('-', ' ')}</span>`,
    );
    expect(card).toContain(
      `<dt class="result-card__label">Last number</dt><dd class="balls balls--sm"><span class="visually-hidden">${pad(last)}</span>`,
    );
    expect(card.match(/class="ball[ "]/g)).toHaveLength(6);
    expect(card).toContain('aria-label="Winners by prize"');
    expect(card).toMatch(/5th prize<\/span><span class="tier-list__won">1 winner · <span class="nowrap">TK\. 20<\/span>/);
    expect(card).toMatch(/Jackpot<\/span><span class="tier-list__won">No winner/);
    expect(card).toMatch(/2nd prize<\/span><span class="tier-list__won">No winner/);
    // The winning ticket is counted, not shown.
    expect(card).not.toContain(WINS);
    expect(html).toContain(`No jackpot winner: <span class="nowrap">${formatTaka(JACKPOT, 'en')}</span> rolls over.`);
  });

  test('Bengali: the same in Bengali words and digits', async () => {
    const html = await page('/', 'bn');
    const card = between(html, 'result-card__name">সাপ্তাহিক সংখ্যা', 'result-card__proof');
    expect(card).toContain(
      `বিজয়ী সংখ্যা</dt><dd class="balls balls--sm"><span class="visually-hidden">${toDigits(pad(drawn.numbers.slice(0, 5)).replaceAll('-', ' '), 'bn')}</span>`,
    );
    expect(card).toContain(
      `শেষ সংখ্যা</dt><dd class="balls balls--sm"><span class="visually-hidden">${toDigits(pad(drawn.numbers.slice(5)), 'bn')}</span>`,
    );
    expect(card).toContain('aria-label="পুরস্কার অনুযায়ী বিজয়ী"');
    expect(card).toMatch(/৫ম পুরস্কার<\/span><span class="tier-list__won">১টি বিজয়ী টিকিট · <span class="nowrap">৳২০<\/span>/);
    expect(card).toMatch(/জ্যাকপট<\/span><span class="tier-list__won">কোনো বিজয়ী নেই/);
    expect(words(card)).not.toMatch(/[0-9]/);
    expect(html).toContain(`কেউ জ্যাকপট জেতেনি: <span class="nowrap">${formatTaka(JACKPOT, 'bn')}</span> পরের লটারির জ্যাকপটে যোগ হয়েছে।`);
  });
});

describe('a numbers lottery’s card', () => {
  test('shows the jackpot that rolled in as guaranteed, and How to win with this lottery’s tier prizes and odds; en and bn, home and /all-lotteries', async () => {
    for (const path of ['/', '/all-lotteries']) {
      const en = await page(path, 'en');
      const card = between(en, '>Next Numbers<', '</article>');
      // Rolled in, nothing sold: a jackpot no sale can lower (decision 057).
      expect(card).toMatch(/<span>Guaranteed jackpot<\/span> <strong><span class="nowrap">TK\. 200<\/span><\/strong>/);
      expect(card).toContain('Rolled over from an earlier draw: no sale can lower it.');
      expect(card).toContain('<summary>How to win</summary>');
      expect(card).toMatch(
        /<th scope="row">2nd prize<\/th><td>5 main<small class="tiers-table__odds">1 in 3,727,244<\/small><\/td><td><span class="nowrap">TK\. 20,000<\/span>/,
      );
      expect(card).toMatch(
        /<th scope="row">4th prize<\/th><td>4 main, or 3 main \+ last<small class="tiers-table__odds">1 in 3,313<\/small><\/td><td><span class="nowrap">TK\. 200</,
      );
      expect(card).toContain('The jackpot, shared');
      expect(card).not.toContain('Total prize');

      const bn = await page(path, 'bn');
      const cardBn = between(bn, '>পরের সংখ্যা<', '</article>');
      expect(cardBn).toMatch(/<span>নিশ্চিত জ্যাকপট<\/span> <strong><span class="nowrap">৳২০০<\/span><\/strong>/);
      expect(cardBn).toContain('<summary>কীভাবে জিতবেন</summary>');
      expect(cardBn).toMatch(
        /<th scope="row">২য় পুরস্কার<\/th><td>৫টি মূল সংখ্যা<small class="tiers-table__odds">৩৭,২৭,২৪৪-এ ১<\/small><\/td><td><span class="nowrap">৳২০,০০০<\/span>/,
      );
      expect(words(cardBn)).not.toMatch(/[0-9]/);
    }
  });

  test('a winning-tickets lottery’s card is as before: its total prize, no How to win', async () => {
    const id = await create({
      name: 'Classic Draw',
      winners: 2,
      ticket_price: 100,
      total_prize: 50_000,
      start_date: dateFromNow(-1),
      end_date: dateFromNow(6),
      published: true,
    });
    const card = between(await page('/all-lotteries', 'en'), '>Classic Draw<', '</article>');
    expect(card).toMatch(/<span>Total prize<\/span> <strong><span class="nowrap">TK\. 50,000<\/span>/);
    expect(card).not.toContain('How to win');
    await t.db.query('DELETE FROM lotteries WHERE id = $1', [id]);
  });

  test('the ticket page of a numbers lottery shows its jackpot and How to win', async () => {
    const html = await page(`/quick-play/${drawn.target}/${WINS}`, 'en');
    expect(html).toMatch(/<span>Guaranteed jackpot<\/span> <strong><span class="nowrap">TK\. 200<\/span>/);
    expect(html).toContain('<summary>How to win</summary>');
  });
});

describe('My Lotteries', () => {
  const matchedText = (m: Match) =>
    m.main.length === 0
      ? m.last
        ? 'Only the last number matched'
        : 'No number matched'
      : `${m.main.length} main number${m.main.length === 1 ? '' : 's'}${m.last ? ' and the last number' : ''} matched`;
  const hits = (m: Match) => m.main.length + (m.last ? 1 : 0);

  async function myLotteries(lng: 'en' | 'bn'): Promise<string> {
    const agent: Agent = await loginAs(t.url, player.phone, PASSWORD);
    agent.set('Accept-Language', lng);
    return shown((await agent.get('/my-lotteries').expect(200)).text);
  }

  test('English: the numbers drawn, the ticket’s matched balls filled, what matched, the tier and its prize; the other ticket lost', async () => {
    const html = await myLotteries('en');
    const wins = between(html, `Ticket number: ${WINS}`, '</article>');
    expect(wins).toContain(`Ticket number: ${WINS}. ${matchedText(drawn.winsMatch)}.`);
    expect(wins).toContain(`Numbers drawn: ${pad(drawn.numbers)}`);
    expect(wins).toContain(`>${matchedText(drawn.winsMatch)}</p>`);
    expect(wins).toContain('<p class="my-ticket__tier">5th prize</p>');
    expect(wins).toMatch(/Congratulations! You won(<!-- -->)? <span class="nowrap">TK\. 20<\/span>/);
    expect(wins).toContain('Add Payment Info');
    // Filled where it matched, outlined where it did not: six balls of the ticket, its hits filled.
    const ticketBalls = between(wins, WINS, 'my-ticket__facts');
    expect(ticketBalls.match(/ball--hit/g)).toHaveLength(hits(drawn.winsMatch));
    expect(ticketBalls.match(/ball--miss/g)).toHaveLength(6 - hits(drawn.winsMatch));

    const loses = between(html, `Ticket number: ${LOSES}`, '</article>');
    expect(loses).toContain(`>${matchedText(drawn.losesMatch)}</p>`);
    expect(loses).toContain('Better luck next time.');
    expect(loses).not.toContain('my-ticket__tier');
    expect(between(loses, LOSES, 'my-ticket__facts').match(/ball--hit/g) ?? []).toHaveLength(hits(drawn.losesMatch));
  });

  test('Bengali: the same in Bengali words and digits', async () => {
    const html = await myLotteries('bn');
    const wins = between(html, `টিকিট নম্বর: ${toDigits(WINS, 'bn')}`, '</article>');
    expect(wins).toContain(`ড্র-তে ওঠা সংখ্যা: ${toDigits(pad(drawn.numbers), 'bn')}`);
    const k = drawn.winsMatch.main.length;
    const matched = `${toDigits(String(k), 'bn')}টি মূল সংখ্যা${drawn.winsMatch.last ? ' ও শেষ সংখ্যা' : ''} মিলেছে`;
    expect(wins).toContain(`টিকিট নম্বর: ${toDigits(WINS, 'bn')}। ${matched}।`);
    expect(wins).toContain(`>${matched}</p>`);
    expect(wins).toContain('<p class="my-ticket__tier">৫ম পুরস্কার</p>');
    expect(wins).toMatch(/অভিনন্দন! আপনি জিতেছেন(<!-- -->)? <span class="nowrap">৳২০<\/span>/);
    expect(between(html, `টিকিট নম্বর: ${toDigits(LOSES, 'bn')}`, '</article>')).toContain('পরের বার ভাগ্য আপনার সাথে থাকুক।');
  });
});

describe('the proof page', () => {
  test('the tier table: each tier, what it needs, its winning tickets and prize each; the rollover into the lottery named', async () => {
    const en = await page(`/results/${drawn.id}`, 'en');
    const table = between(en, 'Prizes by tier', '</table>');
    const row = (name: string, match: string, count: string, each: string) =>
      `<th scope="row">${name}</th><td>${match}</td><td class="num">${count}</td><td class="num"><span class="nowrap">${each}</span></td>`;
    expect(table).toContain(row('Jackpot', '5 main + last', '0', 'TK. 200'));
    expect(table).toContain(row('2nd prize', '5 main', '0', 'TK. 20,000'));
    expect(table).toContain(row('5th prize', '3 main, or 2 main + last', '1', 'TK. 20'));
    expect(en).toContain('No ticket won the jackpot: <span class="nowrap">TK. 200</span> rolled over into ');
    expect(en).toMatch(new RegExp(`href="/all-lotteries\\?pick=${drawn.target}"[^>]*>Next Numbers</a>`));

    const bn = await page(`/results/${drawn.id}`, 'bn');
    const tableBn = between(bn, 'স্তর অনুযায়ী পুরস্কার', '</table>');
    expect(tableBn).toContain(
      '<th scope="row">৫ম পুরস্কার</th><td>৩টি মূল, অথবা ২টি মূল + শেষ সংখ্যা</td><td class="num">১</td><td class="num"><span class="nowrap">৳২০</span></td>',
    );
    expect(words(tableBn)).not.toMatch(/[0-9]/);
    expect(bn).toContain('কেউ জ্যাকপট জেতেনি: <span class="nowrap">৳২০০</span> যোগ হয়েছে ');
  });

  test('before its draw a numbers lottery has no tier table', async () => {
    const html = await page(`/results/${drawn.target}`, 'en');
    expect(html).not.toContain('Prizes by tier');
  });
});

describe('How to win in the FAQ', () => {
  test('states the decided tiers (decision 032), without amounts, in both languages', async () => {
    const en = await page('/faq?category=prizes', 'en');
    const item = between(en, 'id="how-to-win"', '</details>');
    expect(item).toContain('How do I win in a numbers-draw lottery?');
    for (const tier of [
      'the Jackpot for all 5 main numbers and the last number',
      'the 2nd prize for all 5 main numbers',
      'the 3rd prize for 4 main numbers and the last number',
      'the 4th prize for 4 main numbers, or 3 main numbers and the last number',
      'the 5th prize for 3 main numbers, or 2 main numbers and the last number',
    ])
      expect(item).toContain(tier);
    expect(item).not.toMatch(/TK\.|৳/);
    const bn = await page('/faq?category=prizes', 'bn');
    const itemBn = between(bn, 'id="how-to-win"', '</details>');
    expect(itemBn).toContain('সংখ্যার ড্র-এর লটারিতে কীভাবে জিতবেন?');
    expect(itemBn).toContain('৪টি মূল সংখ্যা, অথবা ৩টি মূল সংখ্যা ও শেষ সংখ্যা মিললে ৪র্থ পুরস্কার');
    expect(words(itemBn)).not.toMatch(/[0-9]/);
  });
});
