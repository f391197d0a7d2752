/**
 * The charts of games (docs/rules/games.md#7-charts): `GET /api/v1/games/{id}/stats/` (staff: a draw's paid tickets per
 * Dhaka day and its jackpot at the end of each, what a drawn draw's prizes owe its winners) and
 * `GET /api/v1/results/frequency/` (anyone: how often each number was drawn in a game's published draws), their
 * figures checked against data put in the database; who may call them; and the pages that draw them — the game's
 * staff page and the results archive, in English and Bengali, as a browser without JavaScript gets them. On PGlite
 * and PostgreSQL.
 */
import request from 'supertest';
import { api } from '../../shared/api/contract.ts';
import { dhakaDateInputValue, formatDate, formatNumber } from '../../shared/dates.ts';
import { numbersOf } from '../../shared/draws/tiers.ts';
import { formatTaka } from '../../shared/money.ts';
import { roundTime } from '../../server/draws/verifiable.ts';
import { to } from '../helpers/call.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, pageAccount, type Account } from '../helpers/factories.ts';
import type { Agent } from '../helpers/session.ts';
import { clearGames, GAME_BODY } from './game-fixtures.ts';
import { dueOnRound, SIGNED } from './numbers-fixtures.ts';

let t: TestApp;
let staff: Account;
let player: Account;
let staffAgent: Agent;
let playerAgent: Agent;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Chart Officer', is_staff: true });
  player = await account(t, { name: 'Chart Player' });
  staffAgent = (await pageAccount(t, { name: 'Chart Page Officer', is_staff: true })).agent;
  playerAgent = (await pageAccount(t, { name: 'Chart Page Player' })).agent;
});
afterAll(() => t.close());
beforeEach(async () => {
  // Claims hang on the prizes that clearGames empties.
  await t.db.query('DELETE FROM prize_payouts');
  await t.db.query('DELETE FROM prize_claims');
  await clearGames(t);
});

