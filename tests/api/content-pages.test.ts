import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { FAQ_CATALOGUE } from '../../views/content/faq-catalogue.ts';

type Doc = { title: string };
type Content = {
  faq: { title: string; noResults: string; items: Record<string, { q: string; a: string }> };
  playResponsibly: Doc;
  notice: Doc;
  terms: Doc;
  about: Doc;
};
const content = (lng: 'en' | 'bn') => JSON.parse(readFileSync(`locales/${lng}/content.json`, 'utf8')) as Content;
const common = (lng: 'en' | 'bn') =>
  JSON.parse(readFileSync(`locales/${lng}/common.json`, 'utf8')) as {
    pages: { profile: { title: string }; myLotteries: { title: string; emptyTitle: string } };
  };
const en = content('en');
const bn = content('bn');

/** React escapes text; the titles are compared as they appear in the HTML. */
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
/** The question ids an FAQ page shows, in order. */
const faqIds = (page: string) => [...page.matchAll(/<details id="([^"]+)"/g)].map((m) => m[1]);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('content pages are public and bilingual', () => {
  const pages: [string, keyof Content][] = [
    ['/faq', 'faq'],
    ['/play-responsibly', 'playResponsibly'],
    ['/notice', 'notice'],
    ['/terms-conditions', 'terms'],
    ['/about', 'about'],
  ];

  test.each(pages)('%s answers 200 in English with its title', async (path, key) => {
    const res = await request(t.url).get(path).expect(200);
    expect(res.text).toContain(`<h1>${html(en[key].title)}</h1>`);
    expect(res.text).toContain(`<title>${html(en[key].title)} · Bhagya</title>`);
  });

  test.each(pages)('%s answers 200 in Bengali with its title', async (path, key) => {
    const res = await request(t.url).get(path).set('Cookie', 'lang=bn').expect(200);
    expect(res.text).toContain('<html lang="bn"');
    expect(res.text).toContain(`<h1>${html(bn[key].title)}</h1>`);
    expect(res.text).toContain(`<title>${html(bn[key].title)} · ভাগ্য</title>`);
  });

  test('a text that ends with a link names its page: the results archive on the home page, the limits on Play Responsibly', async () => {
    for (const [lng, archive, limits] of [
      ['en', 'See all results', 'Set your limits or take a break'],
      ['bn', 'সব ফলাফল দেখুন', 'সীমা ঠিক করুন বা বিরতি নিন'],
    ] as const) {
      const home = (await request(t.url).get('/').set('Cookie', `lang=${lng}`).expect(200)).text;
      expect(home).toMatch(new RegExp(`<a href="/results"[^>]*>${archive}</a>`));
      const play = (await request(t.url).get('/play-responsibly').set('Cookie', `lang=${lng}`).expect(200)).text;
      expect(play).toContain(`<a href="/profile/limits">${limits}</a>`);
    }
  });

  test('terms and notice get a table of contents linking to their sections, the about page none', async () => {
    const terms = (await request(t.url).get('/terms-conditions').expect(200)).text;
    expect(terms).toContain('href="#section-1"');
    expect(terms).toContain('id="section-11"');
    expect(terms).toMatch(/Last updated: /);
    const about = (await request(t.url).get('/about').expect(200)).text;
    expect(about).not.toContain('href="#section-1"');
  });
});

