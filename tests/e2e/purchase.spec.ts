/**
 * Buying a ticket with JavaScript (docs/rules/lotteries-and-sales.md#7-buying-a-ticket): log in, pick numbers on the
 * home page, confirm the purchase with bKash, enter the TrxID on the payment page, and find the pending ticket in
 * My Lotteries. The no-JS form posts are covered by tests/api/purchase-pages.test.ts.
 */
import { fits } from './fits.ts';
import type { Locator } from '@playwright/test';
import { expect, hydrated, login, test } from './helpers.ts';
import { featuredLotteryId, useLanguage } from './pages.ts';

const ball = (scope: Locator, name: 'main' | 'last', n: number) =>
  scope.locator('label.pick').filter({ has: scope.page().locator(`input[name="${name}"][value="${n}"]`) });

/** Five different main numbers and a last number, random so that journeys sharing the featured lottery do not collide. */
function randomChoice(): { main: number[]; last: number } {
  const main = new Set<number>();
  while (main.size < 5) main.add(1 + Math.floor(Math.random() * 55));
  return { main: [...main].sort((a, b) => a - b), last: 1 + Math.floor(Math.random() * 15) };
}

test('a player picks numbers, buys with bKash, enters the TrxID and sees the pending ticket in My Lotteries', async ({ page, player }) => {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto('/?lng=en');
  await hydrated(page); // a number ticked before the picker hydrates is unticked again by it
  const panel = page.locator('#quick-play');
  const { main, last } = randomChoice();
  for (const n of main) await ball(panel, 'main', n).click();
  await ball(panel, 'last', last).click();
  await panel.getByRole('button', { name: 'Confirm Selection & Play' }).click();
  await expect(page).toHaveURL(/\/quick-play\/\d+\/[\d-]+$/);

  const buy = page.locator('.play-buy');
  await expect(buy).toContainText(player.name);
  await expect(buy.getByRole('radio', { name: 'bKash' })).toBeChecked();
  await expect(buy.getByRole('radio', { name: /Nagad/ })).toBeDisabled();
  await expect(buy.getByRole('radio', { name: /Rocket/ })).toBeDisabled();
  await buy.getByRole('button', { name: 'Send Money and enter the TrxID' }).click();

  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const main$ = page.locator('main');
  await expect(main$).toContainText('bKash receiver number');
  await expect(main$).toContainText('*247');
  const trx = `E2E${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  await main$.getByLabel('bKash transaction ID (TrxID)').fill(trx);
  await main$.getByRole('button', { name: 'Send TrxID' }).click();
  // A TrxID bKash does not know: it is asked at once and says so; the ticket stays pending for staff to check
  // (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
  await expect(main$).toContainText(`bKash could not confirm your TrxID ${trx}: bKash knows no transaction with this TrxID.`);

  await main$.getByRole('link', { name: 'Finish and go to my tickets' }).click();
  await expect(page).toHaveURL(/\/my-lotteries$/);
  const card = page.locator('.my-ticket').first();
  await expect(card).toContainText('Awaiting confirmation');
  await expect(card).toContainText('Not drawn yet.');
  const ticket = [...main.map((n) => String(n).padStart(2, '0')), String(last).padStart(2, '0')].join('-');
  await expect(card).toContainText(ticket);
});

test('with a purchase: the payment page (TrxID form) and a My Lotteries card fit a 360 px phone and pass axe, in both languages', async ({
  page,
  player,
  request,
}) => {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  const { main, last } = randomChoice();
  const ticket = [...main.map((n) => String(n).padStart(2, '0')), String(last).padStart(2, '0')].join('-');
  await page.goto(`/quick-play/${await featuredLotteryId(request)}/${ticket}`);
  await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const payment = new URL(page.url()).pathname;
  await page.setViewportSize({ width: 360, height: 740 });
  const problems: string[] = [];
  for (const lng of ['en', 'bn'] as const) {
    await useLanguage(page, lng);
    for (const path of [payment, '/my-lotteries']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      await fits(page, 360, `${lng} ${path}`, problems);
    }
  }
  expect(problems).toEqual([]);
});