async function newGame(extra: object = {}): Promise<number> {
  const res = await to(t, api.createGame, { as: staff }).send({ ...GAME_BODY, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as number;
}
const drawsOf = async (gameId: number) =>
  (await t.db.query<{ id: number }>('SELECT id FROM lotteries WHERE game_id = $1 ORDER BY draw_at', [gameId])).map((d) => d.id);
const stats = (id: number, who: Account | null = staff) => to(t, api.staffGameStats, { params: { id }, as: who });
const frequency = (query: Record<string, unknown> = {}, who: Account | null = null) => to(t, api.numberFrequency, { query, as: who });

/** The Dhaka day `n` days from today, `YYYY-MM-DD`. */
const dhakaDay = (n: number): string =>
  new Date(Date.parse(`${dhakaDateInputValue(new Date()) as string}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** That Dhaka day at that Dhaka time, as an instant. */
const dhakaAt = (day: string, time: string) => new Date(`${day}T${time}:00+06:00`).toISOString();

let ticketNo = 0;
/** A ticket no other purchase of the file has: 01-02-03-04 and a fifth main number, the last number counting on. */
const nextTicket = (): string => {
  const n = ticketNo++;
  return [1, 2, 3, 4, 5 + (n % 51), 1 + (Math.floor(n / 51) % 15)].map((x) => String(x).padStart(2, '0')).join('-');
};

/** A purchase of the player put straight in the database: its status, amount and time as told; its id. */
async function sale(lotteryId: number, at: string, o: { status?: string; amount?: number } = {}): Promise<number> {
  const ticket = nextTicket();
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status, created_at)
     VALUES ($1, $2, $3, $4, 'bkash', $5, $6) RETURNING id`,
    [player.id, lotteryId, ticket, o.amount ?? 100, o.status ?? 'success', at],
  );
  return row!.id;
}

/**
 * The game's draw `id` moved into the past, where a real drand round is (SIGNED): its sales closed, its draw's time
 * come, its seed SEED and its beacon that round's (numbers-fixtures.ts dueOnRound).
 */
const due = (id: number) => dueOnRound(t, id);

/** A draw marked drawn with these numbers, straight in the database; `published` its results (and the lottery). */
async function drawnWith(id: number, numbers: string, o: { results?: boolean; lottery?: boolean; daysAgo?: number } = {}) {
  await t.db.query(
    `UPDATE lotteries SET end_date = now() - make_interval(days => $2), draw_at = now() - make_interval(days => $2),
       start_date = now() - make_interval(days => $2 + 7), drawn_at = now() - make_interval(days => $2), is_result_published = $3, published = $4
     WHERE id = $1`,
    [id, o.daysAgo ?? 1, o.results ?? true, o.lottery ?? true],
  );
  await t.db.query('UPDATE draw_commitments SET numbers = $2 WHERE lottery_id = $1', [id, numbers]);
}

describe('GET /api/v1/games/{id}/stats/', () => {
  test("a draw's paid tickets per Dhaka day, days without a sale at 0, and its jackpot at the end of each day", async () => {
    const game = await newGame({ jackpot_share: 50 });
    const [first] = await drawsOf(game);
    // On sale since Dhaka midnight three days ago, with 1,001 taka rolled in.
    await t.db.query('UPDATE lotteries SET start_date = $2, rollover_in = 1001 WHERE id = $1', [first, dhakaAt(dhakaDay(-3), '00:00')]);
    // Three days ago: two at 00:30 Dhaka (still the day before in UTC) and one at 23:30 Dhaka; 33 taka each.
    await sale(first!, dhakaAt(dhakaDay(-3), '00:30'), { amount: 33 });
    await sale(first!, dhakaAt(dhakaDay(-3), '00:30'), { amount: 33 });
    await sale(first!, dhakaAt(dhakaDay(-3), '23:30'), { amount: 33 });
    // Yesterday: three paid, one pending and one failed, which are not sold.
    for (let i = 0; i < 3; i++) await sale(first!, dhakaAt(dhakaDay(-1), '12:00'), { amount: 33 });
    await sale(first!, dhakaAt(dhakaDay(-1), '13:00'), { status: 'pending' });
    await sale(first!, dhakaAt(dhakaDay(-1), '14:00'), { status: 'failed' });

    const res = await stats(game);
    expect(res.status).toBe(200);
    expect(res.body.game_id).toBe(game);
    const d = res.body.draws.find((x: { lottery_id: number }) => x.lottery_id === first);
    // ⌊99 × 50 / 100⌋ + 1,001 = 1,050 after the first day; ⌊198 × 50 / 100⌋ + 1,001 = 1,100 after the third.
    expect(d).toMatchObject({
      state: 'on_sale',
      tickets_sold: 6,
      jackpot: 1_100,
      tickets_before: 0,
      owed: null,
      days: [
        { date: dhakaDay(-3), tickets: 3, jackpot: 1_050 },
        { date: dhakaDay(-2), tickets: 0, jackpot: 1_050 },
        { date: dhakaDay(-1), tickets: 3, jackpot: 1_100 },
        { date: dhakaDay(0), tickets: 0, jackpot: 1_100 },
      ],
    });
    // A draw made today and not sold has today alone, at what rolled in.
    const [, second] = await drawsOf(game);
    expect(res.body.draws.find((x: { lottery_id: number }) => x.lottery_id === second).days).toEqual([
      { date: dhakaDay(0), tickets: 0, jackpot: 0 },
    ]);
  });

  test('a draw on sale longer than 62 days: its last 62 days, the tickets before them counted apart', async () => {
    const game = await newGame();
    const [first] = await drawsOf(game);
    await t.db.query('UPDATE lotteries SET start_date = $2 WHERE id = $1', [first, dhakaAt(dhakaDay(-99), '10:00')]);
    await sale(first!, dhakaAt(dhakaDay(-90), '10:00'));
    await sale(first!, dhakaAt(dhakaDay(-90), '11:00'));
    await sale(first!, dhakaAt(dhakaDay(-2), '11:00'));
    const d = (await stats(game)).body.draws.find((x: { lottery_id: number }) => x.lottery_id === first);
    expect(d.days).toHaveLength(62);
    expect(d.days[0].date).toBe(dhakaDay(-61));
    expect(d.days.at(-1).date).toBe(dhakaDay(0));
    expect(d.tickets_before).toBe(2);
    // The jackpot still counts every paid ticket: ⌊300 × 50 / 100⌋.
    expect(d.days[0].jackpot).toBe(100);
    expect(d.days.at(-1).jackpot).toBe(150);
  });

  test("a drawn draw's prizes: paid out, claimed and not yet paid, not claimed, and withheld, in exact taka", async () => {
    const game = await newGame();
    const [first] = await drawsOf(game);
    await due(first!);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);
    const prize = async (money: number, claim: string | null, withheld = false) => {
      const tx = await sale(first!, dhakaAt(dhakaDay(-1), '10:00'));
      const p = await t.db.one<{ id: number; ticket: string }>(
        `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money, withheld_at, withheld_reason)
         SELECT lottery_id, id, ticket, $2, CASE WHEN $3 THEN now() END, CASE WHEN $3 THEN 'A court order' END FROM transactions WHERE id = $1
         RETURNING id, ticket`,
        [tx, money, withheld],
      );
      if (claim)
        await t.db.query(`INSERT INTO prize_claims (prize_id, user_id, status, payment_method) VALUES ($1, $2, $3, 'bkash')`, [
          p!.id,
          player.id,
          claim,
        ]);
    };
    await prize(1_000, 'transfer_completed');
    await prize(500, 'payment_info_submitted');
    await prize(300, 'transfer_failed');
    await prize(7, 'pending');
    await prize(9_007_199_254_740, null);
    await prize(200, 'pending', true);
    const res = await stats(game);
    const d = res.body.draws.find((x: { lottery_id: number }) => x.lottery_id === first);
    expect(d.state).toBe('drawn');
    expect(d.owed).toEqual({ paid_out: 1_000, claimed: 807, unclaimed: 9_007_199_254_740, withheld: 200 });
    // The draws not drawn yet owe nothing yet.
    expect(res.body.draws.filter((x: { owed: unknown }) => x.owed === null)).toHaveLength(2);
  });

  test('the draws not drawn yet and the last 8 drawn, the latest first', async () => {
    const game = await newGame({ draws_ahead: 12 });
    const ids = await drawsOf(game);
    // The first nine drawn, a day apart, the ninth the latest.
    for (const [i, id] of ids.slice(0, 9).entries()) await drawnWith(id, '01-02-03-04-05-01', { daysAgo: 20 - i });
    const res = await stats(game);
    expect(res.status).toBe(200);
    const listed = res.body.draws.map((x: { lottery_id: number }) => x.lottery_id);
    expect(listed).toEqual([...ids.slice(9).reverse(), ...ids.slice(1, 9).reverse()]);
    expect(res.body.draws.filter((x: { state: string }) => x.state === 'drawn')).toHaveLength(8);
  });

  test('staff only: a visitor must log in, a player is refused; an unknown game is 404, and so is an id that is not one', async () => {
    const game = await newGame();
    expect((await stats(game, null)).status).toBe(401);
    const refused = await stats(game, player);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('permission_denied');
    expect((await stats(game)).status).toBe(200);
    const unknown = await stats(game + 1000);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const notAnId = await request(t.url)
      .get('/api/v1/games/abc/stats/')
      .set(...staff.auth);
    expect([notAnId.status, notAnId.body.code]).toEqual([404, 'not_found']);
  });
});

describe('GET /api/v1/results/frequency/', () => {
  test('how often each number was drawn in the draws with published results of each active game', async () => {
    const game = await newGame({ draws_ahead: 5 });
    const [first, second, third, fourth, fifth] = await drawsOf(game);
    // Drawn by the calendar, as a draw is.
    await due(first!);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);
    const drawn = (await t.db.one<{ numbers: string }>('SELECT numbers FROM draw_commitments WHERE lottery_id = $1', [first]))!.numbers;
    // Two more drawn; one whose results were taken back and one unpublished lottery do not count. Each on a day of
    // its own: a game has one draw at a time, and two `now()`s a moment apart can be the same instant on PGlite.
    await drawnWith(second!, '01-02-03-04-05-01', { daysAgo: 3 });
    await drawnWith(third!, '01-12-23-34-55-15', { daysAgo: 2 });
    await drawnWith(fourth!, '10-20-30-40-50-10', { results: false, daysAgo: 1 });
    await drawnWith(fifth!, '11-21-31-41-51-11', { lottery: false, daysAgo: 4 });
    // A paused game with a drawn draw, and an active one never drawn: neither is listed.
    const paused = await newGame({ name: 'Padma Lotto', name_bn: 'পদ্মা লোটো' });
    const [pausedDraw] = await drawsOf(paused);
    await drawnWith(pausedDraw!, '06-07-08-09-10-02');
    await to(t, api.updateGame, { params: { id: paused }, as: staff })
      .send({ active: false })
      .expect(200);
    await newGame({ name: 'Meghna Lotto' });

    const res = await frequency();
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [f] = res.body;
    expect(f.game).toEqual({ id: game, name: 'Bhagya Lotto', name_bn: 'ভাগ্য লোটো' });
    expect(f.draws).toBe(3);
    const main = Array<number>(55).fill(0);
    const last = Array<number>(15).fill(0);
    for (const n of [numbersOf(drawn)!, [1, 2, 3, 4, 5, 1], [1, 12, 23, 34, 55, 15]]) {
      for (const m of n.slice(0, 5)) main[m - 1]! += 1;
      last[n[5]! - 1]! += 1;
    }
    expect(f.main).toEqual(main);
    expect(f.last).toEqual(last);
    expect(f.main.reduce((a: number, b: number) => a + b, 0)).toBe(15);
    expect(f.last.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    // The latest counted: the calendar's draw was drawn just now.
    const drawnAt = (await t.db.one<{ drawn_at: string }>('SELECT drawn_at FROM lotteries WHERE id = $1', [first]))!.drawn_at;
    expect(Date.parse(f.last_drawn_at)).toBe(Date.parse(drawnAt));

    // One game asked for: a paused one too; a game never drawn has zeros.
    const one = await frequency({ game: paused });
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    expect(one.body[0]).toMatchObject({ draws: 1, game: { id: paused, name: 'Padma Lotto' } });
    expect(one.body[0].main.slice(5, 10)).toEqual([1, 1, 1, 1, 1]);
    expect(one.body[0].last[1]).toBe(1);
  });

  test('anyone may read it, a visitor, a player and staff alike; an unknown game is 404, a bad one 400', async () => {
    const game = await newGame();
    const [first] = await drawsOf(game);
    await drawnWith(first!, '01-02-03-04-05-01');
    for (const who of [null, player, staff]) {
      const res = await frequency({}, who);
      expect(res.status).toBe(200);
      expect(res.body.map((f: { game: { id: number } }) => f.game.id)).toEqual([game]);
    }
    const unknown = await frequency({ game: game + 1000 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await frequency({ game: 'abc' })).status).toBe(400);
    expect((await frequency({ other: 1 })).status).toBe(400);
    // No game with a drawn draw: nothing.
    await clearGames(t);
    expect((await frequency()).body).toEqual([]);
  });
});

// ---- The pages ----------------------------------------------------------------------------------------------------

/** The `<figure>` of the chart whose SVG has this id. */
function figure(html: string, id: string): string {
  const at = html.indexOf(`id="${id}-title"`);
  expect(at).toBeGreaterThan(-1);
  const start = html.lastIndexOf('<figure', at);
  return html.slice(start, html.indexOf('</figure>', at) + '</figure>'.length);
}
/** The rows of a figure's table: each row's header and values as text. */
const rows = (html: string): string[][] =>
  [...html.slice(html.indexOf('<tbody>')).matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...(r[1] as string).matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => (c[1] as string).replace(/<[^>]+>/g, '')),
  );
