/**
 * The results archive and "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players):
 * `GET /api/v1/results/` (every drawn lottery whose results are published, newest first, paged, searched by name in
 * either language and by Dhaka day; a numbers draw summarised per tier, a winning-tickets draw with its winners, whether
 * the draw can be checked), `GET /api/v1/check-numbers/` (each past draw a ticket won or would have won), bad input in
 * English and Bengali, and the pages /results and /results/check without JavaScript. On PGlite and PostgreSQL.
 *
 * The draws are made as tests/api/numbers-draw.test.ts makes them: the seed fixed, the tickets sold, the sales ended,
 * a seed chosen so that the draw on drand's (real, signed) beacon gives what the test needs, the beacon's signature
 * entered, then the verifiable draw.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { numbersPrizes, tierOf, TIERS } from '../../shared/draws/tiers.ts';
import { formatTicket } from '../../shared/ticket.ts';
import { ticketsDigest } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  endSales as endSalesOf,
  fixSeed,
  numbersWith,
  seedNumber,
  SIGNED,
  sellMany as sellManyOf,
  soldTickets as soldTicketsOf,
} from './numbers-fixtures.ts';
import { loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';
import { account, buy, insertLottery, purchase, trxId, type Player, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let staff: Player;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Archive Staff', is_staff: true });
  player = await account(t, { name: 'Archive Player' });
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const TIER_PRIZES = { tier2_prize: 20_000, tier3_prize: 2_000, tier4_prize: 200, tier5_prize: 20 };

const as = (p: Player | null, method: 'get' | 'post' | 'put', url: string, lng = 'en') => {
  const r = request(t.url)[method](url).set('Accept-Language', lng);
  return p ? r.set(...p.auth) : r;
};
const archive = (query: Record<string, unknown> = {}, lng = 'en') => to(t, api.resultsArchive, { query, lang: lng });
const check = (ticket: string, lng = 'en') => to(t, api.checkNumbers, { query: { ticket }, lang: lng });

async function create(body: object): Promise<number> {
  const res = await to(t, api.createLottery, { as: staff }).send({ start_date: day(-1), end_date: day(6), published: true, ...body });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** A purchase through the API, approved by staff: a `success` ticket of the player. */
async function sell(id: number, ticket: string): Promise<void> {
  const res = await buy(t, player, purchase(id, ticket, { trx_id: trxId() }));
  expect(res.status).toBe(201);
  expect((await approveByHand(t, res.body.id)).status).toBe(200);
}

const sellMany = (id: number, tickets: string[]) => sellManyOf(t, player.id, id, tickets);

const endSales = (id: number) => endSalesOf(t, id);

const soldTickets = (id: number) => soldTicketsOf(t, id);

/** The first seed "SHA-256 of seed <i>" whose drawn numbers satisfy `wanted`. */
function seedFor(tickets: string[], wanted: (numbers: number[]) => boolean): string {
  const digest = ticketsDigest(tickets);
  for (let i = 0; i < 1_000_000; i++) {
    const seed = seedNumber(i);
    if (wanted(numbersWith(digest, seed))) return seed;
  }
  throw new Error('no seed found');
}

async function drawWith(id: number, seed: string) {
  await fixSeed(t, id, seed);
  await to(t, api.setDrawBeacon, { params: { id }, as: staff }).send({ signature: SIGNED.signature }).expect(200);
  return (await to(t, api.verifiableDraw, { params: { id }, as: staff }).expect(201)).body as {
    numbers?: number[];
    prizes: { ticket: string; prize_money: number }[];
  };
}

/** `count` distinct tickets, the same on every run. */
function manyTickets(count: number, salt = ''): string[] {
  const out = new Set<string>();
  for (let i = 0; out.size < count; i++) {
    const h = createHash('sha256').update(`ticket ${salt}${i}`).digest();
    const main = new Set<number>();
    for (let j = 0; main.size < 5; j++) main.add(((h[j] as number) % 55) + 1);
    out.add(formatTicket({ main: [...main], last: ((h[31] as number) % 15) + 1 }));
  }
  return [...out];
}

/** A ticket of 3 of the drawn main numbers and the drawn last number (the 4th prize) that is none of `not`. */
function fourthPrizeTicket(numbers: number[], not: Set<string>): string {
  const main = numbers.slice(0, 5);
  const others = Array.from({ length: 55 }, (_, i) => i + 1).filter((n) => !main.includes(n));
  for (let a = 0; a < others.length; a++)
    for (let b = a + 1; b < others.length; b++) {
      const x = formatTicket({ main: [...main.slice(0, 3), others[a]!, others[b]!], last: numbers[5]! });
      if (!not.has(x)) return x;
    }
  throw new Error('no ticket');
}

