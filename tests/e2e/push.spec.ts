/**
 * "Notifications on this device" on /notifications (docs/rules/messages.md#6-push-notifications), on a 360 px phone, in
 * English and Bengali. With JavaScript the switch offers to turn notifications on for this device (the service worker
 * ready, the browser able to); without it a sentence says the switch needs JavaScript, and the kinds' form saves as a
 * plain post. Nothing wider than the screen, axe finds nothing serious. Subscribing itself needs a browser's push
 * service, which a test browser has none of: the API and the sending are covered by tests/api/push.test.ts.
 */
import type { Language } from '../../shared/i18n.ts';
import { fits } from './fits.ts';
import { expect, hydrated, login, test } from './helpers.ts';
import { useLanguage } from './pages.ts';

// The journeys about the service worker: it is blocked in the others (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const TEXTS = {
  en: {
    title: 'Notifications on this device',
    turnOn: 'Turn on notifications on this device',
    off: 'Notifications are off for this device.',
    noScript: 'Turning notifications on for this device needs JavaScript.',
    confirmations: 'Confirmations: when your ticket is confirmed or not, or your money is refunded',
    results: 'Results: when you win a prize',
    save: 'Save notification choices',
    saved: 'Your notification choices are saved.',
  },
  bn: {
    title: 'এই ডিভাইসে বিজ্ঞপ্তি',
    turnOn: 'এই ডিভাইসে বিজ্ঞপ্তি চালু করুন',
    off: 'এই ডিভাইসে বিজ্ঞপ্তি বন্ধ আছে।',
    noScript: 'এই ডিভাইসে বিজ্ঞপ্তি চালু করতে জাভাস্ক্রিপ্ট লাগে।',
    confirmations: 'নিশ্চিতকরণ: আপনার টিকিট নিশ্চিত হলে বা না হলে, অথবা টাকা ফেরত গেলে',
    results: 'ফলাফল: আপনি পুরস্কার জিতলে',
    save: 'বিজ্ঞপ্তির পছন্দ সংরক্ষণ করুন',
    saved: 'আপনার বিজ্ঞপ্তির পছন্দ সংরক্ষণ হয়েছে।',
  },
} as const satisfies Record<Language, Record<string, string>>;

for (const js of [true, false]) {
  for (const lng of ['en', 'bn'] as const) {
    test.describe(`${js ? 'with' : 'without'} JavaScript, in ${lng === 'en' ? 'English' : 'Bengali'}`, () => {
      test.use({ javaScriptEnabled: js, viewport: { width: 360, height: 740 } });
      const x = TEXTS[lng];

      test('the section shows the switch (or why not) and saves the kinds', async ({ page, player }) => {
        await useLanguage(page, lng);
        await login(page, { identifier: player.phone, password: player.password });
        await page.goto('/notifications');
        if (js) await hydrated(page);
        const section = page.locator('section#push');
        await expect(section.getByRole('heading', { level: 2 })).toHaveText(x.title);
        if (js) {
          await expect(section.getByRole('button', { name: x.turnOn })).toBeVisible({ timeout: 10_000 });
          await expect(section.getByRole('status')).toHaveText(x.off);
          await expect(section).not.toContainText(x.noScript);
        } else {
          await expect(section).toContainText(x.noScript);
          await expect(section.getByRole('button', { name: x.turnOn })).toHaveCount(0);
        }
        await expect(section.getByRole('checkbox', { name: x.results })).toBeChecked();
        await expect(section.getByRole('checkbox', { name: x.confirmations })).toBeChecked();
        const problems: string[] = [];
        await fits(page, 360, `push ${lng}`, problems, { axe: js });

        await section.getByRole('checkbox', { name: x.confirmations }).uncheck();
        await section.getByRole('button', { name: x.save }).click();
        await expect(page).toHaveURL(/\/notifications\?saved=push#push$/);
        // A toast with JavaScript, a notice in the section without it.
        await expect(page.getByText(x.saved).first()).toBeVisible();
        await page.goto('/notifications');
        await expect(page.locator('section#push').getByRole('checkbox', { name: x.confirmations })).not.toBeChecked();
        await expect(page.locator('section#push').getByRole('checkbox', { name: x.results })).toBeChecked();
        expect(problems).toEqual([]);
      });
    });
  }
}
