/**
 * Finding your way on a phone (docs/rules/pages.md#10-finding-your-way, decision 056): a player at 360 px goes Play →
 * Results → My tickets → Account by the tab bar, in English and Bengali, with JavaScript and without it. Each tab
 * leads to its page and is then the current one (aria-current and a visible mark), the labels fit, nothing is wider
 * than the screen, and the tab bar covers nothing: at the bottom of the page the footer ends above it. Staff pages have
 * the back office's bar instead, and no player footer. The server-rendered markup is tested in tests/api/nav-pages.test.ts.
 */
import type { Page } from '@playwright/test';
import { expect, login, type NewPlayer, test } from './helpers.ts';
import { fits } from './fits.ts';
import { LANGUAGES, STAFF, useLanguage } from './pages.ts';

const WIDTH = 360;
test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });

const LABELS = {
  en: { play: 'Play', results: 'Results', tickets: 'My tickets', account: 'Account' },
  bn: { play: 'খেলুন', results: 'ফলাফল', tickets: 'আমার টিকিট', account: 'অ্যাকাউন্ট' },
} as const;

const tabBar = (page: Page) => page.locator('nav.tab-bar');

/** The tab bar is on screen, the named tab is the only current one, with its mark, and every label fits its tab. */
async function expectCurrent(page: Page, label: string, problems: string[]) {
  const bar = tabBar(page);
  await expect(bar).toBeVisible();
  const current = bar.locator('a[aria-current="page"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(label);
  await expect(current).toHaveClass(/is-current/);
  // The visible mark: a bar above the icon, not colour alone.
  const mark = await current.evaluate((a) => {
    const s = getComputedStyle(a, '::before');
    return { content: s.content, height: parseFloat(s.height) };
  });
  expect(mark.content).not.toBe('none');
  expect(mark.height).toBeGreaterThan(0);
  const crowded = await bar
    .locator('.tab-bar__label')
    .evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth).map((e) => e.textContent),
    );
  expect(crowded).toEqual([]);
  await fits(page, WIDTH, new URL(page.url()).pathname, problems, { axe: false });
}

/** Scrolled to the very end, the page's last content (the footer) ends above the tab bar, not under it. */
async function expectNothingCovered(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const [footerBottom, barTop] = await page.evaluate(() => [
    document.querySelector('footer.footer')?.getBoundingClientRect().bottom ?? Number.NaN,
    document.querySelector('nav.tab-bar')?.getBoundingClientRect().top ?? Number.NaN,
  ]);
  expect(footerBottom).toBeLessThanOrEqual(barTop + 1);
}

async function journey(page: Page, lng: 'en' | 'bn', player: NewPlayer) {
  const problems: string[] = [];
  const t = LABELS[lng];
  await useLanguage(page, lng);
  await login(page, { identifier: player.phone, password: player.password });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', lng);
  // The home page is no tab's: none is marked.
  await expect(tabBar(page).locator('a[aria-current]')).toHaveCount(0);

  for (const [label, path] of [
    [t.play, '/all-lotteries'],
    [t.results, '/results'],
    [t.tickets, '/my-lotteries'],
    [t.account, '/profile'],
  ] as const) {
    await tabBar(page).getByRole('link', { name: label }).click();
    await expect(page).toHaveURL((u) => u.pathname === path);
    await expectCurrent(page, label, problems);
  }
  await expectNothingCovered(page);
  expect(problems).toEqual([]);
}

for (const lng of LANGUAGES) {
  test(`a player goes Play → Results → My tickets → Account by the tab bar (${lng}, 360 px)`, async ({ page, player }) => {
    await journey(page, lng, player);
    // With JavaScript the axe audit of the tab bar's page too.
    const problems: string[] = [];
    await fits(page, WIDTH, 'profile', problems);
    expect(problems).toEqual([]);
  });

  test(`a visitor's Account tab leads to the login page, then marked current (${lng})`, async ({ page }) => {
    await useLanguage(page, lng);
    await page.goto('/results');
    await tabBar(page).getByRole('link', { name: LABELS[lng].account }).click();
    await expect(page).toHaveURL((u) => u.pathname === '/login');
    await expectCurrent(page, LABELS[lng].account, []);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  for (const lng of LANGUAGES) {
    test(`the same journey with plain links (${lng}, 360 px)`, async ({ page, player }) => {
      await journey(page, lng, player);
    });
  }
});

test('staff pages keep the back office bar: no player tab bar, no player footer', async ({ page }) => {
  await useLanguage(page, 'en');
  await login(page, STAFF);
  await page.goto('/admin/dashboard');
  await expect(page.locator('nav.admin-nav')).toBeVisible();
  await expect(tabBar(page)).toHaveCount(0);
  await expect(page.locator('footer.footer')).toHaveCount(0);
  // Back on a player page (the phone's bar names the link "Home", the sidebar "Back to home"), the player's tab bar and footer are there again.
  await page.locator('nav.admin-nav').getByRole('link', { name: /home/i }).click();
  await expect(page).toHaveURL((u) => u.pathname === '/');
  await expect(tabBar(page)).toBeVisible();
  await expect(page.locator('footer.footer')).toHaveCount(1);
});
