/**
 * Messages to players on a 360 px phone (docs/rules/messages.md#5-the-pages): a player buys a ticket, staff approve it
 * (API), the bell in his top bar counts one unread message, he opens it and reads "Ticket confirmed", after which the
 * bell has no count; he saves his message settings on /profile. In English and Bengali, with JavaScript and without;
 * nothing wider than the screen, axe finds nothing serious. The pages' posts, paging and refusals are covered by
 * tests/api/notifications-pages.test.ts.
 */
import type { Page } from '@playwright/test';
import type { Language } from '../../shared/i18n.ts';
import { expect, hydrated, login, test } from './helpers.ts';
import { lotteryWithSale, STAFF, useLanguage } from './pages.ts';
import { fits } from './fits.ts';

const TEXTS = {
  en: {
    bell: 'Notifications',
    bellOne: 'Notifications, 1 unread',
    one: '1',
    title: 'Notifications',
    confirmed: 'Ticket confirmed',
    isNew: 'New:',
    open: 'Open',
    settings: 'Message settings',
    newLottery: 'News of a new lottery of a kind I played',
    save: 'Save message settings',
    saved: 'Your message settings were saved.',
  },
  bn: {
    bell: 'বিজ্ঞপ্তি',
    bellOne: 'বিজ্ঞপ্তি, ১টি অপঠিত',
    one: '১',
    title: 'বিজ্ঞপ্তি',
    confirmed: 'টিকিট নিশ্চিত',
    isNew: 'নতুন:',
    open: 'খুলুন',
    settings: 'বার্তার সেটিংস',
    newLottery: 'আমি খেলেছি এমন ধরনের নতুন লটারির খবর',
    save: 'বার্তার সেটিংস সংরক্ষণ করুন',
    saved: 'আপনার বার্তার সেটিংস সংরক্ষণ করা হয়েছে।',
  },
} as const satisfies Record<Language, Record<string, string>>;

const bell = (page: Page) => page.locator('header.top-bar a.bell');

for (const js of [true, false]) {
  for (const lng of ['en', 'bn'] as const) {
    test.describe(`${js ? 'with' : 'without'} JavaScript, in ${lng === 'en' ? 'English' : 'Bengali'}`, () => {
      test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      const x = TEXTS[lng];

      test('an approved ticket rings the bell; the notifications page shows it and reads it', async ({ page, player, request }) => {
        test.setTimeout(90_000);
        // The language first: a first visit's language chooser would cover the login form.
        await useLanguage(page, lng);
        await login(page, { identifier: player.phone, password: player.password });
        const name = `Bell Draw ${player.phone.slice(-5)}`;
        await lotteryWithSale(request, player, name);

        // My Lotteries (a hydrated page with JavaScript; the home page is islands only): the bell opens the page in the browser.
        await page.goto('/my-lotteries');
        if (js) await hydrated(page);
        // On a phone the bell is in the bar itself, not in the closed menu.
        await expect(bell(page)).toBeVisible();
        await expect(bell(page)).toHaveAccessibleName(x.bellOne);
        await expect(bell(page).locator('.bell__count')).toHaveText(x.one);

        await bell(page).click();
        await expect(page).toHaveURL(/\/notifications$/);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.title);
        const message = page.locator('article.message').first();
        await expect(message.getByRole('heading', { level: 3 })).toHaveText(`${x.isNew} ${x.confirmed}`);
        await expect(message).toContainText(lng === 'bn' ? `${name} ড্র` : name);
        await expect(message.getByRole('link', { name: new RegExp(`^${x.open}`) })).toHaveAttribute('href', '/my-lotteries');
        // The page read it: the bell has no count any more, while the page still marks the message as new.
        await expect(message).toHaveClass(/is-unread/);
        await expect(bell(page)).toHaveAccessibleName(x.bell);
        await expect(bell(page).locator('.bell__count')).toHaveCount(0);
        const problems: string[] = [];
        await fits(page, 360, `notifications ${lng}`, problems, { axe: js });

        // Leaving the page: the bell stays without a count; the message is no longer new.
        await page.getByRole('link', { name: x.settings }).click();
        await expect(page).toHaveURL(/\/profile#messages$/);
        await expect(bell(page).locator('.bell__count')).toHaveCount(0);
        await page.goto('/notifications');
        await expect(page.locator('article.message').first()).not.toHaveClass(/is-unread/);
        expect(problems).toEqual([]);
      });

      test('the message settings on the profile are saved', async ({ page, player }) => {
        await useLanguage(page, lng);
        await login(page, { identifier: player.phone, password: player.password });
        await page.goto('/profile');
        if (js) await hydrated(page);
        const section = page.locator('section#messages');
        const language = lng === 'en' ? 'বাংলা' : 'English';
        await section.getByRole('radio', { name: language }).check();
        await section.getByRole('checkbox', { name: x.newLottery }).check();
        await section.getByRole('button', { name: x.save }).click();
        await expect(page).toHaveURL(/\/profile\?saved=messages#messages$/);
        // A toast with JavaScript, a notice in the section without it.
        await expect(page.getByText(x.saved).first()).toBeVisible();
        const problems: string[] = [];
        await fits(page, 360, `profile ${lng}`, problems, { axe: js });
        expect(problems).toEqual([]);

        await page.goto('/profile');
        await expect(page.locator('section#messages').getByRole('radio', { name: language })).toBeChecked();
        await expect(page.locator('section#messages').getByRole('checkbox', { name: x.newLottery })).toBeChecked();
      });
    });
  }
}

test('the bell fits the one-line bar at 1280 px, for staff in Bengali (the most links)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await useLanguage(page, 'bn');
  await login(page, STAFF);
  await page.goto('/');
  await expect(bell(page)).toBeVisible();
  const box = await bell(page).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  // Nothing in the bar sits on the bell.
  const overlaps = await page.evaluate(() => {
    const b = document.querySelector('header.top-bar a.bell')?.getBoundingClientRect();
    if (!b) return ['no bell'];
    return [...document.querySelectorAll('header.top-bar .nav-links a, header.top-bar .nav-actions > *')]
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top)
      .map(({ e }) => e.textContent ?? '');
  });
  expect(overlaps).toEqual([]);
});
