/**
 * Keeping play safe through the pages, as a browser without JavaScript does (docs/rules/play-safe.md#6-the-pages):
 * /profile/limits sets the limits, a time-out and the self-exclusion with plain forms (the box must be ticked), in
 * English and Bengali, the two breaks shown apart; the ticket page shows the API's refusal of a purchase over the limit, and of a self-excluded player; the
 * Play Responsibly page and the profile link to the limits; staff see a player's limits on his user page.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { buyOnPage, insertLottery } from './purchase-fixtures.ts';
import { pageAccount } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

/** The limits page's form posted as a browser without JavaScript posts it, with the token of the page it came from. */
const postLimits = (agent: ReturnType<typeof request.agent>, page: string, fields: Record<string, string>) =>
  agent
    .post('/profile/limits')
    .type('form')
    .send({ _csrf: csrfFrom(page), ...fields });

test('the limits page sets a limit; a purchase over it comes back on the ticket page with the API’s message', async () => {
  const lottery = await insertLottery(t, { price: 100 });
  const { agent } = await pageAccount(t, { name: 'Karim Mia' });
  const profile = await agent.get('/profile').expect(200);
  expect(profile.text).toContain('href="/profile/limits"');
  const page = await agent.get('/profile/limits').expect(200);
  expect(page.text).toContain('Spend limits');
  expect(page.text).toContain('No limit');

  const bad = await postLimits(agent, page.text, { intent: 'limits', day: 'abc' });
  expect(bad.status).toBe(400);
  expect(bad.text).toContain('A limit is a whole number of taka from 1 to 10,000,000');

  const saved = await postLimits(agent, page.text, { intent: 'limits', day: '100', week: '', month: '' });
  expect(saved.status).toBe(303);
  expect(saved.headers.location).toBe('/profile/limits?saved=limits');
  const after = await agent.get('/profile/limits?saved=limits').expect(200);
  expect(after.text).toContain('Your limits were saved');
  expect(after.text).toContain('TK. 100');

  expect((await buyOnPage(agent, lottery, '05-12-23-34-45-07')).status).toBe(303); // exactly at the limit
  const over = await buyOnPage(agent, lottery, '01-02-03-04-05-06');
  expect(over.status).toBe(409);
  expect(over.text).toContain('This purchase would take you over your daily spend limit of TK. 100');
});

test('self-exclusion needs the box ticked; then the ticket page refuses in Bengali; the Play Responsibly page links here', async () => {
  const lottery = await insertLottery(t, { price: 100 });
  const { agent } = await pageAccount(t, { name: 'রহিম', lang: 'bn' });
  const page = await agent.get('/profile/limits').expect(200);
  expect(page.text).toContain('আমি বুঝেছি, এটি মেয়াদের আগে তুলে নেওয়া যাবে না।');
  const unticked = await postLimits(agent, page.text, { intent: 'exclude', period: '6m' });
  expect(unticked.status).toBe(400);
  expect(unticked.text).toContain('অনুগ্রহ করে নিশ্চিত করুন যে আপনি বুঝেছেন');
  const done = await postLimits(agent, page.text, { intent: 'exclude', period: '6m', confirm: 'yes' });
  expect(done.status).toBe(303);
  expect((await agent.get('/profile/limits?saved=excluded').expect(200)).text).toContain('আপনি এখন খেলা থেকে বিরত আছেন');
  const refused = await buyOnPage(agent, lottery, '05-12-23-34-45-07');
  expect(refused.status).toBe(403);
  expect(refused.text).toContain('পর্যন্ত নিজেকে খেলা থেকে বিরত রেখেছেন');
  const info = await request(t.url).get('/play-responsibly').expect(200);
  expect(info.text).toContain('href="/profile/limits"');
});

