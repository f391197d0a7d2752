/**
 * "Remember my bKash account" (docs/rules/payments.md#11-remembered-bkash-agreements), in Chromium, with and without
 * JavaScript: ticked with "Pay with bKash" on the ticket page, the player approves once on bKash's page (wallet, code,
 * PIN), pays that ticket with his PIN only, and his next ticket with one tap and the PIN; then he forgets the account on
 * his profile. In English and Bengali.
 */
import type { Page } from '@playwright/test';
import { payOnBkash, SANDBOX } from './bkash.ts';
import { expect, login, test } from './helpers.ts';
import { featuredLotteryId } from './pages.ts';

function randomTicket(): string {
  const main = new Set<number>();
  while (main.size < 5) main.add(1 + Math.floor(Math.random() * 55));
  const last = 1 + Math.floor(Math.random() * 15);
  return [...[...main].sort((a, b) => a - b), last].map((n) => String(n).padStart(2, '0')).join('-');
}

const WORDS = {
  en: {
    remember: 'Remember my bKash account',
    pay: /^Pay .* with bKash$/,
    receipt: 'Ticket confirmed ✓',
    using: 'From your remembered bKash account 0177*****75',
    forget: 'Forget this bKash account',
    forgotten: 'Your bKash account is forgotten.',
    remembered: 'Your bKash account 0177*****75 is remembered',
  },
  bn: {
    remember: 'আমার বিকাশ অ্যাকাউন্ট মনে রাখুন',
    pay: /বিকাশে .*পেমেন্ট করুন$/,
    receipt: 'টিকিট নিশ্চিত ✓',
    using: 'আপনার মনে রাখা বিকাশ অ্যাকাউন্ট 0177*****75 থেকে',
    forget: 'এই বিকাশ অ্যাকাউন্ট ভুলে যান',
    forgotten: 'আপনার বিকাশ অ্যাকাউন্ট আর মনে রাখা নেই।',
    remembered: 'আপনার বিকাশ অ্যাকাউন্ট 0177*****75',
  },
} as const;

/** bKash's page for a payment with the agreement: the PIN only, then back to the receipt. */
async function payWithPin(page: Page, lng: 'en' | 'bn'): Promise<void> {
  await expect(page).toHaveURL(/\/_bkash\/checkout\/TR0001/);
  await expect(page.getByLabel(/Your bKash account number/)).toHaveCount(0);
  await expect(page.locator('.bk-from')).toHaveText('0177*****75');
  await page.getByLabel(/Your bKash PIN/).fill(SANDBOX.pin);
  await page.getByRole('button', { name: /^Confirm/ }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  await expect(page.locator('main h1')).toHaveText(WORDS[lng].receipt);
}

async function journey(page: Page, lotteryId: number, player: { phone: string; password: string; name: string }, lng: 'en' | 'bn') {
  const w = WORDS[lng];
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto(`/quick-play/${lotteryId}/${randomTicket()}?lng=${lng}`);
  const form = page.locator('.play-buy');
  await form.getByLabel(w.remember).check();
  await form.getByRole('button', { name: w.pay }).click();
  // bKash's approval: wallet, code and PIN once; no amount on it.
  await expect(page).toHaveURL(/\/_bkash\/checkout\/TR0000/);
  await expect(page.locator('.bk-agreement')).toContainText('with your PIN only');
  await payOnBkash(page, /Agreement/);
  // Back at Bhagya, then at once bKash's page for the ticket itself: the PIN only.
  await payWithPin(page, lng);

  // The next ticket: one tap, the PIN.
  await page.goto(`/quick-play/${lotteryId}/${randomTicket()}?lng=${lng}`);
  await page.locator('.play-buy').getByRole('button', { name: w.pay }).click();
  await payWithPin(page, lng);

  // The profile's page: the account and "Forget".
  await page.goto(`/profile/bkash?lng=${lng}`);
  await expect(page.locator('main')).toContainText(w.remembered);
  await page.getByRole('button', { name: w.forget }).click();
  await expect(page).toHaveURL(/\/profile\/bkash\?saved=forgotten$/);
  await expect(page.locator('body')).toContainText(w.forgotten);
  await expect(page.locator('main')).not.toContainText('0177*****75');
}

test('with JavaScript, in Bengali: remembered at the first ticket, the PIN only for it and the next, then forgotten', async ({
  page,
  player,
  request,
}) => {
  await journey(page, await featuredLotteryId(request), player, 'bn');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('in English: the same journey as plain forms and redirects', async ({ page, player, request }) => {
    await journey(page, await featuredLotteryId(request), player, 'en');
  });
});
