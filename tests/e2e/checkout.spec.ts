/**
 * Paying with bKash's checkout (docs/rules/payments.md#3-paying-with-bkash-checkout), in Chromium, with and without
 * JavaScript: pick numbers, "Pay with bKash" on the ticket page, pay on the bKash simulator's page (the app serves it at
 * /_bkash outside production) with bKash's sandbox values, and come back to a confirmed ticket — no staff step.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, login, test, type NewPlayer } from './helpers.ts';
import { featuredLotteryId } from './pages.ts';

/** bKash's published sandbox values, which the simulator accepts (docs/rules/bkash.md). */
const SANDBOX = { wallet: '01770618575', code: '123456', pin: '12121' };

/** Five different main numbers and a last one, random so that journeys sharing the featured lottery do not collide. */
function randomTicket(): { main: number[]; last: number; text: string } {
  const main = new Set<number>();
  while (main.size < 5) main.add(1 + Math.floor(Math.random() * 55));
  const sorted = [...main].sort((a, b) => a - b);
  const last = 1 + Math.floor(Math.random() * 15);
  return { main: sorted, last, text: [...sorted, last].map((n) => String(n).padStart(2, '0')).join('-') };
}

/** On the simulator's pages: wallet, code, PIN, each confirmed. */
async function payOnBkash(page: Page, amount: RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/_bkash\/checkout\//);
  await expect(page.locator('body')).toContainText(amount);
  for (const [label, value] of [
    [/Your bKash account number/, SANDBOX.wallet],
    [/Verification code/, SANDBOX.code],
    [/Your bKash PIN/, SANDBOX.pin],
  ] as const) {
    await page.getByLabel(label).fill(value);
    await page.getByRole('button', { name: /^Confirm/ }).click();
  }
}

/** Picks a random ticket of the featured lottery with the picker, a plain GET form (the same with and without JavaScript). */
async function pickTicket(page: Page, request: APIRequestContext): Promise<string> {
  await page.goto(`/quick-play?lottery=${await featuredLotteryId(request)}&lng=en`);
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

async function buyWithCheckout(page: Page, request: APIRequestContext, player: NewPlayer): Promise<void> {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  const ticket = await pickTicket(page, request);

  await page
    .locator('.play-buy')
    .getByRole('button', { name: /^Pay .* with bKash$/ })
    .click();
  await payOnBkash(page, /৳|Tk|\d/);

  // bKash sends the browser back; the callback confirms the ticket and shows the purchase's payment page.
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const main = page.locator('main');
  await expect(main).toContainText('Paid — your ticket is confirmed. bKash TrxID:');
  await expect(main.getByRole('button', { name: /with bKash/ })).toHaveCount(0);

  await main.getByRole('link', { name: 'Finish and go to my tickets' }).click();
  await expect(page).toHaveURL(/\/my-lotteries$/);
  const card = page.locator('.my-ticket').filter({ hasText: ticket });
  await expect(card).toContainText('Confirmed');
}

test('with JavaScript: pay with bKash on its page with the sandbox values, back to a confirmed ticket', async ({
  page,
  player,
  request,
}) => {
  await buyWithCheckout(page, request, player);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the same journey as plain forms and redirects', async ({ page, player, request }) => {
    await buyWithCheckout(page, request, player);
  });

  test('cancelling on bKash’s page: no money, the numbers released, the way back to buy again', async ({ page, player, request }) => {
    await login(page, { identifier: player.phone, password: player.password, name: player.name });
    const ticket = await pickTicket(page, request);
    await page
      .locator('.play-buy')
      .getByRole('button', { name: /^Pay .* with bKash$/ })
      .click();
    await expect(page).toHaveURL(/\/_bkash\/checkout\//);
    await page.getByRole('button', { name: /^Cancel/ }).click();
    await expect(page).toHaveURL(/\/payment\/\d+$/);
    const main = page.locator('main');
    await expect(main).toContainText('You cancelled the payment on bKash. No money was taken');
    await main.getByRole('link', { name: 'Buy a ticket again' }).click();
    await expect(page).toHaveURL(new RegExp(`/quick-play/\\d+/${ticket}/buy$`));
    await expect(page.locator('.play-buy').getByRole('button', { name: /^Pay .* with bKash$/ })).toBeVisible();
  });
});