const count = (html: string, needle: string) => html.split(needle).length - 1;
const unescape = (s: string) => s.replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&');

describe("the game's staff page", () => {
  async function gameWithSales(): Promise<{ game: number; first: number; second: number }> {
    const game = await newGame();
    const [first, second] = await drawsOf(game);
    await t.db.query('UPDATE lotteries SET start_date = $2 WHERE id = $1', [first, dhakaAt(dhakaDay(-2), '09:00')]);
    await sale(first!, dhakaAt(dhakaDay(-2), '10:00'));
    await sale(first!, dhakaAt(dhakaDay(-1), '10:00'));
    await sale(first!, dhakaAt(dhakaDay(-1), '11:00'));
    return { game, first: first!, second: second! };
  }

  test.each(['en', 'bn'] as const)('charts the next draw on sale and its jackpot, with their figures in tables (%s)', async (lng) => {
    const { game, first } = await gameWithSales();
    const html = (await staffAgent.get(`/admin/games/${game}`).set('Cookie', `lang=${lng}`).expect(200)).text;
    const sales = figure(html, 'chart-sales');
    expect(sales).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="chart-sales-title"/);
    expect(sales).toContain(lng === 'en' ? 'Tickets sold per day' : 'প্রতিদিন বিক্রি হওয়া টিকিট');
    expect(count(sales, 'class="chart__bar ')).toBe(3);
    const day = (n: number) => formatDate(dhakaDay(n), lng) as string;
    expect(rows(sales)).toEqual([
      [day(-2), formatNumber(1, lng)],
      [day(-1), formatNumber(2, lng)],
      [day(0), formatNumber(0, lng)],
    ]);
    const jackpot = figure(html, 'chart-jackpot');
    expect(rows(jackpot).map((r) => r[1])).toEqual([50, 150, 150].map((n) => formatTaka(n, lng)));
    if (lng === 'bn') for (const text of [...sales.matchAll(/<text[^>]*>([^<]*)</g)].map((m) => m[1])) expect(text).not.toMatch(/[0-9]/);
    // The draw chosen: the next one on sale, in the form that chooses another.
    expect(html).toMatch(new RegExp(`<option value="${first}" selected=""`));
    // Nothing drawn yet: no money owed.
    expect(unescape(html)).toContain(lng === 'en' ? 'No draw of this game has been drawn yet.' : 'এই গেমের কোনো ড্র এখনো হয়নি।');
  });

  test('?draw= charts another draw; a drawn draw shows the money its winners are owed', async () => {
    const { game, second } = await gameWithSales();
    const other = (await staffAgent.get(`/admin/games/${game}?draw=${second}`).expect(200)).text;
    expect(other).toMatch(new RegExp(`<option value="${second}" selected=""`));
    expect(unescape(other)).toContain('No ticket of this draw has been sold yet.');

    // The third draw, which sold nothing, drawn; then a prize of its put in by hand.
    const [, , third] = await drawsOf(game);
    await due(third!);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);
    const tx = await sale(third!, dhakaAt(dhakaDay(-1), '10:00'));
    await t.db.query(
      `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) SELECT lottery_id, id, ticket, 100000 FROM transactions WHERE id = $1`,
      [tx],
    );
    for (const lng of ['en', 'bn'] as const) {
      const html = (await staffAgent.get(`/admin/games/${game}`).set('Cookie', `lang=${lng}`).expect(200)).text;
      const owed = figure(html, 'chart-owed');
      expect(count(owed, 'class="chart__bar ')).toBe(4);
      const zero = formatTaka(0, lng);
      const lakh = formatTaka(100_000, lng);
      expect(rows(owed)).toEqual([[formatDate(roundTime(SIGNED.round - 1), lng), zero, zero, lakh, zero, lakh]]);
      expect(owed).toContain(lng === 'en' ? 'Not claimed' : 'দাবি করা হয়নি');
    }
  });

  test('a player and a visitor are sent to log in', async () => {
    const game = await newGame();
    const path = `/admin/games/${game}?draw=1`;
    const login = `/login?from=${encodeURIComponent(path)}`;
    expect((await playerAgent.get(path).redirects(0)).headers.location).toBe(login);
    expect((await request(t.url).get(path).redirects(0)).headers.location).toBe(login);
  });
});