test('a time-out: shown apart from self-exclusion; needs the box; then the ticket page refuses, saying until when', async () => {
  const lottery = await insertLottery(t, { price: 100 });
  const { agent, id } = await pageAccount(t, { name: 'Nasrin Akter' });
  const page = await agent.get('/profile/limits').expect(200);
  // The two breaks, each in its own card, each saying what it does.
  expect(page.text).toMatch(/<h2 id="time-out-title">Take a break<\/h2>[\s\S]*<h2 id="exclusion-title">Self-exclude<\/h2>/);
  expect(page.text).toContain('A short pause from play: for 24 hours, 7 days or 30 days');
  expect(page.text).toContain('For a long time — 6 months, 1 year or 5 years');
  for (const v of ['24h', '7d', '30d']) expect(page.text).toContain(`value="${v}"`);
  // Each value of the limits table carries its column's name, for a phone's stacked rows.
  expect(page.text).toContain('data-label="Starts again"');
  const unticked = await postLimits(agent, page.text, { intent: 'time-out', period: '24h' });
  expect(unticked.status).toBe(400);
  expect(unticked.text).toContain('Please confirm that you understand this cannot be undone early.');
  const badPeriod = await postLimits(agent, page.text, { intent: 'time-out', period: '6m', confirm: 'yes' });
  expect(badPeriod.status).toBe(400);
  expect(badPeriod.text).toContain('Choose how long: 24 hours, 7 days or 30 days.');
  expect((await t.db.query('SELECT 1 FROM play_limits WHERE user_id = $1 AND timeout_until IS NOT NULL', [id])).length).toBe(0);
  const done = await postLimits(agent, page.text, { intent: 'time-out', period: '7d', confirm: 'yes' });
  expect(done.status).toBe(303);
  expect(done.headers.location).toBe('/profile/limits?saved=timeOut');
  const after = await agent.get('/profile/limits?saved=timeOut').expect(200);
  expect(after.text).toContain('Your break has started.');
  expect(after.text).toContain('You are taking a break from play until');
  expect(after.text).toContain('Extend my break to');
  const shorter = await postLimits(agent, after.text, { intent: 'time-out', period: '24h', confirm: 'yes' });
  expect(shorter.status).toBe(409);
  expect(shorter.text).toContain('A break cannot be shortened or ended early');
  const refused = await buyOnPage(agent, lottery, '05-12-23-34-45-07');
  expect(refused.status).toBe(403);
  expect(refused.text).toContain('You are taking a break from play until');
  const bn = await agent.get('/profile/limits').set('Cookie', 'lang=bn').expect(200);
  expect(bn.text).toContain('বিরতি নিন');
  expect(bn.text).toContain('আপনি খেলা থেকে বিরতিতে আছেন, যতক্ষণ:');
  // Staff see it on the player's page, and its history.
  const staff = await pageAccount(t, { name: 'Support Officer', is_staff: true });
  const userPage = (await staff.agent.get(`/admin/users/${id}/edit`).expect(200)).text.replaceAll('<!-- -->', '');
  expect(userPage).toContain('<strong>On a break (time-out) until</strong>');
  expect(userPage).toContain('break (time-out) until');
});

test('staff see a player’s limits and exclusion on his user page, read only', async () => {
  const { agent, id } = await pageAccount(t, { name: 'Fatema Begum' });
  const page = await agent.get('/profile/limits').expect(200);
  await postLimits(agent, page.text, { intent: 'limits', month: '2000' }).expect(303);
  const staff = await pageAccount(t, { name: 'Support Officer', is_staff: true });
  const userPage = await staff.agent.get(`/admin/users/${id}/edit`);
  expect(userPage.status).toBe(200);
  expect(userPage.text).toContain('Spend limits, breaks and self-exclusion');
  expect(userPage.text).toContain('Not on a break.');
  expect(userPage.text).toContain('TK. 2,000');
  expect(userPage.text).toContain('Not self-excluded.');
  // The reality check: the default until the player chooses, then his choice, in the staff member's language.
  const text = (html: string) => html.replaceAll('<!-- -->', '');
  expect(text(userPage.text)).toContain('<dt>Reality check</dt><dd>Every hour (the default: the player has not chosen)</dd>');
  const again = await agent.get('/profile/limits').expect(200);
  await postLimits(agent, again.text, { intent: 'reality', interval_minutes: '30' }).expect(303);
  const chosen = await staff.agent.get(`/admin/users/${id}/edit`).set('Cookie', 'lang=bn').expect(200);
  expect(text(chosen.text)).toContain('<dt>খেলার সময় মনে করিয়ে দেওয়া</dt><dd>প্রতি ৩০ মিনিটে</dd>');
});
