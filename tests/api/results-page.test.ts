/**
 * The public proof page of a draw, /results/{id} (docs/rules/draws.md#9-the-proof, docs/rules/pages.md#2-who-may-open-which-page):
 * anyone, in English and Bengali, before the draw (the commitment and the beacon round, never the seed), after a draw by
 * the procedure (the winners, the revealed seed, the beacon, T, the command to check it) and after a draw by staff (says
 * it cannot be checked); an unpublished or unknown lottery is not found, for staff too. The links to it from the lottery
 * cards and the home page's results. A numbers draw and a sample beacon are rendered from a stubbed loader. On PGlite
 * and PostgreSQL.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import request from 'supertest';
import { loadResources } from '../../server/i18n.ts';
import { freezeDue } from '../../server/draws/freeze-job.ts';
import { selectWinners, ticketsDigest } from '../../server/draws/verifiable.ts';
import { toDigits } from '../../shared/dates.ts';
import { I18nProvider } from '../../views/i18n.tsx';
import { Component, proofView, drandRoundUrl } from '../../views/results/draw.tsx';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';
import { storedCommitment } from '../helpers/sealed.ts';
import { loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let staff: Player;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Proof Staff', is_staff: true });
  player = await account(t, { name: 'Proof Player' });
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of ['audit_log', 'prizes', 'transactions', 'lotteries', 'rate_limits']) await t.db.query(`DELETE FROM ${table}`);
});

const DAY = 24 * 3600 * 1000;
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
/** A real drand quicknet beacon: staff paste its signature, the value is its randomness. */
const SIGNED = REAL_BEACONS[1];
const BEACON = SIGNED.randomness;
const TICKETS = ['05-12-23-34-45-07', '01-02-03-04-05-06', '13-21-34-40-51-01', '03-07-19-41-52-11'];

/** What a page shows: its HTML without its scripts (the hydration data carries the page's texts, every one of them). */
const shown = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');

/** The page as a visitor who chose `lng` sees it (the language cookie). */
const page = (id: number | string, lng: 'en' | 'bn' = 'en') => request(t.url).get(`/results/${id}`).set('Cookie', `lang=${lng}`);

