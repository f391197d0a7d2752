/**
 * A lottery card says where its draw stands (docs/rules/draws.md#12-where-it-stands): "Unverified beacon" when the
 * beacon value has no drand signature or is a sample (decision 046, the proof page's rule), and once the tickets froze
 * at the close (decision 045) "Tickets frozen: n tickets, T = …". The lists' API answers carry it (`beacon_unverified`,
 * `frozen`), read in the list's own statement; the home page's cards and /all-lotteries show it, in both languages.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, insertLottery } from './purchase-fixtures.ts';

let t: TestApp;
let unsigned: number, sample: number, signed: number, frozen: number, plain: number, drawn: number;

const hex = (c: string) => c.repeat(64);
const DIGEST = `abcdef12${'3'.repeat(56)}`;

/** The lottery's announced draw, its beacon value given as `beacon` says (no value, typed without signature, a sample, signed). */
async function announce(lottery: number, beacon: 'none' | 'unsigned' | 'sample' | 'signed') {
  await t.db.query('DELETE FROM draw_commitments WHERE lottery_id = $1', [lottery]);
  await t.db.query(
    `INSERT INTO draw_commitments (lottery_id, seed, commitment, beacon_source, beacon_round, beacon_value, beacon_signature, beacon_sample)
     VALUES ($1, $2, $3, 'drand-quicknet', 1000, $4, $5, $6)`,
    [
      lottery,
      hex('1'),
      hex('2'),
      beacon === 'none' ? null : hex('4'),
      beacon === 'signed' || beacon === 'sample' ? 'b'.repeat(96) : null,
      beacon === 'sample',
    ],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  // Ordered by their end of sales on the list: all open, so each is a card on the first page.
  unsigned = await insertLottery(t, { name: 'Typed Beacon Draw', end: 2 });
  sample = await insertLottery(t, { name: 'Sample Beacon Draw', end: 3 });
  signed = await insertLottery(t, { name: 'Signed Beacon Draw', end: 4 });
  frozen = await insertLottery(t, { name: 'Frozen Draw', end: 5 });
  plain = await insertLottery(t, { name: 'Plain Draw', end: 6 });
  await announce(unsigned, 'unsigned');
  await announce(sample, 'sample');
  await announce(signed, 'signed');
  await announce(frozen, 'none');
  // A drawn lottery with its results out (a demo sample's beacon) and its tickets frozen: the result cards say both.
  drawn = await insertLottery(t, { name: 'Drawn Sample Draw', start: -9, end: -2, results: true });
  await announce(drawn, 'sample');
  // A recorded freeze (the job's row): a card shows it whatever the clock says.
  for (const id of [frozen, drawn]) {
    await t.db.query(`INSERT INTO ticket_freezes (lottery_id, frozen_at, tickets_digest, tickets_count) VALUES ($1, now(), $2, 1234)`, [
      id,
      DIGEST,
    ]);
  }
});
afterAll(async () => {
  await t.close();
});

type Card = { id: number; beacon_unverified: boolean; frozen: { tickets: number; tickets_digest: string } | null };
const pick = (list: Card[], id: number) => {
  const c = list.find((l) => l.id === id);
  return c ? { beacon_unverified: c.beacon_unverified, frozen: c.frozen } : undefined;
};

describe('the API carries the card’s proof state', () => {
  test('the published list, the featured list and one lottery: unverified only without a valid signature or for a sample', async () => {
    await t.db.query('UPDATE lotteries SET featured = true WHERE id = ANY($1::bigint[])', [[unsigned, frozen]]);
    const list = (await to(t, api.publishedLotteries, { query: { limit: 100 } }).expect(200)).body as { results?: Card[] } | Card[];
    const items = Array.isArray(list) ? list : (list.results ?? []);
    expect(pick(items, unsigned)).toEqual({ beacon_unverified: true, frozen: null });
    expect(pick(items, sample)).toEqual({ beacon_unverified: true, frozen: null });
    expect(pick(items, signed)).toEqual({ beacon_unverified: false, frozen: null });
    expect(pick(items, frozen)).toEqual({ beacon_unverified: false, frozen: { tickets: 1234, tickets_digest: DIGEST } });
    expect(pick(items, plain)).toEqual({ beacon_unverified: false, frozen: null });

    const featured = (await to(t, api.featuredLotteries).expect(200)).body as Card[];
    expect(pick(featured, unsigned)).toEqual({ beacon_unverified: true, frozen: null });
    const one = (await to(t, api.getLottery, { params: { id: frozen } }).expect(200)).body as Card;
    expect(pick([one], frozen)).toEqual({ beacon_unverified: false, frozen: { tickets: 1234, tickets_digest: DIGEST } });
  });

  test('staff’s list of lotteries carries it too', async () => {
    const staff = await account(t, { is_staff: true });
    const res = await to(t, api.staffLotteries, { query: { limit: 100 }, as: staff });
    expect(res.status).toBe(200);
    const items = (Array.isArray(res.body) ? res.body : res.body.results) as Card[];
    expect(pick(items, unsigned)).toEqual({ beacon_unverified: true, frozen: null });
    expect(pick(items, frozen)).toEqual({ beacon_unverified: false, frozen: { tickets: 1234, tickets_digest: DIGEST } });
  });
});

