/**
 * Games on a calendar (docs/rules/games.md, docs/decisions/077-games-on-a-calendar.md): staff define a numbers game
 * and its calendar; the server keeps its next draws on sale, draws each one by the procedure once its time and its
 * beacon have come, publishes the results, and rolls an unwon jackpot into the game's next draw — each once, however
 * many runs go at once. On PGlite and PostgreSQL.
 */
import { api } from '../../shared/api/contract.ts';
import { luckyCode, selectLucky, sortedTickets, ticketsDigest, verifyProof } from '../../server/draws/verifiable.ts';
import { tierOf } from '../../shared/draws/tiers.ts';
import { toDigits } from '../../shared/dates.ts';
import { verifyDraw } from '../helpers/verify-draw.ts';
import { to } from '../helpers/call.ts';
import { clearGames, GAME_BODY } from './game-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, type Player } from './purchase-fixtures.ts';
import { dueOnRound, fixSeed, numbersWith, SEED, seedNumber, sellMany, SIGNED } from './numbers-fixtures.ts';

let t: TestApp;
let staff: Player;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Game Staff', is_staff: true });
  player = await account(t, { name: 'Game Player' });
});
afterAll(() => t.close());
beforeEach(() => clearGames(t));

const GAME = GAME_BODY;

const create = (body: object, who: Player | null = staff, lang = 'en') => to(t, api.createGame, { as: who, lang }).send(body);
const patch = (id: number, body: object, who: Player | null = staff, lang = 'en') =>
  to(t, api.updateGame, { params: { id }, as: who, lang }).send(body);
const read = (id: number, who: Player | null = staff) => to(t, api.staffGame, { params: { id }, as: who });

type DrawRow = {
  id: number;
  draw_at: string;
  end_date: string;
  ticket_price: number;
  rollover_in: number;
  lucky_count: number;
  name: string;
};
const drawsOf = (gameId: number) =>
  t.db.query<DrawRow>(
    'SELECT id, draw_at, end_date, ticket_price, rollover_in, lucky_count, name FROM lotteries WHERE game_id = $1 ORDER BY draw_at',
    [gameId],
  );
