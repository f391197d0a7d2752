/**
 * Finding your way (docs/rules/pages.md#10-finding-your-way, decision 056): the player's tab bar on every player page
 * with the right tab marked, the same places in the header, neither the tab bar nor the footer on staff pages, and the
 * How to Play page in both languages.
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs, type Agent } from '../helpers/session.ts';

type Lng = 'en' | 'bn';
const common = (lng: Lng) =>
  JSON.parse(readFileSync(`locales/${lng}/common.json`, 'utf8')) as {
    nav: Record<'places' | 'play' | 'results' | 'myTickets' | 'account' | 'howToPlay', string>;
    footer: { howToPlay: string; quickLinks: string };
  };
type HowToPlay = {
  title: string;
  intro: string;
  steps: Record<string, { heading: string; picture: string; paragraphs: string[] }>;
};
const content = (lng: Lng) => JSON.parse(readFileSync(`locales/${lng}/content.json`, 'utf8')) as { howToPlay: HowToPlay };

/** React escapes text; texts are compared as they appear in the HTML. */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** The tab bar's markup, or null when the page has none. */
const tabBar = (page: string): string | null => {
  const start = page.indexOf('<nav class="tab-bar"');
  return start < 0 ? null : page.slice(start, page.indexOf('</nav>', start) + 6);
};
/** The tab bar's links: where each leads, whether it is marked current, and its label. */
const tabs = (bar: string) =>
  [...bar.matchAll(/<a class="([^"]*)"([^>]*)href="([^"]+)"[^>]*>.*?<span class="tab-bar__label">([^<]*)<\/span><\/a>/g)].map((m) => ({
    href: m[3],
    current: / is-current/.test(m[1] ?? '') && /aria-current="page"/.test(m[2] ?? ''),
    label: m[4],
  }));
const currentTab = (page: string) => {
  const bar = tabBar(page);
  if (!bar) throw new Error('no tab bar');
  const marked = tabs(bar).filter((x) => x.current);
  expect(marked.length).toBeLessThanOrEqual(1);
  // aria-current and the visible mark go together: no tab has one without the other.
  expect(bar.match(/aria-current="page"/g)?.length ?? 0).toBe(marked.length);
  expect(bar.match(/is-current/g)?.length ?? 0).toBe(marked.length);
  return marked[0]?.href ?? null;
};

let t: TestApp;
let player: Agent;
let staff: Agent;
let superuser: Agent;