describe('FAQ filters by category and search through the URL', () => {
  test('without filters it shows all ten questions', async () => {
    const res = await request(t.url).get('/faq').expect(200);
    expect(faqIds(res.text)).toEqual(FAQ_CATALOGUE.map((i) => i.id));
  });

  test('a category shows only its questions and marks its chip as current', async () => {
    const res = await request(t.url).get('/faq?category=tickets').expect(200);
    expect(faqIds(res.text)).toEqual(FAQ_CATALOGUE.filter((i) => i.category === 'tickets').map((i) => i.id));
    expect(res.text).toMatch(/<a class="chip" aria-current="page" href="\/faq\?category=tickets"/);
    expect(res.text.match(/aria-current="page" href="\/faq\?/g)).toHaveLength(1);
  });

  test('an unknown category falls back to all questions', async () => {
    const res = await request(t.url).get('/faq?category=nope').expect(200);
    expect(faqIds(res.text)).toHaveLength(FAQ_CATALOGUE.length);
  });

  test('search is case-insensitive over questions and answers', async () => {
    const res = await request(t.url).get('/faq?q=BKASH').expect(200);
    const ids = faqIds(res.text);
    expect(ids).toEqual(expect.arrayContaining(['what-is-bhagya', 'how-to-buy-ticket', 'how-to-claim-prize']));
    expect(ids).not.toContain('forgot-password');
    expect(res.text).toContain('<mark>bKash</mark>');
  });

  test('every word of the search must match, within the chosen category', async () => {
    const res = await request(t.url).get('/faq?category=account&q=codes+EXPIRE').expect(200);
    expect(faqIds(res.text)).toEqual(['forgot-password']);
    const other = await request(t.url).get('/faq?category=tickets&q=codes+expire').expect(200);
    expect(faqIds(other.text)).toEqual([]);
  });

  test('a search in Bengali finds Bengali questions, and ASCII digits match Bengali ones', async () => {
    const words = await request(t.url)
      .get(`/faq?q=${encodeURIComponent('পাসওয়ার্ড')}`)
      .set('Cookie', 'lang=bn')
      .expect(200);
    expect(faqIds(words.text)).toContain('forgot-password');
    const digits = await request(t.url).get('/faq?q=16').set('Cookie', 'lang=bn').expect(200);
    expect(faqIds(digits.text)).toEqual(['activate-ticket']);
  });

  test('no match shows the empty message and a way back to all questions', async () => {
    const res = await request(t.url).get('/faq?q=zzzqqq').expect(200);
    expect(faqIds(res.text)).toEqual([]);
    expect(res.text).toContain(html(en.faq.noResults));
    expect(res.text).toContain('Show all questions');
    const resBn = await request(t.url).get('/faq?q=zzzqqq').set('Cookie', 'lang=bn').expect(200);
    expect(resBn.text).toContain(html(bn.faq.noResults));
  });

  test('the search is a GET form, so it works without JavaScript', async () => {
    const res = await request(t.url).get('/faq?category=prizes').expect(200);
    const form = /<form[^>]*role="search"[^>]*>/.exec(res.text)?.[0] ?? '';
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/faq"');
    expect(res.text).toContain('<input type="hidden" name="category" value="prizes"/>');
    expect(res.text).toMatch(/<input[^>]*type="search"[^>]*name="q"/);
  });
});

describe('player pages need a session', () => {
  test.each(['/profile', '/my-lotteries'])('%s sends a visitor to the login with from', async (path) => {
    const res = await request(t.url).get(path);
    expect([302, 303]).toContain(res.status);
    expect(res.headers.location).toBe(`/login?from=${encodeURIComponent(path)}`);
  });

  test('profile shows the logged-in player his own data', async () => {
    const u = await createUser(t, { name: 'Rahima Akter', email: 'rahima@example.com', phone: '01712345678' });
    await t.db.query(`UPDATE users SET location = 'Sylhet', date_joined = '2026-03-04T20:30:00Z' WHERE id = $1`, [u.id]);
    const agent = await loginAs(t.url, u.phone, u.password);
    const res = await agent.get('/profile').expect(200);
    for (const text of [
      'Rahima Akter',
      'rahima@example.com',
      '01712345678',
      'Sylhet',
      '5 Mar 2026',
      html(common('en').pages.profile.title),
    ])
      expect(res.text).toContain(text);
    // The Edit Profile dialog opens from its own address (tests/api/profile-pages.test.ts); it is closed here.
    expect(res.text).toMatch(/<a [^>]*href="\/profile\/edit"[^>]*>Edit Profile<\/a>/);
    expect(res.text).not.toContain('<dialog id="edit-profile"');

    await agent.get('/profile?lng=bn').expect(303); // the agent keeps the language cookie with its session
    const resBn = await agent.get('/profile').expect(200);
    expect(resBn.text).toContain(common('bn').pages.profile.title);
    expect(resBn.text).toContain('০১৭১২৩৪৫৬৭৮');
    expect(resBn.text).toContain('৫ মার্চ ২০২৬'); // 20:30 UTC is already the 5th in Dhaka
  });

  test('a session whose account is gone ends: profile sends the browser to log in and clears the cookie', async () => {
    const u = await createUser(t);
    const agent = await loginAs(t.url, u.phone, u.password);
    await t.db.query('DELETE FROM users WHERE id = $1', [u.id]);
    const res = await agent.get('/profile').expect(303);
    expect(res.headers.location).toBe('/login?from=%2Fprofile');
    expect(String(res.headers['set-cookie'])).toMatch(/bh_session=;/);
  });

  test('my lotteries shows the logged-in player an honest empty state in both languages', async () => {
    const u = await createUser(t);
    const agent = await loginAs(t.url, u.phone, u.password);
    const res = await agent.get('/my-lotteries').expect(200);
    expect(res.text).toContain(html(common('en').pages.myLotteries.emptyTitle));
    expect(res.text).toContain('href="/all-lotteries"');
    await agent.get('/my-lotteries?lng=bn').expect(303);
    const resBn = await agent.get('/my-lotteries').expect(200);
    expect(resBn.text).toContain(common('bn').pages.myLotteries.title);
  });
});