const count = async (table: string) => (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))?.n;
const audits = (action: string) =>
  t.db.query<{ actor_id: number | null; entity_id: string; after: unknown }>(
    'SELECT actor_id, entity_id, after FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );

async function newGame(extra: object = {}): Promise<number> {
  const res = await create({ ...GAME, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/**
 * The game's draw `id` moved into the past, where a real drand round is (SIGNED, August 2025): its sales closed and
 * its draw's time come, its seed SEED, its beacon that round's, fetched and verified as the beacon job stores it;
 * `rollover_in` what earlier draws left in its jackpot.
 */
async function due(id: number, rolloverIn = 0): Promise<void> {
  await dueOnRound(t, id);
  await t.db.query('UPDATE lotteries SET rollover_in = $2 WHERE id = $1', [id, rolloverIn]);
}

describe('staff define a game', () => {
  test('a new game puts its next draws on sale at once, each a published numbers lottery of the game, announced and audited', async () => {
    const res = await create(GAME);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...GAME, active: true, carry: 0 });
    expect(res.body.draws).toHaveLength(3);
    const draws = await drawsOf(res.body.id);
    expect(draws).toHaveLength(3);
    for (const d of draws) {
      // Saturday 20:00 Dhaka is 14:00 UTC; sales close half an hour before.
      const at = new Date(d.draw_at);
      expect([at.getUTCDay(), at.getUTCHours(), at.getUTCMinutes()]).toEqual([6, 14, 0]);
      expect(at.getTime() - new Date(d.end_date).getTime()).toBe(30 * 60_000);
      expect(d).toMatchObject({ ticket_price: 100, lucky_count: 3, rollover_in: 0 });
      // The date's spaces unbreakable: a card never splits it across lines.
      expect(d.name).toMatch(/^Bhagya Lotto · \d{1,2}\u00a0[A-Z][a-z]{2}\u00a0\d{4}$/);
    }
    // A week apart, every one with its commitment and a beacon round after its close.
    expect(new Date(draws[1]!.draw_at).getTime() - new Date(draws[0]!.draw_at).getTime()).toBe(7 * 86_400_000);
    expect(await count('draw_commitments')).toBe(3);
    // Anyone sees the draw on sale.
    const pub = await to(t, api.getLottery, { params: { id: draws[0]!.id } });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ kind: 'numbers', purchasable: true, jackpot_share: 50, tier2_prize: 100_000 });
    expect(pub.body.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect((await audits('game.create')).map((a) => a.actor_id)).toEqual([staff.id]);
    expect((await audits('lottery.create')).map((a) => a.actor_id)).toEqual([staff.id, staff.id, staff.id]);
  });

  test('staff list and read games; a player is refused, anonymous must log in, an unknown game is 404', async () => {
    const id = await newGame();
    const list = await to(t, api.staffGames, { as: staff });
    expect(list.status).toBe(200);
    expect(list.body.map((g: { id: number }) => g.id)).toEqual([id]);
    expect(list.headers['x-total-count']).toBe('1');
    // Each with its next draw and how many are on sale, as its draws say.
    const [firstDraw] = await drawsOf(id);
    expect(Date.parse(list.body[0].next_draw)).toBe(Date.parse(firstDraw!.draw_at));
    expect(list.body[0].draws_on_sale).toBe(3);
    const one = await read(id);
    expect(one.status).toBe(200);
    expect(one.body.draws.map((d: { state: string }) => d.state)).toEqual(['on_sale', 'on_sale', 'on_sale']);
    expect((await read(id, player)).status).toBe(403);
    expect((await read(id, null)).status).toBe(401);
    expect((await to(t, api.staffGames, { as: player })).status).toBe(403);
    expect((await create(GAME, player)).status).toBe(403);
    expect((await patch(id, { active: false }, player)).status).toBe(403);
    expect((await read(id + 1000)).status).toBe(404);
    expect((await patch(id + 1000, { active: false })).body.code).toBe('not_found');
  });

  test.each([
    ['no name', { name: '' }, 'name'],
    ['no weekday', { draw_days: [] }, 'draw_days'],
    ['an unknown weekday', { draw_days: ['funday'] }, 'draw_days'],
    ['a time that is not one', { draw_time: '25:00' }, 'draw_time'],
    ['no draws ahead', { draws_ahead: 0 }, 'draws_ahead'],
    ['more than a year of draws ahead', { draws_ahead: 53 }, 'draws_ahead'],
    ['a jackpot share over 100', { jackpot_share: 101 }, 'jackpot_share'],
    ['a negative tier prize', { tier3_prize: -1 }, 'tier3_prize'],
    ['Lucky Chance codes without a prize', { lucky_prize: 0 }, 'lucky_prize'],
    ['a Lucky Chance prize without codes', { lucky_count: 0 }, 'lucky_count'],
    ['a field no game has', { winners: 3 }, 'winners'],
  ])('%s: 400 under its field, and nothing is made', async (_, change, field) => {
    const res = await create({ ...GAME, ...change });
    expect(res.status).toBe(400);
    expect(res.body[field]).toEqual([expect.any(String)]);
    expect(await count('games')).toBe(0);
    expect(await count('lotteries')).toBe(0);
  });

  test('the refusal is in the caller’s language', async () => {
    const res = await create({ ...GAME, draw_time: '8 PM' }, staff, 'bn');
    expect(res.status).toBe(400);
    expect(res.body.draw_time[0]).toMatch(/ড্র-এর সময়/);
  });

  test('without Lucky Chance fields, a game has none (0 and 0)', async () => {
    const { lucky_count: _c, lucky_prize: _p, ...bare } = GAME;
    const res = await create(bare);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ lucky_count: 0, lucky_prize: 0 });
    expect((await drawsOf(res.body.id)).map((d) => d.lucky_count)).toEqual([0, 0, 0]);
  });

  test('a weekly form posts one ticked day as a string, and the time as HH:MM', async () => {
    const res = await create({ ...GAME, draw_days: 'wed', draws_ahead: '2', close_minutes: '60' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ draw_days: ['wed'], draws_ahead: 2, close_minutes: 60 });
  });
});

