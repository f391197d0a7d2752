/**
 * The reality check (docs/rules/play-safe.md#7-reality-check) on a 360 px phone: a player whose session started two
 * hours ago (tests/e2e/reality-fixture.ts) sees the reminder of his time and spending on the ticket page, cannot buy
 * until he answers it, and buys once he chose "Continue playing", which brings him back to the page. With JavaScript
 * in English it is a modal dialog that Escape does not dismiss, "See my limits" leads to the limits page where the
 * reminder stays in the page and the interval is changed; without it in Bengali it is at the top of the page and the
 * ticket page shows the API's refusal. The API and the form posts are covered by tests/api/reality-check.test.ts.
 */
import { axeFindings } from './axe.ts';
import type { APIRequestContext } from '@playwright/test';
import { expect, hydrated, login, newPlayer, type NewPlayer, readCode, test } from './helpers.ts';
import { featuredLotteryId, randomTicket, useLanguage } from './pages.ts';
import { OLD_SESSION_EMAIL } from './reality-fixture.ts';

/** A verified player whose logins the journeys' database records as made two hours ago. */
async function playerWithOldSessions(request: APIRequestContext): Promise<NewPlayer> {
  const p = newPlayer();
  const email = `${OLD_SESSION_EMAIL}${p.phone}@example.com`;
  const signup = await request.post('/api/v1/signup/', {
    data: { name: p.name, email, phone: p.phone, password: p.password, date_of_birth: p.dateOfBirth, location: p.location },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const verify = await request.post('/api/v1/verify-otp/', { data: { identifier: p.phone, otp: await readCode(p.phone, 'account') } });
  expect(verify.ok(), await verify.text()).toBe(true);
  return { ...p, email };
}

const TEXTS = {
  en: {
    played: /You have been playing for 2 hours \d+ minutes? in this session\./,
    continue: 'Continue playing',
    limits: 'See my limits',
    refused: 'Please confirm that you want to continue playing before you buy more.',
  },
  bn: {
    played: /এই সেশনে আপনি ২ ঘণ্টা [০-৯]+ মিনিট ধরে খেলছেন।/,
    continue: 'খেলা চালিয়ে যান',
    limits: 'আমার সীমা দেখুন',
    refused: 'আরও কেনার আগে অনুগ্রহ করে নিশ্চিত করুন যে আপনি খেলা চালিয়ে যেতে চান।',
  },
} as const;

test.use({ viewport: { width: 360, height: 740 } });

test.describe('with JavaScript, in English', () => {
  test.use({ javaScriptEnabled: true });

  test('a modal reminder on the ticket page; its limits link, "Continue playing", then the purchase', async ({ page, request }) => {
    const who = await playerWithOldSessions(request);
    const x = TEXTS.en;
    await useLanguage(page, 'en');
    await login(page, { identifier: who.phone, password: who.password });
    const ticketPage = `/quick-play/${await featuredLotteryId(request)}/${randomTicket()}`;
    await page.goto(ticketPage);
    await hydrated(page);
    const dialog = page.locator('dialog.reality-check__dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(x.played);
    await expect(dialog).toContainText('Since you logged in you have bought 0 tickets for TK. 0 in all.');
    expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
    expect(await axeFindings(page)).toEqual([]);
    // Only its three choices make it go: Escape leaves it (modal, or back in the page should the browser close it).
    await page.keyboard.press('Escape');
    const main = page.locator('main');
    await expect(main.getByRole('button', { name: x.continue })).toBeVisible();
    await expect(main).toContainText(x.played);

    await main.getByRole('link', { name: x.limits }).click();
    await expect(page).toHaveURL(/\/profile\/limits$/);
    // On the limits page it stays in the page, beside the form that changes it.
    const inPage = page.locator('section.reality-check');
    await expect(inPage).toContainText(x.played);
    await expect(page.locator('dialog.reality-check__dialog')).toHaveCount(0);
    expect(await axeFindings(page)).toEqual([]);
    await inPage.getByRole('button', { name: x.continue }).click();
    await expect(page).toHaveURL(/\/profile\/limits$/);
    await expect(page.locator('.reality-check')).toHaveCount(0);

    const form = page.locator('form').filter({ has: page.locator('input[name="interval_minutes"]') });
    await form.getByLabel('Every 2 hours').check();
    await form.locator('[type="submit"]').click();
    await expect(page).toHaveURL(/\/profile\/limits\?saved=reality$/);
    await expect(page.locator('.toasts--top-right')).toContainText('Your reminder was saved. It applies at once.');
    await expect(form.getByLabel('Every 2 hours')).toBeChecked();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.goto(ticketPage);
    await hydrated(page);
    await expect(page.locator('.reality-check, .reality-check__dialog')).toHaveCount(0);
    await page.locator('.play-buy [type="submit"]').last().click();
    await expect(page).toHaveURL(/\/payment\/\d+/);
  });
});

test.describe('without JavaScript, in Bengali', () => {
  test.use({ javaScriptEnabled: false });

  test('the reminder at the top of the page; the purchase refused until "Continue playing", then made', async ({ page, request }) => {
    const who = await playerWithOldSessions(request);
    const x = TEXTS.bn;
    await useLanguage(page, 'bn');
    await login(page, { identifier: who.phone, password: who.password });
    await page.goto(`/quick-play/${await featuredLotteryId(request)}/${randomTicket()}`);
    const reminder = page.locator('main section.reality-check');
    await expect(reminder).toContainText(x.played);
    await expect(reminder).toContainText('লগইন করার পর থেকে আপনি ০টি টিকিট কিনেছেন, মোট ৳০।');
    await expect(reminder.getByRole('link', { name: x.limits })).toHaveAttribute('href', '/profile/limits');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.locator('.play-buy [type="submit"]').last().click();
    await expect(page.locator('main')).toContainText(x.refused);
    await page.locator('main section.reality-check').getByRole('button', { name: x.continue }).click();
    // Back on the page it was shown on, without it.
    await expect(page).toHaveURL(/\/quick-play\/\d+\/[\d-]+(\/buy)?$/);
    await expect(page.locator('.reality-check')).toHaveCount(0);
    await page.locator('.play-buy [type="submit"]').last().click();
    await expect(page).toHaveURL(/\/payment\/\d+/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
