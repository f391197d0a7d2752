/**
 * The staff's game pages as a browser without JavaScript uses them (docs/rules/games.md#1-the-game,
 * docs/rules/pages.md#9-back-office): the list, a new game's form and a game's page with its draws, in English and
 * Bengali; creating a game through the plain form (the weekdays ticked as several `draw_days`), a refused post that keeps
 * what was typed and makes nothing, changing it, Pause and Resume, an unknown game, and nobody but staff gets in.
 */
import request from 'supertest';
import { api } from '../../shared/api/contract.ts';
import { formatDate } from '../../shared/dates.ts';
import { to } from '../helpers/call.ts';
import { clearGames, GAME_BODY } from './game-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, pageAccount, type Account } from '../helpers/factories.ts';
import { csrfFrom, type Agent } from '../helpers/session.ts';

let t: TestApp;
let staff: Account;
let staffAgent: Agent;
let playerAgent: Agent;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Game Officer', is_staff: true });
  staffAgent = (await pageAccount(t, { name: 'Game Page Officer', is_staff: true })).agent;
  playerAgent = (await pageAccount(t, { name: 'Game Page Player' })).agent;
});
afterAll(() => t.close());
beforeEach(() => clearGames(t));

const GAME = { ...GAME_BODY, name: 'Padma Lotto', name_bn: 'পদ্মা লোটো', draw_days: ['tue', 'sat'] };

/** A game made through the API; its id. */
async function createGame(body: object = {}): Promise<number> {
  const res = await to(t, api.createGame, { as: staff })
    .send({ ...GAME, ...body })
    .expect(201);
  return res.body.id as number;
}

const games = () => t.db.query<{ id: number; name: string; active: boolean }>('SELECT id, name, active FROM games ORDER BY id');
const drawsOf = (id: number) =>
  t.db.query<{ id: number; draw_at: string; ticket_price: number }>(
    'SELECT id, draw_at, ticket_price FROM lotteries WHERE game_id = $1 ORDER BY draw_at',
    [id],
  );
const gameOf = async (id: number) => (await to(t, api.staffGame, { params: { id }, as: staff }).expect(200)).body;

/** The text a reader sees: no scripts (the hydration data carries every text), no tags, entities read, spaces collapsed. */
const shown = (html: string) =>
  html
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const page = (path: string, lng: 'en' | 'bn', status = 200) => staffAgent.get(path).set('Cookie', `lang=${lng}`).expect(status);

/** A form body as a browser posts it: a list is the same name repeated (`draw_days=tue&draw_days=sat`). */
function formBody(fields: Record<string, string | string[] | undefined>): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of v === undefined ? [] : typeof v === 'string' ? [v] : v) s.append(k, one);
  return s.toString();
}
const post = (path: string, fields: Record<string, string | string[] | undefined>, lng: 'en' | 'bn' = 'en') =>
  staffAgent.post(path).set('Cookie', `lang=${lng}`).type('form').send(formBody(fields));

/** Every field of the form, as a browser sends it with the boxes ticked (`active`: 'on'). */
const FORM = {
  name: 'Padma Lotto',
  name_bn: 'পদ্মা লোটো',
  description: 'Twice a week.',
  description_bn: '',
  draw_days: ['tue', 'sat'],
  draw_time: '20:00',
  close_minutes: '30',
  draws_ahead: '3',
  starts_at: '',
  ticket_price: '100',
  tickets_per_draw: '100000',
  jackpot_share: '50',
  tier2_prize: '100000',
  tier3_prize: '5000',
  tier4_prize: '500',
  tier5_prize: '100',
  lucky_count: '3',
  lucky_prize: '100000',
  active: 'on',
};