describe('a change applies to the draws put on sale after it', () => {
  test('a new price and more draws ahead: the draws on sale keep theirs, the new ones have the new price; audited', async () => {
    const id = await newGame();
    const res = await patch(id, { ticket_price: 120, draws_ahead: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticket_price: 120, draws_ahead: 5 });
    expect((await drawsOf(id)).map((d) => d.ticket_price)).toEqual([100, 100, 100, 120, 120]);
    const [a] = await audits('game.update');
    expect(a).toMatchObject({ actor_id: staff.id, after: { ticket_price: 120, draws_ahead: 5 } });
  });

  test('the same values again change nothing and record nothing', async () => {
    const id = await newGame();
    expect((await patch(id, { ticket_price: 100, draw_days: ['sat'] })).status).toBe(200);
    expect(await audits('game.update')).toEqual([]);
  });

  test('Lucky Chance codes without a prize, with the stored one: 400 lucky_both, nothing changed', async () => {
    const id = await newGame({ lucky_count: 0, lucky_prize: 0 });
    const res = await patch(id, { lucky_count: 3 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('lucky_both');
    expect(res.body.lucky_prize).toEqual([expect.any(String)]);
    expect((await read(id)).body.lucky_count).toBe(0);
  });

  test('paused, a game puts no new draw on sale; the draws on sale stay; resumed, it fills its calendar again', async () => {
    const id = await newGame({ draws_ahead: 2 });
    expect((await patch(id, { active: false, draws_ahead: 4 })).status).toBe(200);
    expect(await drawsOf(id)).toHaveLength(2);
    expect(await t.app.gameCalendar.keepAllOnSale()).toBe(0);
    expect((await patch(id, { active: true })).status).toBe(200);
    expect(await drawsOf(id)).toHaveLength(4);
  });

  test("a game's draw is changed through its game: its price or dates refused (409), its texts and flags allowed", async () => {
    const id = await newGame();
    const [d] = await drawsOf(id);
    const price = await to(t, api.updateLottery, { params: { id: d!.id }, as: staff }).send({ ticket_price: 50 });
    expect(price.status).toBe(409);
    expect(price.body.code).toBe('lottery_of_game');
    const end = await to(t, api.updateLottery, { params: { id: d!.id }, as: staff }).send({ end_date: '2030-01-01' });
    expect(end.body.code).toBe('lottery_of_game');
    expect((await to(t, api.updateLottery, { params: { id: d!.id }, as: staff }).send({ featured: true })).status).toBe(200);
    expect((await drawsOf(id))[0]).toMatchObject({ ticket_price: 100, end_date: d!.end_date });
  });
});

describe('the calendar runs itself', () => {
  test('it keeps the next N draws on sale, each made once however many runs go at once', async () => {
    const id = await newGame();
    await t.db.query('UPDATE games SET draws_ahead = 6 WHERE id = $1', [id]);
    const made = await Promise.all([
      t.app.gameCalendar.keepAllOnSale(),
      t.app.gameCalendar.keepAllOnSale(),
      t.app.gameCalendar.keepAllOnSale(),
    ]);
    expect(made.reduce((a, b) => a + b, 0)).toBe(3);
    const draws = await drawsOf(id);
    expect(draws).toHaveLength(6);
    expect(new Set(draws.map((d) => d.draw_at)).size).toBe(6);
    // Made by the calendar: audited with no actor.
    expect((await audits('lottery.create')).filter((a) => a.actor_id === null)).toHaveLength(3);
  });

  test('a draw due is drawn by the procedure with nobody pressing, once, and its unwon jackpot rolls into the next draw once', async () => {
    const id = await newGame();
    const [first, second] = await drawsOf(id);
    await due(first!.id, 5_000);
    const runs = await Promise.all([t.app.gameCalendar.runOnce(), t.app.gameCalendar.runOnce()]);
    expect(runs.map((r) => r.drawn).reduce((a, b) => a + b, 0)).toBe(1);
    const drawn = await t.db.one<{ drawn_at: string | null; is_result_published: boolean; rollover_out: number }>(
      'SELECT drawn_at, is_result_published, rollover_out FROM lotteries WHERE id = $1',
      [first!.id],
    );
    expect(drawn).toMatchObject({ is_result_published: true, rollover_out: 5_000 });
    expect(drawn?.drawn_at).not.toBeNull();
    // The jackpot is in the game's next draw, once, audited with no actor.
    expect((await drawsOf(id)).find((d) => d.id === second!.id)?.rollover_in).toBe(5_000);
    const rolled = await audits('lottery.rollover');
    expect(rolled).toEqual([
      { actor_id: null, entity_id: String(second!.id), after: { rollover_in: 5_000, from_lottery_id: first!.id, amount: 5_000 } },
    ]);
    expect((await audits('lottery.draw')).map((a) => a.actor_id)).toEqual([null]);
    // The draw's proof verifies; the results are public.
    const proof = await to(t, api.drawProof, { params: { id: first!.id } });
    expect(proof.status).toBe(200);
    expect(proof.body.seed).toBe(SEED);
    // The calendar kept three on sale: the draw moved into the past left its instant free, and it was made again.
    expect((await read(id)).body.draws.filter((d: { state: string }) => d.state === 'on_sale')).toHaveLength(3);
    // A later run draws nothing more.
    expect((await t.app.gameCalendar.runOnce()).drawn).toBe(0);
  });

  test('a draw whose beacon is not there yet waits; one whose value is unverified is not drawn', async () => {
    const id = await newGame();
    const [first] = await drawsOf(id);
    await due(first!.id);
    await t.db.query('UPDATE draw_commitments SET beacon_value = NULL, beacon_signature = NULL WHERE lottery_id = $1', [first!.id]);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(0);
    await t.db.query('UPDATE draw_commitments SET beacon_value = $2 WHERE lottery_id = $1', [first!.id, 'ab'.repeat(32)]);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(0);
    expect((await t.db.one<{ drawn_at: string | null }>('SELECT drawn_at FROM lotteries WHERE id = $1', [first!.id]))?.drawn_at).toBeNull();
  });

  test('with no later draw (the game paused), the jackpot waits in the game and the next draw made takes it, once', async () => {
    const id = await newGame({ draws_ahead: 1 });
    const [only] = await drawsOf(id);
    expect((await patch(id, { active: false })).status).toBe(200);
    await due(only!.id, 7_000);
    expect((await t.app.gameCalendar.runOnce()).drawn).toBe(1);
    expect((await read(id)).body.carry).toBe(7_000);
    const [carried] = await audits('lottery.rollover');
    expect(carried).toMatchObject({ actor_id: null, entity_id: String(only!.id), after: { game_id: id, carry: 7_000, amount: 7_000 } });
    expect((await patch(id, { active: true })).status).toBe(200);
    const game = (await read(id)).body;
    expect(game.carry).toBe(0);
    const next = (await drawsOf(id)).filter((d) => d.id !== only!.id);
    expect(next.map((d) => d.rollover_in)).toEqual([7_000]);
    expect(game.draws.find((d: { lottery_id: number }) => d.lottery_id === next[0]!.id)).toMatchObject({
      jackpot: 7_000,
      state: 'on_sale',
    });
  });

  test('Lucky Chance: the draw pays its codes among the paid entries, one prize per ticket (a tier winner gets both), in a proof anyone can check', async () => {
    // As many codes as entries: every entry wins Lucky Chance, so the one that wins a tier holds both prizes.
    const id = await newGame({ lucky_count: 5, lucky_prize: 100_000 });
    const [first] = await drawsOf(id);
    const tickets = ['01-02-03-04-05-01', '10-20-30-40-50-10', '05-12-23-34-45-07', '11-22-33-44-55-15', '07-14-21-28-35-14'];
    await sellMany(t, player.id, first!.id, tickets);
    await due(first!.id);
    // A seed whose numbers give one ticket a fixed tier and none the jackpot (the trick of numbers-draw.test.ts).
    const sorted = sortedTickets(tickets);
    const digest = ticketsDigest(sorted);
    let seed = '';
    for (let i = 0; !seed; i++) {
      const n = numbersWith(digest, seedNumber(i));
      const tiers = tickets.map((x) => tierOf(x, n));
      if (tiers.some((x) => x !== null && x > 1) && !tiers.includes(1)) seed = seedNumber(i);
    }
    await fixSeed(t, first!.id, seed);
    expect((await t.app.gameCalendar.drawDue()).drawn).toBe(1);

    const c = await t.db.one<{ commitment: string }>('SELECT commitment FROM draw_commitments WHERE lottery_id = $1', [first!.id]);
    const expected = selectLucky({ seed, tickets: sorted, beacon: SIGNED.randomness, count: 5 }).lucky;
    expect(expected).toHaveLength(5);
    const numbers = numbersWith(digest, seed);
    const prizes = await t.db.query<{ ticket: string; tier: number | null; lucky_code: string | null; prize_money: number }>(
      'SELECT ticket, tier, lucky_code, prize_money FROM prizes WHERE lottery_id = $1 ORDER BY ticket',
      [first!.id],
    );
    // One prize per winning ticket: each Lucky Chance winner with its code, the money of its tier added when it won one.
    const tierMoney = (tier: number | null) => ({ 2: 100_000, 3: 5_000, 4: 500, 5: 100 })[tier ?? 0] ?? 0;
    const winners = new Set([...expected.map((w) => w.ticket), ...tickets.filter((x) => tierOf(x, numbers) !== null)]);
    expect(prizes.map((p) => p.ticket)).toEqual([...winners].sort());
    for (const p of prizes) {
      const code = expected.find((w) => w.ticket === p.ticket)?.code ?? null;
      expect(p.tier).toBe(tierOf(p.ticket, numbers));
      expect(p.lucky_code).toBe(code);
      expect(p.prize_money).toBe(tierMoney(p.tier) + (code ? 100_000 : 0));
      if (code) expect(code).toBe(luckyCode(c!.commitment, p.ticket));
    }
    expect(prizes).toHaveLength(5);
    expect(prizes.filter((p) => p.tier !== null && p.lucky_code !== null).length).toBeGreaterThan(0);

    // My Lotteries shows each entry's code, and that its prize holds Lucky Chance's.
    const mine = await to(t, api.myLotteries, { as: player, query: { limit: 10 } });
    expect(mine.status).toBe(200);
    const shown = (mine.body.tickets as { ticket: string; lucky_code: string; prize: { lucky: boolean } | null }[])
      .map((x) => [x.ticket, x.lucky_code, x.prize?.lucky])
      .sort();
    expect(shown).toEqual(tickets.map((x) => [x, luckyCode(c!.commitment, x), true]).sort());

    // "Check my numbers" reads a code as people type it, and finds the draw that drew it.
    const [w0] = expected;
    for (const typed of [w0!.code, w0!.code.replace(/ /g, '').toLowerCase(), toDigits(w0!.code.slice(4), 'bn')]) {
      const checked = await to(t, api.checkNumbers, { query: { ticket: typed } });
      expect(checked.status).toBe(200);
      expect(checked.body).toMatchObject({ ticket: null, code: w0!.code });
      expect(checked.body.hits).toEqual([
        expect.objectContaining({ lottery: expect.objectContaining({ id: first!.id }), lucky_code: w0!.code, prize: 100_000, sold: true }),
      ]);
    }
    const notDrawn = await to(t, api.checkNumbers, { query: { ticket: 'BHG 0000 0000' } });
    expect(notDrawn.body).toMatchObject({ code: 'BHG 0000 0000', hits: [] });
    // The archive lists the codes drawn, in the order drawn, and what each pays.
    const archive = await to(t, api.resultsArchive, {});
    const card = (archive.body as { lottery: { id: number }; lucky: unknown }[]).find((r) => r.lottery.id === first!.id);
    expect(card?.lucky).toEqual({ prize: 100_000, codes: expected.map((w) => w.code) });

    // The proof lists them in the order drawn, and both checkers agree.
    const proof = (await to(t, api.drawProof, { params: { id: first!.id } })).body;
    expect(proof.lucky_chance).toEqual({ count: 5, winners: expected });
    expect(verifyProof(proof)).toEqual({ ok: true });
    const run = await verifyDraw(t.url, String(first!.id));
    expect(run.code).toBe(0);
    expect(run.out).toContain(`lucky chance ${expected[0]!.code} (${expected[0]!.ticket})`);
  });
});
