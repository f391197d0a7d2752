/**
 * A time-out (docs/rules/play-safe.md#3a-time-out) on a 360 px phone: the player takes a 24-hour break on
 * /profile/limits ("Take a break", apart from "Self-exclude") and the ticket page refuses his purchase, saying until
 * when — with JavaScript in English, without it in Bengali and in English. The API's every path: tests/api/time-out.test.ts.
 */
import { expect, login, test } from './helpers.ts';
import { featuredLotteryId, randomTicket, useLanguage } from './pages.ts';

for (const [js, lng] of [
  [true, 'en'],
  [false, 'bn'],
  [false, 'en'],
] as const) {
  test.describe(`${js ? 'with' : 'without'} JavaScript, in ${lng === 'bn' ? 'Bengali' : 'English'}`, () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });

    test('a 24-hour break taken on the profile refuses a purchase on the ticket page', async ({ page, player, request }) => {
      await useLanguage(page, lng);
      await login(page, { identifier: player.phone, password: player.password });
      await page.goto('/profile/limits');
      const card = page.locator('section.play-safe__time-out');
      await expect(card.locator('h2')).toHaveText(lng === 'bn' ? 'বিরতি নিন' : 'Take a break');
      await expect(page.locator('section.play-safe__exclusion h2')).toHaveText(
        lng === 'bn' ? 'নিজেকে খেলা থেকে বিরত রাখুন' : 'Self-exclude',
      );
      // Without the box ticked: refused under it, nothing taken.
      await card.locator('input[value="24h"]').check();
      await card.locator('[type="submit"]').click();
      await expect(page.locator('section.play-safe__time-out .field__error')).toContainText(
        lng === 'bn' ? 'অনুগ্রহ করে নিশ্চিত করুন' : 'Please confirm that you understand',
      );
      const again = page.locator('section.play-safe__time-out');
      await again.locator('input[value="24h"]').check();
      await again.locator('input[name="confirm"]').check();
      await again.locator('[type="submit"]').click();
      await expect(page).toHaveURL(/\/profile\/limits\?saved=timeOut$/);
      await expect(page.locator('main')).toContainText(
        lng === 'bn' ? 'আপনি খেলা থেকে বিরতিতে আছেন, যতক্ষণ:' : 'You are taking a break from play until',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

      await page.goto(`/quick-play/${await featuredLotteryId(request)}/${randomTicket()}`);
      await page.locator('.play-buy [type="submit"]').last().click();
      await expect(page.locator('main')).toContainText(
        lng === 'bn' ? 'পর্যন্ত খেলা থেকে বিরতিতে আছেন' : 'You are taking a break from play until',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  });
}