/** A box of the form, ticked or not: `<input type="checkbox" name="draw_days" value="sat" checked="">` in any order. */
const box = (html: string, name: string, value: string): boolean | null => {
  const tag = [...html.matchAll(/<input\b[^>]*>/g)]
    .map((m) => m[0])
    .find((x) => x.includes(`name="${name}"`) && x.includes(`value="${value}"`));
  return tag === undefined ? null : /\schecked=""/.test(tag);
};
const inputValue = (html: string, name: string): string | undefined =>
  [...html.matchAll(/<input\b[^>]*>/g)]
    .map((m) => m[0])
    .find((x) => x.includes(`name="${name}"`))
    ?.match(/\svalue="([^"]*)"/)?.[1];

describe('who may', () => {
  test('a player and a visitor are sent to log in, and post nothing', async () => {
    const id = await createGame();
    for (const path of ['/admin/games', '/admin/games/new', `/admin/games/${id}`]) {
      const login = `/login?from=${encodeURIComponent(path)}`;
      expect((await playerAgent.get(path).redirects(0)).headers.location).toBe(login);
      expect((await request(t.url).get(path).redirects(0)).headers.location).toBe(login);
    }
    // With a CSRF token of his own: the staff group sends him to log in before any action runs.
    const _csrf = csrfFrom((await playerAgent.get('/profile').expect(200)).text);
    const sent = await playerAgent
      .post('/admin/games/new')
      .type('form')
      .send(formBody({ ...FORM, _csrf }))
      .redirects(0);
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toMatch(/^\/login/);
    const pause = await playerAgent
      .post(`/admin/games/${id}`)
      .type('form')
      .send(formBody({ intent: 'pause', _csrf }))
      .redirects(0);
    expect(pause.status).toBe(303);
    expect(await games()).toEqual([expect.objectContaining({ id, active: true })]);
  });
});