const create = async (extra: object = {}): Promise<number> => {
  const res = await to(t, api.createLottery, { as: staff }).send({
    name: 'Proof Weekly',
    name_bn: 'প্রমাণ সাপ্তাহিক',
    winners: 2,
    ticket_price: 100,
    total_prize: 50000,
    start_date: day(-1),
    end_date: day(6),
    published: true,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const stored = async (id: number) => (await storedCommitment(t, id))!;

/**
 * A published lottery with these paid tickets, its sales ended an hour ago and its round SIGNED's (a real round, long
 * past, whose signature the test has: only drand's signed value draws).
 */
async function ended(tickets: string[]): Promise<number> {
  const id = await create();
  for (const [i, ticket] of tickets.entries())
    await t.db.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, trx_id, status) VALUES ($1, $2, $3, 100, 'bkash', $4, 'success')`,
      [player.id, id, ticket, `RPG${id}X${i}ABCD`],
    );
  await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 hour' WHERE id = $1`, [id]);
  await t.db.query('UPDATE draw_commitments SET beacon_round = $2 WHERE lottery_id = $1', [id, SIGNED.round]);
  return id;
}

test('before the draw: the commitment, the beacon round and its time, why nobody can steer it; never the seed', async () => {
  const id = await create();
  const c = await stored(id);
  const en = await page(id, 'en').expect(200);
  expect(en.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(en.text).toContain('Proof Weekly');
  expect(en.text).toContain('This draw will be checkable');
  expect(en.text).toContain(c.commitment);
  expect(en.text).toContain(String(c.beacon_round));
  expect(en.text).toContain('drand quicknet');
  expect(en.text).toContain('Why nobody can steer it');
  expect(en.text).toContain('Not known yet');
  expect(en.text).toContain(`/api/v1/lotteries/${id}/draw-proof/`);
  expect(en.text).not.toContain(c.seed);

  const bn = await page(id, 'bn').expect(200);
  expect(bn.text).toContain('প্রমাণ সাপ্তাহিক');
  expect(bn.text).toContain('এই ড্র যাচাই করা যাবে');
  expect(bn.text).toContain(c.commitment);
  expect(bn.text).toContain(toDigits(String(c.beacon_round), 'bn'));
  expect(bn.text).not.toContain(c.seed);

  // Anyone: a logged-in player sees the same page.
  const agent = await loginAs(t.url, player.phone, 'secret-pass-1');
  const asPlayer = await agent.get(`/results/${id}`).expect(200);
  expect(asPlayer.text).toContain(c.commitment);
  expect(asPlayer.text).not.toContain(c.seed);
});

test('the tickets frozen at the close are shown at once, before the draw: their count and digest T, in both languages', async () => {
  const id = await ended(TICKETS);
  const before = shown((await page(id, 'en').expect(200)).text);
  expect(before).not.toContain('Tickets in the draw, frozen');
  expect(await freezeDue(t.db)).toBe(1);
  const digest = ticketsDigest(TICKETS);
  const en = shown((await page(id, 'en').expect(200)).text);
  expect(en).toContain('Tickets in the draw, frozen');
  expect(en).toMatch(/Frozen at <!-- -->.*: 4 tickets, digest|Frozen at .*: 4 tickets, digest/);
  expect(en).toContain(digest);
  const bn = shown((await page(id, 'bn').expect(200)).text);
  expect(bn).toContain('ড্র-এর টিকিট, চূড়ান্ত');
  expect(bn).toContain('৪টি টিকিট');
  expect(bn).toContain(digest);
});

test('a drawn lottery: winners in the order drawn, the seed, the beacon, T, the command to check it; the seed only after the draw', async () => {
  const id = await ended(TICKETS);
  const c = await stored(id);
  await to(t, api.setDrawBeacon, { params: { id: id }, as: staff })
    .send({ signature: SIGNED.signature })
    .expect(200);
  // The beacon value is public once known; the seed still is not.
  const before = await page(id).expect(200);
  expect(before.text).toContain(BEACON);
  expect(before.text).toContain('This draw will be checkable');
  expect(before.text).not.toContain(c.seed);

  await to(t, api.verifiableDraw, { params: { id: id }, as: staff }).expect(201);
  const expected = selectWinners({ seed: c.seed, tickets: TICKETS, beacon: BEACON, winners: 2 });

  const en = await page(id, 'en').expect(200);
  expect(en.text).toContain(c.seed);
  expect(en.text).toContain(c.commitment);
  expect(en.text).toContain(BEACON);
  expect(en.text).toContain(expected.tickets_digest);
  expect(en.text).toContain(drandRoundUrl(Number(c.beacon_round)));
  expect(en.text).toContain(`npm run verify-draw -- ${t.url} ${id}`);
  expect(en.text).toContain('How to check it yourself');
  expect(shown(en.text)).not.toContain('Sample beacon value');
  expect(en.text).toContain(SIGNED.signature);
  expect(shown(en.text)).not.toContain('Unverified beacon');
  // The winners, in the order drawn (each ball row names its ticket once for screen readers).
  const winners = [...en.text.matchAll(/Winning ticket: (\d\d(?:-\d\d){5})/g)].map((m) => m[1]);
  expect(winners).toEqual(expected.winners);
  // The ticket list itself stays in the JSON proof: a ticket that did not win is not on the page.
  const loser = TICKETS.find((x) => !expected.winners.includes(x))!;
  expect(en.text).not.toContain(loser);

  const bn = await page(id, 'bn').expect(200);
  expect(bn.text).toContain(c.seed);
  expect(bn.text).toContain('নিজে কীভাবে যাচাই করবেন');
  expect(bn.text).toContain(toDigits(expected.winners[0]!, 'bn'));
});

test('a lottery drawn by staff: a clear notice that it cannot be checked, its commitment, never its seed', async () => {
  const id = await create();
  const c = await stored(id);
  await t.db.query('UPDATE lotteries SET drawn_at = now(), is_result_published = true WHERE id = $1', [id]);
  const en = await page(id, 'en').expect(200);
  expect(en.text).toContain('This draw cannot be checked');
  expect(en.text).toContain('chosen by staff');
  expect(en.text).toContain(c.commitment);
  expect(en.text).not.toContain(c.seed);
  expect(shown(en.text)).not.toContain('How to check it yourself');
  const bn = await page(id, 'bn').expect(200);
  expect(bn.text).toContain('এই ড্র যাচাই করা যায় না');
  expect(bn.text).not.toContain(c.seed);
});

test('an unpublished, unknown or malformed lottery is not found, in both languages and for staff too', async () => {
  const hidden = await create({ published: false });
  for (const lng of ['en', 'bn'] as const) {
    for (const id of [hidden, 999999, 'abc', '0']) {
      const res = await page(id, lng);
      expect({ id, lng, status: res.status }).toEqual({ id, lng, status: 404 });
    }
  }
  expect((await page(hidden, 'bn')).text).toContain('পাতা');
  const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
  expect((await agent.get(`/results/${hidden}`)).status).toBe(404);
});

test('the lottery cards link to the proof with the commitment; the home page results link to it', async () => {
  const open = await create({ featured: true });
  const c = await stored(open);
  const list = await request(t.url).get('/all-lotteries').set('Cookie', 'lang=en').expect(200);
  expect(list.text).toContain(`href="/results/${open}"`);
  expect(list.text).toContain(`${c.commitment.slice(0, 8)}…`);
  expect(list.text).toContain('Checkable draw');
  // Only its start on the card, to keep the card tidy on a phone.
  expect(shown(list.text)).not.toContain(c.commitment.slice(0, 20));
  const listBn = await request(t.url).get('/all-lotteries').set('Cookie', 'lang=bn').expect(200);
  expect(listBn.text).toContain('যাচাইযোগ্য ড্র');

  const drawn = await ended(TICKETS);
  await to(t, api.setDrawBeacon, { params: { id: drawn }, as: staff })
    .send({ signature: SIGNED.signature })
    .expect(200);
  await to(t, api.verifiableDraw, { params: { id: drawn }, as: staff }).expect(201);
  const home = await request(t.url).get('/').set('Cookie', 'lang=en').expect(200);
  expect(home.text).toContain(`href="/results/${drawn}"`);
  expect(home.text).toContain('How this draw was made');
  const homeBn = await request(t.url).get('/').set('Cookie', 'lang=bn').expect(200);
  expect(homeBn.text).toContain('এই ড্র কীভাবে হয়েছে');
});

describe('the page from a stubbed loader', () => {
  const resources = loadResources();
  const render = (lng: 'en' | 'bn', proof: Parameters<typeof proofView>[0]) => {
    const Stub = createRoutesStub([{ id: 'proof', path: '/results/:lotteryId', Component }]);
    const loaderData = {
      proof: {
        texts: resources[lng]!.results as Record<string, unknown>,
        lottery: { id: 7, name: 'Numbers Night', name_bn: 'সংখ্যার রাত', end_date: '2025-06-01T14:00:00.000Z' },
        proof: proofView(proof),
        origin: 'https://bhagya.example',
        json: '/api/v1/lotteries/7/draw-proof/',
        now: Date.parse('2025-06-02T00:00:00Z'),
      },
    };
    return renderToString(
      createElement(I18nProvider, {
        language: lng,
        resources: resources[lng] as Record<string, Record<string, unknown>>,
        children: createElement(Stub, { initialEntries: ['/results/7'], hydrationData: { loaderData } }),
      }),
    );
  };
  const drawn = {
    algorithm: 'bhagya-draw-v1' as const,
    commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
    seed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    beacon: {
      source: 'drand-quicknet' as const,
      round: 18661013,
      value: '3fe0d128bbe7e5d8a03493796251e775c7f3dd329f1a9f40430192fbed05c16a',
      sample: true,
    },
    tickets_digest: 'eb363de435a49995ecbacb5bd92254485e7942170434b0bf7345c5280ee1e0ce',
    tickets: ['02-09-18-27-55-15', '03-07-19-41-52-11', '05-12-23-34-45-07', '13-21-34-40-51-01'],
  };

  test('a numbers draw shows its numbers as balls (main ascending, then the last), and a sample beacon says so', () => {
    const html = render('en', { ...drawn, numbers: [30, 35, 43, 44, 52, 7] });
    expect(html).not.toContain('signature of the round');
    expect(html).toContain('Numbers drawn: 30-35-43-44-52-07');
    expect(html).toContain('Sample beacon value (demo data), not drand&#x27;s.');
    // A sample is an unverified beacon: the header and the beacon say so.
    expect(html.match(/Unverified beacon/g)).toHaveLength(2);
    expect(html).toContain('https://bhagya.example 7');
    expect(html).toContain('&quot;main:&quot;');
    const bn = render('bn', { ...drawn, numbers: [30, 35, 43, 44, 52, 7] });
    expect(bn).toContain(`ড্র-তে ওঠা সংখ্যা: ${toDigits('30-35-43-44-52-07', 'bn')}`);
    expect(bn).toContain('নমুনা বিকন মান');
    expect(bn).toContain('অযাচাইকৃত বিকন');
    // Bengali numbers: the count of tickets and the round in Bengali digits.
    expect(bn).toContain(toDigits('18661013', 'bn'));
  });

  test('a beacon with drand’s signature shows it', () => {
    const signature = 'a'.repeat(96);
    const html = render('bn', { ...drawn, beacon: { ...drawn.beacon, sample: false, signature }, max_winners: 1, winners: [] });
    expect(html).toContain('রাউন্ডটির জন্য drand-এর স্বাক্ষর');
    expect(html).toContain(signature);
    expect(html).toContain('কোনো টিকিট ড্র হয়নি।');
    expect(html).not.toContain('নমুনা বিকন মান');
    expect(html).not.toContain('অযাচাইকৃত বিকন');
  });

  test('a value typed without drand’s signature (before it was required) is an unverified beacon, drawn or not', () => {
    const typed = { ...drawn.beacon, sample: false };
    for (const [lng, label, hint] of [
      ['en', 'Unverified beacon', 'typed by hand without drand&#x27;s signature'],
      ['bn', 'অযাচাইকৃত বিকন', 'drand-এর স্বাক্ষর ছাড়া হাতে লেখা হয়েছে'],
    ] as const) {
      const html = render(lng, { ...drawn, beacon: typed, max_winners: 1, winners: [] });
      expect(html.match(new RegExp(label, 'g'))).toHaveLength(2);
      expect(html).toContain(hint);
      const pending = render(lng, { algorithm: 'bhagya-draw-v1', commitment: drawn.commitment, beacon: { ...typed, sample: undefined } });
      expect(pending).toContain(label);
      // Before its value is known, a beacon is nothing to doubt yet.
      const waiting = render(lng, {
        algorithm: 'bhagya-draw-v1',
        commitment: drawn.commitment,
        beacon: { source: 'drand-quicknet', round: 5 },
      });
      expect(waiting).not.toContain(label);
    }
  });

  test('the view keeps only the count of the tickets, never their list', () => {
    const v = proofView({ ...drawn, max_winners: 2, winners: ['05-12-23-34-45-07'] });
    expect(v).toMatchObject({ kind: 'drawn', tickets: 4, winners: ['05-12-23-34-45-07'], maxWinners: 2, numbers: null });
    expect(JSON.stringify(v)).not.toContain('02-09-18-27-55-15');
    expect(
      proofView({ algorithm: 'bhagya-draw-v1', commitment: drawn.commitment, beacon: { source: 'drand-quicknet', round: 5 } }),
    ).toEqual({
      kind: 'pending',
      commitment: drawn.commitment,
      beacon: { round: 5, value: null, signature: null, sample: false },
      frozen: null,
    });
  });
});
