/**
 * From a bought ticket to the prize (docs/rules/lotteries-and-sales.md#9-the-draw to #11-prize-claims), with
 * JavaScript: a player buys a ticket of a lottery the test makes (so the journeys sharing the demo lotteries keep
 * them open), staff approve it and finish the draw with it (through the API: the back-office pages come with
 * issue 8), the home page congratulates the player once per browser session, the claim page sends the code and takes
 * the payout details, My Lotteries shows Details submitted, and Transfer completed once staff complete the transfer.
 * The no-JS form posts are covered by tests/api/claim-pages.test.ts.
 */
import { fits } from './fits.ts';
import type { APIRequestContext } from '@playwright/test';
import { expect, login, readCode, test } from './helpers.ts';
import { drawByHand, randomTicket, sendMoney, STAFF, useLanguage } from './pages.ts';

type ListedLottery = { id: number; name: string; featured: boolean; purchasable: boolean; ticket_price: number };

/** Staff's API token (the demo staff account of the embedded database). */
async function staffToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/token/', { data: { phone: STAFF.identifier, password: STAFF.password } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { access: string }).access;
}

/** A lottery of the test's own, open for a week and not featured, so that the other journeys keep theirs. */
async function lotteryToDraw(request: APIRequestContext): Promise<ListedLottery> {
  const auth = { Authorization: `Bearer ${await staffToken(request)}` };
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
  const name = `Karatoa ${Date.now() % 1_000_000}`;
  const res = await request.post('/api/v1/lotteries/', {
    headers: auth,
    data: {
      name,
      name_bn: 'করতোয়া ড্র',
      winners: 1,
      ticket_price: 100,
      total_prize: 10000,
      start_date: day(-1),
      end_date: day(7),
      published: true,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as ListedLottery;
}

test('a winner is congratulated, claims his prize with a code and sees the transfer completed', async ({ page, player, request }) => {
  const lottery = await lotteryToDraw(request);
  const ticket = randomTicket();
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto(`/quick-play/${lottery.id}/${ticket}`);
  await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  // The player sends the price with Send Money and enters the TrxID: bKash confirms it, nobody else
  // (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
  const paid = await sendMoney(request, lottery.ticket_price, player.phone);
  await page.getByLabel('bKash transaction ID (TrxID)').fill(paid);
  await page.getByRole('button', { name: 'Send TrxID' }).click();
  // Confirmed at once: the page is the ticket's receipt (docs/rules/payments.md#10-the-receipt).
  await expect(page.locator('main h1')).toHaveText('Ticket confirmed ✓');
  await expect(page.locator('main .payment__trx')).toHaveText(paid);

  // Staff finish the draw with this ticket.
  const auth = { Authorization: `Bearer ${await staffToken(request)}` };
  const prize = await drawByHand(request, lottery.id, [ticket]);
  const prizeId = prize.prizes[0]?.id;

  // The home page congratulates once per browser session.
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'Congratulations!' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(lottery.name);
  await expect(dialog).toContainText('TK.');
  await dialog.locator('.congrats__actions').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.locator('#quick-play')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Congratulations!' })).toHaveCount(0);

  // My Lotteries: the win, and Add Payment Info.
  await page.goto('/my-lotteries');
  const card = page.locator('.my-ticket').filter({ hasText: lottery.name }).first();
  await expect(card).toContainText('Congratulations! You won');
  await card.getByRole('link', { name: 'Add Payment Info' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/prize-claim/${prizeId}$`));

  // The claim: details first (bank and branch only for a bank), then the code.
  const form = page.locator('form.claim-form');
  await expect(form.getByLabel('Bank name')).toBeHidden();
  await form.getByRole('radio', { name: 'Bank account' }).check();
  await expect(form.getByLabel('Bank name')).toBeVisible();
  await form.getByRole('radio', { name: 'Nagad' }).check();
  await expect(form.getByLabel('Bank name')).toBeHidden();
  await form.getByRole('button', { name: 'Send code' }).click();
  await expect(form.locator('.field__error').first()).toContainText('This field is required');
  await form.getByLabel('Account number').fill(player.phone);
  await form.getByLabel('Account holder name').fill(player.name);
  await form.getByRole('button', { name: 'Send code' }).click();
  // A toast at the top right (5 s), not an alert in the form: JavaScript is on.
  await expect(page.locator('.toasts--top-right')).toContainText('We sent a 6-digit claim code');
  await expect(form.locator('.alert--success')).toHaveCount(0);
  await expect(form).toContainText('You can ask for a new code in');
  const code = await readCode(player.phone, 'claim');
  await form.getByLabel('Claim code').fill(code);
  await form.getByRole('button', { name: 'Submit claim' }).click();

  await expect(page).toHaveURL(/\/my-lotteries\?notice=claimed$/);
  await expect(page.locator('.toasts--top-right')).toContainText('Your payment details were submitted');
  const claimed = page.locator('.my-ticket').filter({ hasText: lottery.name }).first();
  await expect(claimed).toContainText('Details submitted');
  await expect(claimed.getByRole('link', { name: 'Add Payment Info' })).toHaveCount(0);

  // Staff complete the transfer; the player sees it.
  const mine = await request.get(`/api/v1/my-winning-tickets/${prizeId}/`, {
    headers: {
      Authorization: `Bearer ${((await (await request.post('/api/token/', { data: { phone: player.phone, password: player.password } })).json()) as { access: string }).access}`,
    },
  });
  const claimId = ((await mine.json()) as { claim: { id: number } }).claim.id;
  // A transfer to Nagad is made by hand and recorded with its reference (docs/rules/lotteries-and-sales.md#11-prize-claims).
  const done = await request.patch(`/api/v1/admin/prize-claims/${claimId}/toggle-transfer/`, {
    headers: auth,
    data: { reference: 'NGD8812345' },
  });
  expect(done.ok(), await done.text()).toBe(true);
  await page.reload();
  await expect(page.locator('.my-ticket').filter({ hasText: lottery.name }).first()).toContainText('Transfer completed');

  // The claim page at a phone's width, in both languages: nothing wider than the screen, axe clean.
  await page.setViewportSize({ width: 360, height: 740 });
  const problems: string[] = [];
  for (const lng of ['en', 'bn'] as const) {
    await useLanguage(page, lng);
    for (const path of [`/user/prize-claim/${prizeId}`, '/my-lotteries']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      await fits(page, 360, `${lng} ${path}`, problems);
    }
  }
  expect(problems).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('pick numbers, log in when asked, buy with a TrxID; after the draw claim with the code as plain forms: Details submitted', async ({
    page,
    player,
    request,
  }) => {
    const lottery = await lotteryToDraw(request);
    // The picker of this lottery is a GET form; the ticket page asks for a login and comes back after it.
    await page.goto(`/quick-play?lottery=${lottery.id}&lng=en`);
    const picker = page
      .locator('main form')
      .filter({ has: page.locator('input[name="main"]') })
      .first();
    const main = [4, 15, 26, 37, 48];
    for (const n of main) await picker.locator(`input[name="main"][value="${n}"]`).check({ force: true });
    await picker.locator('input[name="last"][value="9"]').check({ force: true });
    await picker.getByRole('button', { name: /quick play|confirm/i }).click();
    const ticket = '04-15-26-37-48-09';
    await expect(page).toHaveURL(new RegExp(`/quick-play/${lottery.id}/${ticket}$`));
    await page.getByRole('link', { name: 'Log in to buy this ticket' }).click();
    await expect(page).toHaveURL(/\/login\?from=/);
    await login(page, { identifier: player.phone, password: player.password, name: player.name });
    await expect(page).toHaveURL(new RegExp(`/quick-play/${lottery.id}/${ticket}$`));
    await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
    await expect(page).toHaveURL(/\/payment\/\d+$/);
    const trx = await sendMoney(request, lottery.ticket_price, player.phone);
    await page.getByLabel('bKash transaction ID (TrxID)').fill(trx);
    await page.getByRole('button', { name: 'Send TrxID' }).click();
    // bKash confirmed the Send Money at once: the page is the ticket's receipt (docs/rules/payments.md#10-the-receipt).
    await expect(page.locator('main h1')).toHaveText('Ticket confirmed ✓');
    await expect(page.locator('main .payment__trx')).toHaveText(trx);
    await page.locator('main').getByRole('link', { name: 'My tickets' }).click();
    await expect(page.locator('.my-ticket').filter({ hasText: lottery.name }).locator('.badge').first()).toHaveText('Confirmed');

    // Staff draw it (the back office's own journeys are in back-office-journey.spec.ts).
    await drawByHand(request, lottery.id, [ticket]);

    await page.goto('/my-lotteries');
    const card = page.locator('.my-ticket').filter({ hasText: lottery.name });
    await expect(card).toContainText('Congratulations! You won');
    await card.getByRole('link', { name: 'Add Payment Info' }).click();
    const form = page.locator('form.claim-form');
    await form.getByRole('radio', { name: 'Bank account' }).check();
    await form.getByLabel('Account number').fill('1234 5678 90123');
    await form.getByLabel('Account holder name').fill(player.name);
    await form.getByLabel('Bank name').fill('Sonali Bank');
    await form.getByLabel('Branch name').fill('Motijheel');
    await form.getByRole('button', { name: 'Send code' }).click();
    await expect(page.locator('main')).toContainText('We sent a 6-digit claim code');
    await page
      .locator('form.claim-form')
      .getByLabel('Claim code')
      .fill(await readCode(player.phone, 'claim'));
    await page.locator('form.claim-form').getByRole('button', { name: 'Submit claim' }).click();
    await expect(page).toHaveURL(/\/my-lotteries\?notice=claimed$/);
    await expect(page.locator('main')).toContainText('Your payment details were submitted');
    await expect(page.locator('.my-ticket').filter({ hasText: lottery.name })).toContainText('Details submitted');
  });
});