describe('the results archive', () => {
  test.each(['en', 'bn'] as const)('charts how often each number was drawn, per active game, with tables (%s)', async (lng) => {
    const game = await newGame();
    const [first, second] = await drawsOf(game);
    await drawnWith(first!, '01-02-03-04-05-01', { daysAgo: 3 });
    await drawnWith(second!, '01-12-23-34-55-15', { daysAgo: 2 });
    const html = (await request(t.url).get('/results').set('Cookie', `lang=${lng}`).expect(200)).text;
    const text = unescape(html);
    expect(text).toContain(lng === 'en' ? 'How often each number was drawn' : 'কোন সংখ্যা কতবার ড্র-তে উঠেছে');
    expect(text).toContain(lng === 'en' ? 'Bhagya Lotto · 2 draws' : 'ভাগ্য লোটো · ২টি ড্র');
    const main = figure(html, `frequency-${game}-main`);
    // One row of 55 bars for a wide screen, three rows for a phone; one table.
    expect(count(main, 'class="chart__bar ')).toBe(110);
    const mainRows = rows(main);
    expect(mainRows).toHaveLength(55);
    expect(mainRows[0]).toEqual([formatNumber(1, lng), formatNumber(2, lng)]);
    expect(mainRows[11]).toEqual([formatNumber(12, lng), formatNumber(1, lng)]);
    expect(mainRows[5]).toEqual([formatNumber(6, lng), formatNumber(0, lng)]);
    expect(mainRows[54]).toEqual([formatNumber(55, lng), formatNumber(1, lng)]);
    const last = figure(html, `frequency-${game}-last`);
    expect(count(last, 'class="chart__bar ')).toBe(15);
    expect(rows(last).map((r) => r[1])).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1].map((n) => formatNumber(n, lng)));
    // Drawn most: 1, in both draws.
    expect(main).toContain(
      lng === 'en' ? 'Drawn most often, 2 times: 1.' : `সবচেয়ে বেশিবার, ${formatNumber(2, 'bn')} বার উঠেছে: ${formatNumber(1, 'bn')}।`,
    );
    if (lng === 'bn') for (const x of [...main.matchAll(/<text[^>]*>([^<]*)</g)].map((m) => m[1])) expect(x).not.toMatch(/[0-9]/);
  });

  test('no game drawn yet: no such section', async () => {
    await newGame();
    const html = (await request(t.url).get('/results').expect(200)).text;
    expect(html).not.toContain('id="frequency-title"');
    expect(html).not.toContain('class="chart');
  });
});