beforeAll(async () => {
  t = await startTestApp();
  const p = await createUser(t, { name: 'Tab Player' });
  const s = await createUser(t, { name: 'Tab Staff', is_staff: true });
  const su = await createUser(t, { name: 'Tab Super', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [su.id]);
  player = await loginAs(t.url, p.phone, p.password);
  staff = await loginAs(t.url, s.phone, s.password);
  superuser = await loginAs(t.url, su.phone, su.password);
});
afterAll(async () => {
  await t.close();
});

const visitor = () => request(t.url);

describe('the tab bar on player pages', () => {
  test.each(['en', 'bn'] as const)('a visitor sees Play, Results, My tickets and Account (to the login page) in %s', async (lng) => {
    const page = (await visitor().get('/results').set('Cookie', `lang=${lng}`).expect(200)).text;
    const bar = tabBar(page);
    expect(bar).not.toBeNull();
    const nav = common(lng).nav;
    expect(bar).toContain(`aria-label="${nav.places}"`);
    expect(tabs(bar as string)).toEqual([
      { href: '/all-lotteries', current: false, label: nav.play },
      { href: '/results', current: true, label: nav.results },
      { href: '/my-lotteries', current: false, label: nav.myTickets },
      { href: '/login', current: false, label: nav.account },
    ]);
    // Inline pictures, no image to fetch; hidden from screen readers, the label names the link.
    expect(bar?.match(/<svg class="tab-bar__icon"[^>]*aria-hidden="true"/g)).toHaveLength(4);
    expect(bar).not.toContain('<img');
  });

  test.each([
    ['/all-lotteries', '/all-lotteries'],
    ['/results', '/results'],
    ['/results/check', '/results'],
    ['/login', '/login'],
    ['/register', '/login'],
    ['/', null],
    ['/faq', null],
    ['/how-to-play', null],
    ['/no-such-page', null],
    // An unknown draw's proof: the error page (views/root.tsx RootErrorBoundary) has the tab bar too.
    ['/results/999999', '/results'],
  ])('a visitor on %s: the current tab is %s', async (path, current) => {
    const res = await visitor().get(path);
    expect([200, 404]).toContain(res.status);
    expect(currentTab(res.text)).toBe(current);
  });

  test.each([
    ['/my-lotteries', '/my-lotteries'],
    ['/my-lotteries/activate', '/my-lotteries'],
    ['/profile', '/profile'],
    ['/profile/limits', '/profile'],
    ['/notifications', '/profile'],
    ['/all-lotteries', '/all-lotteries'],
    ['/results', '/results'],
    ['/', null],
  ])('a player on %s: the current tab is %s, Account leads to his profile', async (path, current) => {
    const page = (await player.get(path).expect(200)).text;
    expect(currentTab(page)).toBe(current);
    expect(tabs(tabBar(page) as string).map((x) => x.href)).toEqual(['/all-lotteries', '/results', '/my-lotteries', '/profile']);
  });

  test('the desktop header has the same places, the current one marked; a visitor has Login instead of Account', async () => {
    const header = (page: string) => page.slice(page.indexOf('<header class="top-bar'), page.indexOf('</header>'));
    const mine = header((await player.get('/my-lotteries').expect(200)).text);
    expect(mine).toMatch(
      /<li class="nav-links__place"><a class="active" aria-current="page" href="\/my-lotteries" data-discover="true">My tickets<\/a>/,
    );
    expect(mine).toMatch(/<li class="nav-links__place"><a href="\/all-lotteries"[^>]*>Play<\/a>/);
    expect(mine).toMatch(/<li class="nav-links__place"><a href="\/results"[^>]*>Results<\/a>/);
    expect(mine).toMatch(/<a class="nav-user" title="01\d{9}" href="\/profile"/);
    const profile = header((await player.get('/profile').expect(200)).text);
    expect(profile).toMatch(/<a class="nav-user is-current" aria-current="page" title="01\d{9}" href="\/profile"/);
    const anon = header((await visitor().get('/all-lotteries').expect(200)).text);
    expect(anon).toMatch(/<a class="active" aria-current="page" href="\/all-lotteries"[^>]*>Play<\/a>/);
    expect(anon).not.toContain('href="/my-lotteries"');
    expect(anon).toMatch(/href="\/login"/);
  });

  test('staff on a player page see the player’s tab bar and footer too', async () => {
    const page = (await staff.get('/results').expect(200)).text;
    expect(tabBar(page)).not.toBeNull();
    expect(page).toContain('<footer class="footer"');
  });
});

describe('staff pages keep their own shell', () => {
  test.each([
    ['staff', () => staff],
    ['a superuser', () => superuser],
  ])('%s: no tab bar and no player footer on /admin pages, the back office bar instead', async (_who, agent) => {
    for (const path of ['/admin/dashboard', '/admin/lotteries', '/admin/users', '/admin/no-such-page']) {
      const page = (await agent().get(path).expect(200)).text;
      expect(page).toContain('class="admin-nav"');
      expect(tabBar(page)).toBeNull();
      expect(page).not.toContain('class="footer"');
      expect(page).not.toContain(`aria-label="${common('en').footer.quickLinks}"`);
    }
  });

  test('a player or a visitor sent away from /admin lands on a page with the tab bar', async () => {
    const res = await player.get('/admin/dashboard');
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.text).not.toContain('class="admin-nav"');
    const anon = await visitor().get('/admin/dashboard');
    expect(anon.status).toBeGreaterThanOrEqual(300);
  });
});

