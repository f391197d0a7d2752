/**
 * The transactions page of the back office (docs/rules/lotteries-and-sales.md#8-transaction-states,
 * docs/rules/pages.md#9-back-office) with JavaScript: a player buys a ticket of an open lottery that is not featured
 * (the journeys sharing the featured one keep it open), staff find it on /admin/transactions, see that its TrxID is
 * missing and that a proposal waits for it; once the player has entered it, one staff member proposes approving it with a
 * reason and a second one approves the proposal (docs/rules/payments.md#1-who-may-do-what): the toasts say so and the
 * card shows Confirmed. The no-JS form posts are covered by
 * tests/api/admin-transactions-pages.test.ts.
 */
import type { APIRequestContext, Browser } from '@playwright/test';
import { expect, login, test } from './helpers.ts';
import { randomTicket, secondStaff, STAFF, useLanguage } from './pages.ts';

type ListedLottery = { id: number; name: string; featured: boolean; purchasable: boolean };

async function openLottery(request: APIRequestContext): Promise<ListedLottery> {
  const res = await request.get('/api/v1/published-lotteries/?limit=100');
  const open = ((await res.json()) as ListedLottery[]).filter((l) => l.purchasable && !l.featured);
  // The last one: the claim journey draws the first.
  const last = open.at(-1);
  if (!last) throw new Error('no open lottery that is not featured: the journey needs the demo data (SEED_DEMO)');
  return last;
}

/** A second staff member's page, logged in from an address of its own, in English. */
async function secondStaffPage(browser: Browser, request: APIRequestContext) {
  const who = await secondStaff(request);
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.8.${Date.now() % 250}.9` } });
  const page = await context.newPage();
  await useLanguage(page, 'en');
  await login(page, who);
  return { page, context };
}

test('one staff member proposes approving a player’s purchase on /admin/transactions, a second approves it: the card shows Confirmed', async ({
  browser,
  page,
  player,
  request,
}) => {
  const lottery = await openLottery(request);
  const ticket = randomTicket();
  await useLanguage(page, 'en');
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto(`/quick-play/${lottery.id}/${ticket}`);
  await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const transactionId = Number(new URL(page.url()).pathname.split('/')[2]);

  await page.context().clearCookies();
  await useLanguage(page, 'en');
  await login(page, STAFF);
  await page.goto('/admin/transactions');
  await page.getByLabel('Search by player, phone, email, ticket, TrxID or lottery').fill(ticket);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/search=/);
  // The transaction's own card (the open proposals above list it too, once proposed).
  const card = page.locator('.admin-card:not(.admin-proposals .admin-card)').filter({ hasText: ticket });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(player.name);
  await expect(card).toContainText(lottery.name);
  await expect(card).toContainText('Awaiting payment');
  await expect(card).toContainText('No TrxID given');
  // Approval needs the TrxID (docs/rules/lotteries-and-sales.md#8-transaction-states): Reject only, and why.
  await expect(card.getByRole('button', { name: 'Propose approval' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Reject' })).toBeVisible();
  await expect(card).toContainText('Propose approval is offered once the player has entered the TrxID bKash sent him.');

  // The player enters his TrxID (through the API, as the mobile app does); the card now offers a proposal.
  const token = await request.post('/api/token/', { data: { phone: player.phone, password: player.password } });
  const trx = `AT${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  const given = await request.patch(`/api/v1/transactions/${transactionId}/trx-id/`, {
    headers: { Authorization: `Bearer ${((await token.json()) as { access: string }).access}` },
    data: { trx_id: trx },
  });
  expect(given.ok()).toBe(true);
  await page.reload();
  await expect(card).toContainText(trx);

  // One person's word does not approve a payment: the first staff member proposes, with the receipt he checked.
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await card.getByLabel('Why approve it (the receipt you checked)').fill('Receipt shown: bKash SMS to our number');
  await card.getByRole('button', { name: 'Propose approval' }).click();
  await expect(page.locator('.toasts--top-right')).toContainText('Approval proposed: a second staff member must approve it.');
  await expect(card.locator('.badge').first()).toHaveText('Awaiting confirmation');
  await expect(card).toContainText('a second staff member decides it above');

  // A second staff member approves the proposal, with his own reason.
  const second = await secondStaffPage(browser, request);
  await second.page.goto('/admin/transactions');
  const proposal = second.page.locator('.admin-proposals .admin-card').filter({ hasText: ticket });
  await expect(proposal).toContainText('Receipt shown: bKash SMS to our number');
  await proposal.getByLabel('Your reason').fill('Checked the receipt against the wallet');
  await proposal.getByRole('button', { name: 'Approve' }).click();
  await expect(second.page.locator('.toasts--top-right')).toContainText('Proposal approved: the ticket is confirmed.');
  await second.context.close();

  await page.reload();
  await expect(card.locator('.badge').first()).toHaveText('Confirmed');
  await expect(card.getByRole('button', { name: 'Remove Approval' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Propose approval' })).toHaveCount(0);
  // The approved filter has it too.
  await page.getByLabel('Status').selectOption('success');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('.admin-card:not(.admin-proposals .admin-card)').filter({ hasText: ticket })).toContainText('Confirmed');
});