describe('the pages, in English and Bengali', () => {
  test('an empty list says so and offers a new game; the back office names Games', async () => {
    const en = await page('/admin/games', 'en');
    expect(shown(en.text)).toContain('No games yet');
    expect(en.text).toContain('href="/admin/games/new"');
    expect(en.text).toMatch(/class="admin-nav__link[^"]*" href="\/admin\/games"|href="\/admin\/games"[^>]*class="admin-nav__link/);
    expect(shown(en.text)).toContain('Games');
    const bn = await page('/admin/games', 'bn');
    expect(shown(bn.text)).toContain('এখনো কোনো গেম নেই');
    expect(shown(bn.text)).toContain('নতুন গেম');
  });

  test('the list: each game in the page language, active or paused, its calendar, price and next draw', async () => {
    const id = await createGame();
    const paused = await createGame({
      name: 'Meghna Daily',
      name_bn: '',
      draw_days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
      active: false,
    });
    await createGame({ name: 'Jamuna Thrice', draw_days: ['fri', 'mon', 'wed'], draw_time: '13:30' });
    const [next] = await drawsOf(id);
    expect(next).toBeDefined();
    const en = shown((await page('/admin/games', 'en')).text);
    expect(en).toContain('Padma Lotto');
    expect(en).not.toContain('পদ্মা লোটো');
    expect(en).toContain('Every Tuesday and Saturday, 8:00 PM');
    expect(en).toContain('TK. 100');
    expect(en).toContain(`Next draw ${formatDate(next!.draw_at, 'en', { withTime: true })}`);
    expect(en).toContain('Meghna Daily Paused');
    expect(en).toContain('Every day, 8:00 PM');
    expect(en).toContain('Next draw None on sale');
    expect(en).toContain('Every Monday, Wednesday and Friday, 1:30 PM');
    expect(en).toContain('3 results');
    const html = (await page('/admin/games', 'bn')).text;
    expect(html).toContain(`href="/admin/games/${id}"`);
    expect(html).toContain(`href="/admin/games/${paused}"`);
    const bn = shown(html);
    expect(bn).toContain('পদ্মা লোটো সক্রিয়');
    // No Bengali name: the English one.
    expect(bn).toContain('Meghna Daily স্থগিত');
    expect(bn).toContain('প্রতি মঙ্গলবার ও শনিবার, রাত ৮:০০');
    expect(bn).toContain('প্রতিদিন, রাত ৮:০০');
    expect(bn).toContain('প্রতি সোমবার, বুধবার ও শুক্রবার, দুপুর ১:৩০');
    expect(bn).toContain('৳১০০');
    expect(bn).toContain(`পরের ড্র ${formatDate(next!.draw_at, 'bn', { withTime: true })}`);
    expect(bn).toMatch(/[০-৯]/);
  });

  test("the new game's form: every field with NEW_GAME's defaults, Saturday ticked, the time as a time input", async () => {
    const html = (await page('/admin/games/new', 'en')).text;
    const en = shown(html);
    expect(en).toContain('New game');
    expect(en).toContain('Draw days');
    expect(en).toContain('Lucky Chance');
    expect(html).toContain('_csrf');
    expect(box(html, 'draw_days', 'sat')).toBe(true);
    for (const d of ['sun', 'mon', 'tue', 'wed', 'thu', 'fri']) expect(box(html, 'draw_days', d)).toBe(false);
    expect(box(html, 'active', '')).toBeNull();
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*name="active"[^>]*checked=""|<input[^>]*name="active"[^>]*checked=""/);
    expect(html).toMatch(/<input[^>]*name="draw_time"[^>]*type="time"|<input[^>]*type="time"[^>]*name="draw_time"/);
    expect(inputValue(html, 'draw_time')).toBe('20:00');
    expect(inputValue(html, 'ticket_price')).toBe('100');
    expect(inputValue(html, 'tickets_per_draw')).toBe('1000000');
    expect(inputValue(html, 'jackpot_share')).toBe('50');
    expect(inputValue(html, 'close_minutes')).toBe('30');
    expect(inputValue(html, 'draws_ahead')).toBe('5');
    expect(inputValue(html, 'starts_at')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const f of ['name', 'name_bn', 'tier2_prize', 'tier3_prize', 'tier4_prize', 'tier5_prize', 'lucky_count', 'lucky_prize'])
      expect([f, html.includes(`name="${f}"`)]).toEqual([f, true]);
    const bn = shown((await page('/admin/games/new', 'bn')).text);
    expect(bn).toContain('নতুন গেম');
    expect(bn).toContain('ড্র-এর দিন');
    expect(bn).toContain('শনিবার');
    expect(bn).toContain('লাকি চান্স');
    expect(bn).toContain('গেম তৈরি করুন');
    // Hints with numbers in Bengali digits.
    expect(bn).toContain('১ থেকে ৫২');
  });

  test("a game's page: its calendar, prize table, Lucky Chance, carry, Pause, the note on changes, and its draws", async () => {
    const id = await createGame();
    const draws = await drawsOf(id);
    expect(draws).toHaveLength(3);
    // The earliest drawn, its jackpot unwon and rolled on; a jackpot waiting in the game.
    const [first] = draws;
    await t.db.query(
      `UPDATE lotteries SET drawn_at = now(), is_result_published = true, rollover_out = 25000, rollover_in = 1000 WHERE id = $1`,
      [first!.id],
    );
    await t.db.query(`UPDATE draw_commitments SET numbers = '05-12-23-34-45-07' WHERE lottery_id = $1`, [first!.id]);
    await t.db.query('UPDATE games SET carry = 7000 WHERE id = $1', [id]);

    const html = (await page(`/admin/games/${id}`, 'en')).text;
    const en = shown(html);
    expect(en).toContain('Padma Lotto');
    expect(en).toContain('Every Tuesday and Saturday, 8:00 PM');
    expect(en).toContain('Active');
    expect(html).toMatch(/name="intent"[^>]*value="pause"|value="pause"[^>]*name="intent"/);
    expect(en).toContain('Sales close 30 minutes before each draw');
    expect(en).toContain('Tickets on sale per draw 100,000');
    expect(en).toContain('Jackpot waiting for the next draw TK. 7,000');
    expect(en).toContain('Jackpot 5 main + last 50% of the paid sales, plus what rolled in');
    expect(en).toContain('2nd prize 5 main TK. 100,000');
    expect(en).toContain('5th prize 3 main, or 2 main + last TK. 100');
    expect(en).toContain('Lucky Chance 3 codes drawn in each draw TK. 100,000');
    expect(en).toContain('A change applies only to the draws put on sale after it');
    for (const d of draws) {
      expect(html).toContain(`href="/admin/lotteries/${d.id}/draw"`);
      expect(en).toContain(formatDate(d.draw_at, 'en', { withTime: true }) as string);
    }
    expect(en.match(/On sale/g)).toHaveLength(2);
    expect(en).toContain('Drawn');
    expect(en).toContain('TK. 25,000');
    expect(en).toContain('Numbers drawn: 05-12-23-34-45-07');
    // The form, filled with what is stored.
    expect(inputValue(html, 'name')).toBe('Padma Lotto');
    expect(inputValue(html, 'lucky_count')).toBe('3');
    expect(box(html, 'draw_days', 'tue')).toBe(true);
    expect(box(html, 'draw_days', 'sat')).toBe(true);
    expect(box(html, 'draw_days', 'wed')).toBe(false);

    const bn = shown((await page(`/admin/games/${id}`, 'bn')).text);
    expect(bn).toContain('পদ্মা লোটো');
    expect(bn).toContain('প্রতি মঙ্গলবার ও শনিবার, রাত ৮:০০');
    expect(bn).toContain('প্রতিটি ড্র-এর ৩০ মিনিট আগে');
    expect(bn).toContain('পরের ড্র-এর জন্য অপেক্ষায় থাকা জ্যাকপট ৳৭,০০০');
    expect(bn).toContain('জ্যাকপট ৫টি মূল + শেষ সংখ্যা পরিশোধিত বিক্রির ৫০%');
    expect(bn).toContain('লাকি চান্স প্রতিটি ড্র-তে ৩টি কোড ড্র হয় ৳১,০০,০০০');
    expect(bn).toContain('বিক্রি চলছে');
    expect(bn).toContain('ড্র হয়েছে');
    expect(bn).toContain('০৫-১২-২৩-৩৪-৪৫-০৭');
    expect(bn).toContain(formatDate(draws[2]!.draw_at, 'bn', { withTime: true }) as string);
    expect(bn).toContain('স্থগিত করুন');
    expect(bn).toContain('পরিবর্তন কেবল এর পরে বিক্রিতে দেওয়া ড্রগুলোর জন্য');
  });

  test('an unknown game is a Not Found page (404), as is an address that names none', async () => {
    expect(shown((await page('/admin/games/999999', 'en', 404)).text)).toContain('Game not found');
    expect(shown((await page('/admin/games/999999', 'bn', 404)).text)).toContain('গেমটি পাওয়া যায়নি');
    expect(shown((await page('/admin/games/abc', 'en', 404)).text)).toContain('Game not found');
    const form = await page('/admin/games', 'en');
    const sent = await post('/admin/games/999999', { _csrf: csrfFrom(form.text), intent: 'pause' });
    expect(sent.status).toBe(404);
  });
});