/** The card of the lottery named `name` in the page: from its title to the end of its <article>. */
function cardOf(html: string, name: string): string {
  const at = html.indexOf(`class="lottery-card__name">${name}<`);
  if (at < 0) throw new Error(`no card named ${name}`);
  const start = html.lastIndexOf('<article', at);
  return html.slice(start, html.indexOf('</article>', at));
}

const TEXT = {
  en: { unverified: 'Unverified beacon', frozen: 'Tickets frozen: 1,234 tickets, T = <code>abcdef12…</code>' },
  bn: { unverified: 'অযাচাইকৃত বিকন', frozen: 'টিকিট চূড়ান্ত: ১,২৩৪টি টিকিট, T = <code>abcdef12…</code>' },
} as const;

describe.each(['en', 'bn'] as const)('the cards in %s', (lng) => {
  test.each(['/all-lotteries', '/'])('%s', async (path) => {
    // The home page shows the first three: the two with something to say are among them.
    const res = await request(t.url).get(path).set('Cookie', `lang=${lng}`).expect(200);
    const typed = cardOf(res.text, 'Typed Beacon Draw');
    expect(typed).toContain(TEXT[lng].unverified);
    expect(typed).not.toContain(TEXT[lng].frozen);
    const sampleCard = cardOf(res.text, 'Sample Beacon Draw');
    expect(sampleCard).toContain(TEXT[lng].unverified);
    const signedCard = cardOf(res.text, 'Signed Beacon Draw');
    expect(signedCard).not.toContain(TEXT[lng].unverified);
    if (path === '/all-lotteries') {
      const frozenCard = cardOf(res.text, 'Frozen Draw');
      expect(frozenCard).toContain(TEXT[lng].frozen);
      expect(frozenCard).not.toContain(TEXT[lng].unverified);
      const plainCard = cardOf(res.text, 'Plain Draw');
      expect(plainCard).not.toContain(TEXT[lng].unverified);
      expect(plainCard).not.toMatch(/T = /);
    }
  });
});

/** The result card of the lottery named `name`: from its title to the end of its card. */
function resultCardOf(html: string, name: string, end: string): string {
  const at = html.indexOf(`${name}<`);
  if (at < 0) throw new Error(`no result card named ${name}`);
  return html.slice(at, html.indexOf(end, at));
}

describe('the result cards', () => {
  test('the API of the latest results and of the archive carries where the draw stands', async () => {
    const latest = (await to(t, api.lotteryResults).expect(200)).body as { lottery: Card }[];
    expect(
      pick(
        latest.map((r) => r.lottery),
        drawn,
      ),
    ).toEqual({ beacon_unverified: true, frozen: { tickets: 1234, tickets_digest: DIGEST } });
    const archive = (await to(t, api.resultsArchive).expect(200)).body as (Card & { lottery: { id: number } })[];
    const r = archive.find((a) => a.lottery.id === drawn);
    expect(r && { beacon_unverified: r.beacon_unverified, frozen: r.frozen }).toEqual({
      beacon_unverified: true,
      frozen: { tickets: 1234, tickets_digest: DIGEST },
    });
  });

  test.each(['en', 'bn'] as const)('the home page’s results and /results show it, in %s', async (lng) => {
    const home = await request(t.url).get('/').set('Cookie', `lang=${lng}`).expect(200);
    const onHome = resultCardOf(home.text, 'Drawn Sample Draw', '</li>');
    expect(onHome).toContain(TEXT[lng].unverified);
    expect(onHome).toContain(TEXT[lng].frozen);
    const archive = await request(t.url).get('/results').set('Cookie', `lang=${lng}`).expect(200);
    const inArchive = resultCardOf(archive.text, 'Drawn Sample Draw', '</article>');
    expect(inArchive).toContain(TEXT[lng].unverified);
    expect(inArchive).toContain(TEXT[lng].frozen);
  });
});