describe('/how-to-play', () => {
  test.each(['en', 'bn'] as const)('renders in %s: its title, the four steps with their pictures named, and links', async (lng) => {
    const res = await visitor().get('/how-to-play').set('Cookie', `lang=${lng}`).expect(200);
    const page = res.text;
    const doc = content(lng).howToPlay;
    expect(page).toContain(`<html lang="${lng}"`);
    expect(page).toContain(`<h1>${html(doc.title)}</h1>`);
    expect(page).toContain(`<title>${html(doc.title)} · ${lng === 'en' ? 'Bhagya' : 'ভাগ্য'}</title>`);
    expect(page).toContain(`<meta name="description" content="${html(doc.intro)}"`);
    const steps = [...page.matchAll(/<li id="(\w+)" class="how-to-play__step"/g)].map((m) => m[1]);
    expect(steps).toEqual(['pick', 'pay', 'check', 'claim']);
    for (const [step, s] of Object.entries(doc.steps)) {
      expect(page).toContain(html(s.heading));
      // Each picture is an inline SVG named by its text (role="img" and aria-label), drawn on the server.
      expect(page).toMatch(new RegExp(`<svg class="how-to-play__picture"[^>]*role="img" aria-label="${html(s.picture)}"`));
      for (const p of s.paragraphs) expect(page).toContain(html(p));
      expect(step).toMatch(/^(pick|pay|check|claim)$/);
    }
    for (const href of ['/all-lotteries', '/results', '/my-lotteries']) expect(page).toContain(`<a href="${href}">`);
    // The step numbers in the page's digits.
    expect(page).toContain(lng === 'en' ? 'Step 1' : 'ধাপ ১');
    if (lng === 'bn') expect(page).not.toMatch(/Step \d/);
  });

  test('light: the pictures are inline and small, the page needs no image and no script of its own', async () => {
    const page = (await visitor().get('/how-to-play').expect(200)).text;
    const main = page.slice(page.indexOf('<main'), page.indexOf('</main>'));
    expect(main).not.toContain('<img');
    const svgs = [...main.matchAll(/<svg class="how-to-play__picture"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    expect(svgs).toHaveLength(4);
    for (const s of svgs) expect(s.length).toBeLessThan(2500);
  });

  test('the copy says what the app does now: bKash confirms at once, Send Money by its TrxID, claims from My tickets', () => {
    const doc = content('en').howToPlay;
    const pay = doc.steps.pay?.paragraphs.join(' ') ?? '';
    expect(pay).toContain('confirmed as soon as bKash completes the payment');
    expect(pay).toContain('We check the TrxID with bKash at once');
    expect(pay).not.toMatch(/staff (check|confirm) (the|your) payment and confirm/);
    expect(doc.steps.check?.paragraphs.join(' ')).toContain('How this draw was made');
    expect(doc.steps.claim?.paragraphs.join(' ')).toContain('Add Payment Info');
  });

  test('linked from the footer, the FAQ, Play Responsibly, My Lotteries when empty, and the menu', async () => {
    for (const lng of ['en', 'bn'] as const) {
      const faq = (await visitor().get('/faq').set('Cookie', `lang=${lng}`).expect(200)).text;
      const footer = faq.slice(faq.indexOf('<footer'));
      expect(footer).toContain(`<a href="/how-to-play" data-discover="true">${html(common(lng).footer.howToPlay)}</a>`);
      expect(footer).not.toContain(`<a href="/play-responsibly" data-discover="true">${html(common(lng).footer.howToPlay)}</a>`);
      const main = faq.slice(faq.indexOf('<main'), faq.indexOf('</main>'));
      expect(main).toContain('href="/how-to-play"');
      const header = faq.slice(faq.indexOf('<header class="top-bar'), faq.indexOf('</header>'));
      expect(header).toMatch(
        new RegExp(`<li class="nav-links__menu-only"><a class="" href="/how-to-play"[^>]*>${html(common(lng).nav.howToPlay)}</a>`),
      );
    }
    const play = (await visitor().get('/play-responsibly').expect(200)).text;
    expect(play.slice(play.indexOf('<main'), play.indexOf('</main>'))).toContain('<a href="/how-to-play">How to Play</a>');
    const empty = (await player.get('/my-lotteries').expect(200)).text;
    expect(empty).toMatch(/<a class="btn btn-ghost" href="\/how-to-play"/);
  });
});