type Archived = {
  lottery: { id: number; name: string; name_bn: string; kind: string; drawn_at: string; total_prize: number };
  numbers: number[] | null;
  tiers: { tier: number; winners: number; prize: number }[] | null;
  winners: { ticket: string; prize_money: number }[] | null;
  rollover: { amount: number; to: number } | null;
  algorithm: string;
};

/**
 * The data of the whole file, made once: a winning-tickets lottery drawn by the procedure, a numbers lottery drawn by
 * it (one of its sold tickets in a tier, nobody on the jackpot, which rolls into `target`), a lottery drawn by hand
 * (inserted with its results), and lotteries that must not show: not drawn, results not published, not published.
 */
let classic: number;
let classicWinners: { ticket: string; prize_money: number }[];
let numbersId: number;
let target: number;
let numbers: number[];
let sold: string[];
let byHand: number;
let hidden: number[];

beforeAll(async () => {
  for (const table of [
    'audit_log',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'draw_commitments',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);

  classic = await create({ name: 'Classic Friday', name_bn: 'ক্লাসিক শুক্রবার', winners: 2, ticket_price: 100, total_prize: 1000 });
  for (const x of ['01-02-03-04-05-06', '07-08-09-10-11-12', '13-14-15-16-17-01']) await sell(classic, x);
  await endSales(classic);
  classicWinners = (await drawWith(classic, createHash('sha256').update('classic').digest('hex'))).prizes;

  target = await create({
    name: 'Next Numbers',
    name_bn: 'পরের সংখ্যা',
    kind: 'numbers',
    ticket_price: 100,
    total_tickets: 10_000,
    jackpot_share: 50,
    ...TIER_PRIZES,
  });
  numbersId = await create({
    name: 'Weekly Numbers',
    name_bn: 'সাপ্তাহিক সংখ্যা',
    kind: 'numbers',
    ticket_price: 100,
    total_tickets: 10_000,
    jackpot_share: 50,
    rollover_to: target,
    ...TIER_PRIZES,
  });
  await sellMany(numbersId, manyTickets(40));
  await endSales(numbersId);
  sold = await soldTickets(numbersId);
  const seed = seedFor(sold, (n) => sold.some((x) => (tierOf(x, n) ?? 1) > 1) && sold.every((x) => tierOf(x, n) !== 1));
  numbers = (await drawWith(numbersId, seed)).numbers!;

  byHand = await insertLottery(t, { name: 'Hand Drawn', name_bn: 'হাতে ড্র', results: true });
  const tx = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, '21-22-23-24-25-02', 100, 'bkash', 'success') RETURNING id`,
    [player.id, byHand],
  );
  await t.db.query(`INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, '21-22-23-24-25-02', 50000)`, [
    byHand,
    tx!.id,
  ]);
  // Drawn at fixed times: the hand-drawn one on 2 March 2025 00:30 in Dhaka (1 March 18:30 UTC).
  await t.db.query(`UPDATE lotteries SET drawn_at = '2025-03-01T18:30:00Z' WHERE id = $1`, [byHand]);
  await t.db.query(`UPDATE lotteries SET drawn_at = now() - interval '2 hours' WHERE id = $1`, [classic]);
  await t.db.query(`UPDATE lotteries SET drawn_at = now() - interval '1 hour' WHERE id = $1`, [numbersId]);

  hidden = [
    await insertLottery(t, { name: 'Still On Sale' }),
    await insertLottery(t, { name: 'Unpublished Drawn', published: false, results: true }),
    // Drawn, then its results taken back.
    await insertLottery(t, { name: 'Taken Back' }),
  ];
  await t.db.query(`UPDATE lotteries SET drawn_at = now() WHERE id = $1`, [hidden[2]]);
}, 120_000);

describe('GET /api/v1/results/', () => {
  test('every drawn lottery with published results, newest draw first; the others absent; the total in X-Total-Count', async () => {
    const res = await archive().expect(200);
    expect(res.headers['x-total-count']).toBe('3');
    const items = res.body as Archived[];
    expect(items.map((r) => r.lottery.id)).toEqual([numbersId, classic, byHand]);
    for (const id of [...hidden, target]) expect(items.some((r) => r.lottery.id === id)).toBe(false);
    expect(items[2]).toMatchObject({
      lottery: { name: 'Hand Drawn', kind: 'tickets', drawn_at: '2025-03-01T18:30:00.000Z', total_prize: 100000 },
      winners: [{ ticket: '21-22-23-24-25-02', prize_money: 50000 }],
      numbers: null,
      tiers: null,
      algorithm: 'unverifiable',
    });
  });

  test('paging: limit and offset, the total whatever the page', async () => {
    const first = await archive({ limit: 2 }).expect(200);
    expect(first.headers['x-total-count']).toBe('3');
    expect((first.body as Archived[]).map((r) => r.lottery.id)).toEqual([numbersId, classic]);
    const second = await archive({ limit: 2, offset: 2 }).expect(200);
    expect((second.body as Archived[]).map((r) => r.lottery.id)).toEqual([byHand]);
    const beyond = await archive({ offset: 50 }).expect(200);
    expect([beyond.body, beyond.headers['x-total-count']]).toEqual([[], '3']);
  });

  test('a winning-tickets draw by the procedure: its winning tickets in the order drawn, the total prize, checkable', async () => {
    const r = ((await archive().expect(200)).body as Archived[]).find((x) => x.lottery.id === classic)!;
    expect(classicWinners).toHaveLength(2);
    expect(r).toMatchObject({
      lottery: { name: 'Classic Friday', name_bn: 'ক্লাসিক শুক্রবার', kind: 'tickets', total_prize: 1000 },
      winners: classicWinners.map(({ ticket, prize_money }) => ({ ticket, prize_money })),
      numbers: null,
      tiers: null,
      rollover: null,
      algorithm: 'bhagya-draw-v1',
    });
  });

  test('a numbers draw: its numbers and each tier summarised (how many prizes, what each paid), never the tickets', async () => {
    const r = ((await archive().expect(200)).body as Archived[]).find((x) => x.lottery.id === numbersId)!;
    // What the draw paid, by the rule functions, from the sold tickets.
    const paid = numbersPrizes({
      tickets: sold.map((ticket) => ({ ticket })),
      numbers,
      sales: sold.length * 100,
      jackpotShare: 50,
      rolloverIn: 0,
      tierPrizes: [20_000, 2_000, 200, 20],
    });
    expect(paid.counts[1]).toBe(0);
    const jackpot = Math.floor((sold.length * 100 * 50) / 100);
    expect(r).toMatchObject({
      lottery: { kind: 'numbers', total_prize: jackpot },
      numbers,
      winners: null,
      rollover: { amount: jackpot, to: target },
      algorithm: 'bhagya-draw-v1',
    });
    const each = [jackpot, 20_000, 2_000, 200, 20];
    expect(r.tiers).toEqual(TIERS.map((tier) => ({ tier, winners: paid.counts[tier], prize: each[tier - 1] })));
    expect(r.tiers!.reduce((n, x) => n + x.winners, 0)).toBeGreaterThan(0);
    expect(JSON.stringify(r)).not.toContain(sold[0]!);
  });

  test('search: part of the English or the Bengali name, any case; a Dhaka day', async () => {
    const ids = async (q: Record<string, unknown>) => ((await archive(q).expect(200)).body as Archived[]).map((r) => r.lottery.id);
    expect(await ids({ search: 'weekly' })).toEqual([numbersId]);
    expect(await ids({ search: 'শুক্র' })).toEqual([classic]);
    expect(await ids({ search: '  হাতে ' })).toEqual([byHand]);
    expect(await ids({ search: 'Still' })).toEqual([]);
    // `%` and `_` are letters, not wildcards.
    expect(await ids({ search: '%' })).toEqual([]);
    const search = await archive({ search: 'n' });
    expect([search.body.length, search.headers['x-total-count']]).toEqual([2, '2']);
    // 1 March 18:30 UTC is 2 March in Dhaka.
    expect(await ids({ date: '2025-03-02' })).toEqual([byHand]);
    expect(await ids({ date: '2025-03-01' })).toEqual([]);
    expect(await ids({ date: '২০২৫-০৩-০২' })).toEqual([byHand]);
    expect(await ids({ date: '2025-03-02', search: 'classic' })).toEqual([]);
    const today = new Date(Date.now() - 3600 * 1000 + 6 * 3600 * 1000).toISOString().slice(0, 10);
    expect(await ids({ date: today, search: 'weekly' })).toEqual([numbersId]);
  });

  test('bad input: 400 under its field, in English and in Bengali', async () => {
    const bad: [Record<string, unknown>, string, string, string][] = [
      [{ limit: 0 }, 'limit', 'Enter a whole number from 1 to 20.', '১ থেকে ২০-এর মধ্যে একটি পূর্ণ সংখ্যা লিখুন।'],
      [{ limit: 21 }, 'limit', 'Enter a whole number from 1 to 20.', '১ থেকে ২০-এর মধ্যে একটি পূর্ণ সংখ্যা লিখুন।'],
      [{ limit: 'abc' }, 'limit', 'Enter a whole number from 1 to 20.', '১ থেকে ২০-এর মধ্যে একটি পূর্ণ সংখ্যা লিখুন।'],
      [{ offset: -1 }, 'offset', 'Enter a whole number from 0 to 1000000.', '০ থেকে ১০,০০,০০০-এর মধ্যে একটি পূর্ণ সংখ্যা লিখুন।'],
      [{ offset: 1000001 }, 'offset', 'Enter a whole number from 0 to 1000000.', '০ থেকে ১০,০০,০০০-এর মধ্যে একটি পূর্ণ সংখ্যা লিখুন।'],
      [
        { date: '2025-02-30' },
        'date',
        'Enter a date as YYYY-MM-DD, for example 2025-03-01.',
        'তারিখ YYYY-MM-DD আকারে লিখুন, যেমন ২০২৫-০৩-০১।',
      ],
      [
        { date: 'yesterday' },
        'date',
        'Enter a date as YYYY-MM-DD, for example 2025-03-01.',
        'তারিখ YYYY-MM-DD আকারে লিখুন, যেমন ২০২৫-০৩-০১।',
      ],
      [
        { search: 'x'.repeat(101) },
        'search',
        'Ensure this value has at most 100 characters or digits.',
        'সর্বোচ্চ ১০০টি অক্ষর বা অঙ্ক দেওয়া যাবে।',
      ],
      [{ page: 2 }, 'page', 'Unknown field.', 'অজানা ঘর।'],
    ];
    for (const [q, field, en, bn] of bad) {
      for (const [lng, message] of [
        ['en', en],
        ['bn', bn],
      ] as const) {
        const res = await archive(q, lng);
        expect([q, res.status, res.body[field]]).toEqual([q, 400, [message]]);
      }
    }
  });
});

describe('GET /api/v1/check-numbers/', () => {
  test('a winning ticket of a winning-tickets draw: that draw, its prize, sold; written any accepted way', async () => {
    const w = classicWinners[0]!;
    const res = await check(w.ticket.split('-').map(Number).join(' - ')).expect(200);
    expect(res.body).toMatchObject({ ticket: w.ticket, numbers_draws_checked: 1, numbers_draws_limit: 500 });
    const hit = res.body.hits.find((h: { lottery: { id: number } }) => h.lottery.id === classic);
    expect(hit).toEqual({
      lottery: { id: classic, name: 'Classic Friday', name_bn: 'ক্লাসিক শুক্রবার', kind: 'tickets', drawn_at: expect.any(String) },
      tier: null,
      prize: w.prize_money,
      sold: true,
      withheld_reason: null,
      numbers: null,
      matched: null,
      lucky_code: null,
    });
    // Bengali digits too.
    const bn = await check(w.ticket.replace(/\d/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!)).expect(200);
    expect(bn.body.ticket).toBe(w.ticket);
  });

  test('a sold ticket in a numbers tier: its tier, the prize it was paid, what matched', async () => {
    const mine = sold.find((x) => tierOf(x, numbers) !== null)!;
    const tier = tierOf(mine, numbers)!;
    const paid = await t.db.one<{ prize_money: number }>('SELECT prize_money FROM prizes WHERE lottery_id = $1 AND ticket = $2', [
      numbersId,
      mine,
    ]);
    const res = await check(mine).expect(200);
    expect(res.body.hits).toEqual([
      expect.objectContaining({
        lottery: expect.objectContaining({ id: numbersId, kind: 'numbers' }),
        tier,
        prize: paid!.prize_money,
        sold: true,
        numbers,
      }),
    ]);
    expect(res.body.hits[0].matched.main.length).toBeGreaterThanOrEqual(2);
  });

  test('an unsold ticket that reaches a tier: it would have won the tier’s prize', async () => {
    const x = fourthPrizeTicket(numbers, new Set(sold));
    const res = await check(x).expect(200);
    expect(res.body.hits).toEqual([
      {
        lottery: expect.objectContaining({ id: numbersId }),
        tier: 4,
        prize: 200,
        sold: false,
        withheld_reason: null,
        numbers,
        matched: { main: numbers.slice(0, 3), last: true },
        lucky_code: null,
      },
    ]);
    // The jackpot's own combination, unsold: the whole jackpot, which rolled over.
    const jackpot = formatTicket({ main: numbers.slice(0, 5), last: numbers[5]! });
    const j = await check(jackpot).expect(200);
    expect(j.body.hits[0]).toMatchObject({ tier: 1, sold: false, prize: Math.floor((sold.length * 100 * 50) / 100) });
  });

  test('a ticket that won nothing: no hits', async () => {
    const miss = manyTickets(200, 'miss').find((x) => tierOf(x, numbers) === null && !classicWinners.some((w) => w.ticket === x))!;
    const res = await check(miss).expect(200);
    expect(res.body).toEqual({ ticket: miss, code: null, hits: [], numbers_draws_checked: 1, numbers_draws_limit: 500 });
  });

  test('a ticket typed in any order, with any separators, leading zeros or not, in Bengali digits: the same ticket', async () => {
    const x = fourthPrizeTicket(numbers, new Set(sold));
    const [a, b, c, d, e, last] = x.split('-').map(Number) as [number, number, number, number, number, number];
    const typed = [
      `${e} ${c} ${a} ${d} ${b} ${last}`,
      `${d},${a},${e},${b},${c},${last}`,
      `0${a}. ${b}; ${c} / ${d} ${e} | ${last}`,
      `${[c, a, e, b, d, last].join(' ').replace(/[0-9]/g, (n) => '০১২৩৪৫৬৭৮৯'[Number(n)]!)}`,
    ];
    for (const ticket of typed) {
      const res = await check(ticket);
      expect([ticket, res.status, res.body.ticket]).toEqual([ticket, 200, x]);
      expect(res.body.hits[0]).toMatchObject({ lottery: { id: numbersId }, tier: 4 });
    }
  });

  test('a bad or missing ticket: 400 with what is wrong, in English and in Bengali', async () => {
    const cases: [string, RegExp, RegExp][] = [
      ['05 12 23 34 45', /^Too few numbers/, /^সংখ্যা কম হয়েছে/],
      ['5 12 23 34 45 7 8', /^Too many numbers/, /^সংখ্যা বেশি হয়েছে/],
      ['05-05-23-34-45-07', /^The 5 main numbers must all be different/, /^৫টি মূল সংখ্যা আলাদা হতে হবে/],
      ['05-12-23-34-56-07', /^The 5 main numbers must each be from 1 to 55/, /^৫টি মূল সংখ্যার প্রতিটি/],
      ['5 12 23 34 45 16', /^The last number \(the last one you type\) must be from 1 to 15/, /^শেষ সংখ্যা/],
      ['abc', /^Type only numbers/, /^শুধু সংখ্যা লিখুন/],
    ];
    for (const [ticket, enText, bnText] of cases) {
      const en = await check(ticket);
      expect([ticket, en.status, en.body.ticket?.[0]]).toEqual([ticket, 400, expect.stringMatching(enText)]);
      const bn = await check(ticket, 'bn');
      expect([ticket, bn.status, bn.body.ticket?.[0]]).toEqual([ticket, 400, expect.stringMatching(bnText)]);
    }
    // No ticket, and an empty one (which urlOf leaves out: its query is written by hand).
    for (const url of [urlOf(api.checkNumbers), `${urlOf(api.checkNumbers)}?ticket=`]) {
      expect((await as(null, 'get', url)).body).toEqual({ ticket: ['Please enter the ticket number.'] });
      expect((await as(null, 'get', url, 'bn')).body).toEqual({ ticket: ['অনুগ্রহ করে টিকিট নম্বর লিখুন।'] });
    }
  });
});

describe('the pages, without JavaScript', () => {
  /** What a page shows: its HTML without its scripts (the hydration data carries every text). */
  const shown = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');
  const page = (path: string, lng: 'en' | 'bn' = 'en') => request(t.url).get(path).set('Cookie', `lang=${lng}`);

  test('/results in English: the search form, each draw with its numbers or winners, the tiers and the proof link', async () => {
    const html = shown((await page('/results').expect(200)).text);
    expect(html).toMatch(/<form[^>]*action="\/results" method="get"/);
    expect(html).toContain('name="search"');
    expect(html).toContain('name="date"');
    for (const name of ['Weekly Numbers', 'Classic Friday', 'Hand Drawn']) expect(html).toContain(name);
    expect(html).toContain(`href="/results/${numbersId}"`);
    expect(html).toContain('Drawn by hand — cannot be checked');
    expect(html).toContain('Jackpot');
    expect(html).toContain('action="/results/check"');
  });

  test('the home page links to /results: its results section, its FAQ answer and the footer', async () => {
    for (const lng of ['en', 'bn'] as const) {
      const html = shown((await page('/', lng).expect(200)).text);
      expect(html.match(/href="\/results"/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
      expect(html).toContain(lng === 'en' ? 'All results' : 'সব ফলাফল');
    }
  });

  test('/results in Bengali: Bengali names and digits', async () => {
    const html = shown((await page('/results', 'bn').expect(200)).text);
    expect(html).toContain('সাপ্তাহিক সংখ্যা');
    expect(html).toContain('ক্লাসিক শুক্রবার');
    expect(html).toContain('হাতে ড্র');
    expect(html).toContain('হাতে ড্র করা — যাচাই করা যায় না');
    expect(html).toContain('৩টি ড্র');
    expect(html).toContain('৫০,০০০');
  });

  test('/results searched, an empty search and a bad date', async () => {
    const found = shown((await page('/results?search=classic').expect(200)).text);
    expect(found).toContain('Classic Friday');
    expect(found).not.toContain('Weekly Numbers');
    expect(shown((await page('/results?search=nothing-like-it').expect(200)).text)).toContain('No drawn lottery matches your search.');
    const bad = shown((await page('/results?date=2025-13-01').expect(200)).text);
    expect(bad).toContain('Enter a date as YYYY-MM-DD, for example 2025-03-01.');
    const bnBad = shown((await page('/results?date=2025-13-01', 'bn').expect(200)).text);
    expect(bnBad).toContain('তারিখ YYYY-MM-DD আকারে লিখুন');
  });

  test('/results/check: a hit, a miss and a bad ticket, in both languages', async () => {
    const x = fourthPrizeTicket(numbers, new Set(sold));
    const hit = shown((await page(`/results/check?ticket=${x}`).expect(200)).text);
    expect(hit).toContain('Weekly Numbers');
    expect(hit).toContain('4th prize');
    expect(hit).toContain('would have won');
    const hitBn = shown((await page(`/results/check?ticket=${x}`, 'bn').expect(200)).text);
    expect(hitBn).toContain('সাপ্তাহিক সংখ্যা');
    const miss = manyTickets(200, 'miss').find((y) => tierOf(y, numbers) === null && !classicWinners.some((w) => w.ticket === y))!;
    expect(shown((await page(`/results/check?ticket=${miss}`).expect(200)).text)).toContain(
      'This ticket would not have won any past draw.',
    );
    const typed = x.split('-').reverse().slice(1).concat(x.split('-').slice(-1)).map(Number).join(', ');
    const anyOrder = shown((await page(`/results/check?ticket=${encodeURIComponent(typed)}`).expect(200)).text);
    expect(anyOrder).toContain('4th prize');
    expect(anyOrder).toContain(`value="${typed}"`);
    const bad = shown((await page('/results/check?ticket=1-2-3').expect(200)).text);
    expect(bad).toContain('Too few numbers: type the 5 main numbers, then the last number, 6 numbers in all.');
    const badBn = shown((await page('/results/check?ticket=1-2-3', 'bn').expect(200)).text);
    expect(badBn).toContain('সংখ্যা কম হয়েছে');
  });

  test('/results/check for a logged-in player: his own drawn tickets checked', async () => {
    const agent = await loginAs(t.url, player.phone, 'secret-pass-1');
    const html = shown((await agent.get('/results/check').expect(200)).text);
    expect(html).toContain('Your tickets');
    expect(html).toContain('Classic Friday');
    expect(html).toContain(`Won <span class="nowrap">TK. ${classicWinners[0]!.prize_money}</span>`);
    expect(html).toContain('Better luck next time.');
    const anonymous = shown((await page('/results/check').expect(200)).text);
    expect(anonymous).not.toContain('Your tickets');
  });
});
