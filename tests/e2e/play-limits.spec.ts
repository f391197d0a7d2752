/**
 * Keeping play safe (docs/rules/play-safe.md) on a 360 px phone: the player sets a daily limit on /profile/limits and
 * the ticket page refuses a purchase over it with the API's message — with JavaScript in English, without it in
 * Bengali. The form posts and every purchase path are covered by tests/api/play-limits*.test.ts.
 */
import { expect, login, test } from './helpers.ts';
import { featuredLotteryId, randomTicket, useLanguage } from './pages.ts';

for (const [js, lng] of [
  [true, 'en'],
  [false, 'bn'],
] as const) {
  test.describe(js ? 'with JavaScript, in English' : 'without JavaScript, in Bengali', () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });

    test('a daily limit set on the profile refuses a purchase over it on the ticket page', async ({ page, player, request }) => {
      // The language first: a first visit's language chooser would cover the login form.
      await useLanguage(page, lng);
      await login(page, { identifier: player.phone, password: player.password });
      await page.goto('/profile');
      await page.locator(`a[href="/profile/limits"]`).first().click();
      await expect(page).toHaveURL(/\/profile\/limits$/);
      const limits = page.locator('form').filter({ has: page.locator('input[name="day"]') });
      await limits.locator('input[name="day"]').fill(lng === 'bn' ? '১' : '1');
      await limits.locator('[type="submit"]').click();
      await expect(page).toHaveURL(/\/profile\/limits\?saved=limits$/);
      // A toast with JavaScript, a notice in the page without it.
      await expect(page.locator(js ? '.toasts--top-right' : 'main')).toContainText(
        lng === 'bn' ? 'আপনার সীমা সংরক্ষণ করা হয়েছে' : 'Your limits were saved',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

      await page.goto(`/quick-play/${await featuredLotteryId(request)}/${randomTicket()}`);
      await page.locator('.play-buy [type="submit"]').last().click();
      await expect(page.locator('main')).toContainText(
        lng === 'bn'
          ? 'এই কেনাকাটায় আপনার দৈনিক খরচের সীমা ৳১ পার হয়ে যাবে'
          : 'This purchase would take you over your daily spend limit of TK. 1',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  });
}