describe('without JavaScript', () => {
  test('a game is created from the form: the ticked weekdays, 303 to its page, its draws listed there', async () => {
    const form = await page('/admin/games/new', 'en');
    const sent = await post('/admin/games/new', { ...FORM, _csrf: csrfFrom(form.text) });
    expect(sent.status).toBe(303);
    const [row] = await games();
    expect(row).toMatchObject({ name: 'Padma Lotto', active: true });
    expect(sent.headers.location).toBe(`/admin/games/${row!.id}?notice=created`);
    expect(await gameOf(row!.id)).toMatchObject({
      draw_days: ['tue', 'sat'],
      draw_time: '20:00',
      ticket_price: 100,
      tickets_per_draw: 100_000,
      tier3_prize: 5000,
      lucky_count: 3,
      lucky_prize: 100_000,
      draws_ahead: 3,
      description: 'Twice a week.',
      active: true,
    });
    const draws = await drawsOf(row!.id);
    expect(draws).toHaveLength(3);
    for (const d of draws) expect(['Tue', 'Sat']).toContain(new Date(Date.parse(d.draw_at) + 6 * 3600_000).toUTCString().slice(0, 3));

    const shownPage = await page(sent.headers.location as string, 'en');
    expect(shownPage.text).toMatch(/<div class="alert alert--success" role="status">The game was created\.<\/div>/);
    for (const d of draws) expect(shownPage.text).toContain(`href="/admin/lotteries/${d.id}/draw"`);
    expect(shown((await page(sent.headers.location as string, 'bn')).text)).toContain('গেম তৈরি হয়েছে।');
    expect((await page(`/admin/games/${row!.id}`, 'en')).text).not.toContain('alert--success');
  });

  test('one weekday ticked, Active unticked, Lucky Chance left empty: a paused game without Lucky Chance, no draw on sale', async () => {
    const form = await page('/admin/games/new', 'en');
    const sent = await post('/admin/games/new', {
      ...FORM,
      draw_days: 'fri',
      active: undefined,
      lucky_count: '',
      lucky_prize: ' ',
      _csrf: csrfFrom(form.text),
    });
    expect(sent.status).toBe(303);
    const [row] = await games();
    expect(row).toMatchObject({ active: false });
    expect(await gameOf(row!.id)).toMatchObject({ draw_days: ['fri'], active: false, lucky_count: 0, lucky_prize: 0 });
    expect(await drawsOf(row!.id)).toEqual([]);
    expect(shown((await page(`/admin/games/${row!.id}`, 'en')).text)).toContain('No draws yet');
  });

  test('a refused post shows each error under its field, keeps what was typed and creates nothing', async () => {
    const form = await page('/admin/games/new', 'en');
    const bad = await post('/admin/games/new', { ...FORM, draw_days: [], draw_time: '', ticket_price: '120', _csrf: csrfFrom(form.text) });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="game-days-err" class="field__error">Choose at least one day of the week for the draws\.<\/p>/);
    expect(bad.text).toMatch(/class="field__error">Enter the draw time as hours and minutes, 24-hour, for example 20:00\.<\/p>/);
    expect(inputValue(bad.text, 'name')).toBe('Padma Lotto');
    expect(inputValue(bad.text, 'ticket_price')).toBe('120');
    expect(inputValue(bad.text, 'draw_time')).toBe('');
    // The days stay as they were sent: none ticked (not the default Saturday).
    expect(box(bad.text, 'draw_days', 'sat')).toBe(false);
    expect(await games()).toEqual([]);

    // Another field refused: the ticked days are kept, all of them.
    const again = await post('/admin/games/new', { ...FORM, draw_days: ['mon', 'fri'], name: '  ', _csrf: csrfFrom(form.text) });
    expect(again.status).toBe(400);
    expect(box(again.text, 'draw_days', 'mon')).toBe(true);
    expect(box(again.text, 'draw_days', 'fri')).toBe(true);
    expect(box(again.text, 'draw_days', 'sat')).toBe(false);
    // Lucky Chance needs both: the message under the prize.
    const lucky = await post('/admin/games/new', { ...FORM, lucky_count: '2', lucky_prize: '0', _csrf: csrfFrom(form.text) });
    expect(lucky.status).toBe(400);
    expect(lucky.text).toContain('Give both how many Lucky Chance codes are drawn and what each pays, or 0 for both.');
    expect(inputValue(lucky.text, 'lucky_count')).toBe('2');

    const bn = await post('/admin/games/new', { ...FORM, draw_days: [], _csrf: csrfFrom(form.text) }, 'bn');
    expect(bn.status).toBe(400);
    expect(bn.text).toContain('ড্র-এর জন্য সপ্তাহের অন্তত একটি দিন বেছে নিন।');
    expect(await games()).toEqual([]);
    expect(await t.db.query('SELECT id FROM lotteries')).toEqual([]);
  });

  test('Pause, then Resume: each a small form of its own; draws on sale stay', async () => {
    const id = await createGame();
    const before = await drawsOf(id);
    const shownPage = await page(`/admin/games/${id}`, 'en');
    const paused = await post(`/admin/games/${id}`, { _csrf: csrfFrom(shownPage.text), intent: 'pause' });
    expect(paused.status).toBe(200);
    expect(shown(paused.text)).toContain('The game is paused: no new draw goes on sale.');
    expect(paused.text).toMatch(/name="intent"[^>]*value="resume"|value="resume"[^>]*name="intent"/);
    expect(shown(paused.text)).toContain('Paused');
    expect((await gameOf(id)).active).toBe(false);
    expect(await drawsOf(id)).toEqual(before);
    expect(shown((await page('/admin/games', 'en')).text)).toContain('Padma Lotto Paused');

    const resumed = await post(`/admin/games/${id}`, { _csrf: csrfFrom(paused.text), intent: 'resume' }, 'bn');
    expect(resumed.status).toBe(200);
    expect(shown(resumed.text)).toContain('গেমটি আবার চালু হয়েছে');
    expect(resumed.text).toMatch(/name="intent"[^>]*value="pause"|value="pause"[^>]*name="intent"/);
    expect((await gameOf(id)).active).toBe(true);
    expect(await t.db.query("SELECT after FROM audit_log WHERE action = 'game.update' ORDER BY id")).toHaveLength(2);
  });

  test("the game's form changes it: a later draw gets the new price, those on sale keep theirs; an unchanged start stays as stored", async () => {
    const id = await createGame({ starts_at: '2026-01-01T10:30:00+06:00' });
    const stored = await gameOf(id);
    const onSale = await drawsOf(id);
    const html = (await page(`/admin/games/${id}`, 'en')).text;
    expect(inputValue(html, 'starts_at')).toBe('2026-01-01');
    const values = {
      ...FORM,
      _csrf: csrfFrom(html),
      intent: 'save',
      starts_at: '2026-01-01',
      starts_at_was: '2026-01-01',
      ticket_price: '150',
      draw_days: ['tue', 'sat', 'wed'],
    };
    const saved = await post(`/admin/games/${id}`, values);
    expect(saved.status).toBe(200);
    expect(shown(saved.text)).toContain('The game was saved.');
    const after = await gameOf(id);
    expect(after).toMatchObject({ ticket_price: 150, draw_days: ['tue', 'wed', 'sat'], starts_at: stored.starts_at });
    expect(inputValue(saved.text, 'ticket_price')).toBe('150');
    expect(box(saved.text, 'draw_days', 'wed')).toBe(true);
    // The draws already on sale keep the price their tickets are sold at.
    const now = await drawsOf(id);
    for (const d of now) expect([d.id, d.ticket_price]).toEqual([d.id, onSale.some((x) => x.id === d.id) ? 100 : 150]);

    // A refused change keeps what was typed, and changes nothing.
    const bad = await post(`/admin/games/${id}`, { ...values, jackpot_share: '101', ticket_price: '175' });
    expect(bad.status).toBe(400);
    expect(inputValue(bad.text, 'ticket_price')).toBe('175');
    expect(bad.text).toContain('field__error');
    expect((await gameOf(id)).ticket_price).toBe(150);

    // Active unticked in the form: paused.
    const off = await post(`/admin/games/${id}`, { ...values, active: undefined });
    expect(off.status).toBe(200);
    expect((await gameOf(id)).active).toBe(false);
  });
});
