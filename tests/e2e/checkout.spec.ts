/**
 * Paying with bKash's checkout (docs/rules/payments.md#3-paying-with-bkash-checkout), in Chromium, with and without
 * JavaScript: pick numbers, "Pay with bKash" on the ticket page, pay on the bKash simulator's page (the app serves it at
 * /_bkash outside production) with bKash's sandbox values, and come back to a confirmed ticket — no staff step.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, hydrated, login, test, type NewPlayer } from './helpers.ts';
import { payOnBkash } from './bkash.ts';
import { featuredLotteryId } from './pages.ts';

/** Five different main numbers and a last one, random so that journeys sharing the featured lottery do not collide. */
function randomTicket(): { main: number[]; last: number; text: string } {
  const main = new Set<number>();
  while (main.size < 5) main.add(1 + Math.floor(Math.random() * 55));
  const sorted = [...main].sort((a, b) => a - b);
  const last = 1 + Math.floor(Math.random() * 15);
  return { main: sorted, last, text: [...sorted, last].map((n) => String(n).padStart(2, '0')).join('-') };
}

/**
 * Picks a random ticket of the featured lottery with the picker, a plain GET form (the same with and without
 * JavaScript). With JavaScript the numbers are ticked once React has hydrated the picker: ticked before, they are
 * unticked again by the hydration, and its button waits for a whole selection that never comes.
 */
async function pickTicket(page: Page, request: APIRequestContext, js: boolean): Promise<string> {
  await page.goto(`/quick-play?lottery=${await featuredLotteryId(request)}&lng=en`);
  if (js) await hydrated(page);
  const picker = page
    .locator('main form')
    .filter({ has: page.locator('input[name="main"]') })
    .first();
  const ticket = randomTicket();
  for (const n of ticket.main) await picker.locator(`input[name="main"][value="${n}"]`).check({ force: true });
  await picker.locator(`input[name="last"][value="${ticket.last}"]`).check({ force: true });
  await picker.getByRole('button', { name: /quick play|confirm/i }).click();
  await expect(page).toHaveURL(new RegExp(`/quick-play/\\d+/${ticket.text}$`));
  return ticket.text;
}

/** The receipt's and My Lotteries' words in each language (docs/rules/payments.md#10-the-receipt). */
const WORDS = {
  en: { title: 'Ticket confirmed ✓', draw: 'Draw', trx: 'bKash TrxID', another: 'Buy another', mine: 'My tickets', confirmed: 'Confirmed' },
  bn: {
    title: 'টিকিট নিশ্চিত ✓',
    draw: 'ড্র',
    trx: 'বিকাশ ট্রানজেকশন আইডি (TrxID)',
    another: 'আরেকটি কিনুন',
    mine: 'আমার টিকিট',
    confirmed: 'নিশ্চিত',
  },
} as const;

const bengaliDigits = (s: string) => s.replace(/[0-9]/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!);

/**
 * Buys a ticket with bKash's checkout and comes back to its receipt (in `lng`: the purchase itself in English, the
 * receipt and My Lotteries read in the language chosen), then "My tickets": the ticket, confirmed.
 */
async function buyWithCheckout(page: Page, request: APIRequestContext, player: NewPlayer, lng: 'en' | 'bn', js: boolean): Promise<void> {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  const ticket = await pickTicket(page, request, js);

  await page
    .locator('.play-buy')
    .getByRole('button', { name: /^Pay .* with bKash$/ })
    .click();
  await payOnBkash(page, /৳|Tk|\d/);

  // bKash sends the browser back; the callback confirms the ticket and the purchase's page is its receipt.
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const payment = new URL(page.url()).pathname;
  if (lng === 'bn') await page.goto(`${payment}?lng=bn`);
  const w = WORDS[lng];
  const shown = lng === 'bn' ? bengaliDigits(ticket) : ticket;
  const main = page.locator('main');
  await expect(main.locator('h1')).toHaveText(w.title);
  await expect(main).not.toContainText(lng === 'en' ? 'Paying for your ticket' : 'টিকিটের পেমেন্ট');
  const receipt = main.locator('.payment__receipt');
  await expect(receipt).toContainText(shown);
  await expect(receipt.locator('dt')).toHaveText([w.draw, /.+/, w.trx]);
  await expect(receipt.locator('.payment__trx')).toHaveText(/^[A-Z0-9]{8,20}$/);
  await expect(receipt.locator('.summary__amount')).toContainText(/৳|TK/);
  await expect(main.getByRole('button', { name: /with bKash|বিকাশ/ })).toHaveCount(0);
  await expect(main.getByRole('link', { name: w.another })).toHaveAttribute('href', /^\/quick-play\?lottery=\d+$/);

  await main.getByRole('link', { name: w.mine }).click();
  await expect(page).toHaveURL(/\/my-lotteries$/);
  const card = page.locator('.my-ticket').filter({ hasText: shown });
  await expect(card.locator('.badge').first()).toHaveText(w.confirmed);
}

test('with JavaScript: pay with bKash on its page with the sandbox values, back to a confirmed ticket', async ({
  page,
  player,
  request,
  javaScriptEnabled,
}) => {
  await buyWithCheckout(page, request, player, 'en', javaScriptEnabled);
});

test('in Bengali: the receipt and My Lotteries in Bengali words and digits', async ({ page, player, request, javaScriptEnabled }) => {
  await buyWithCheckout(page, request, player, 'bn', javaScriptEnabled);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the same journey as plain forms and redirects', async ({ page, player, request, javaScriptEnabled }) => {
    await buyWithCheckout(page, request, player, 'en', javaScriptEnabled);
  });

  test('the same journey in Bengali', async ({ page, player, request, javaScriptEnabled }) => {
    await buyWithCheckout(page, request, player, 'bn', javaScriptEnabled);
  });

  test('cancelling on bKash’s page: no money, the numbers released, the way back to buy again', async ({
    page,
    player,
    request,
    javaScriptEnabled,
  }) => {
    await login(page, { identifier: player.phone, password: player.password, name: player.name });
    const ticket = await pickTicket(page, request, javaScriptEnabled);
    await page
      .locator('.play-buy')
      .getByRole('button', { name: /^Pay .* with bKash$/ })
      .click();
    await expect(page).toHaveURL(/\/_bkash\/checkout\//);
    await page.getByRole('button', { name: /^Cancel/ }).click();
    await expect(page).toHaveURL(/\/payment\/\d+$/);
    const main = page.locator('main');
    await expect(main).toContainText('You cancelled the payment on bKash. No money was taken');
    // A cancelled payment is no ticket: My Lotteries does not list it, not even as an unfinished payment.
    const payment = page.url();
    await page.goto('/my-lotteries');
    await expect(page.locator('main')).not.toContainText(ticket);
    await page.goto(payment);
    await main.getByRole('link', { name: 'Buy a ticket again' }).click();
    await expect(page).toHaveURL(new RegExp(`/quick-play/\\d+/${ticket}/buy$`));
    await expect(page.locator('.play-buy').getByRole('button', { name: /^Pay .* with bKash$/ })).toBeVisible();
  });
});
