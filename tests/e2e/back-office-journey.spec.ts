/**
 * The whole money journey through the pages, staff and player side by side (issue 8's journey): staff create a
 * lottery in both languages, publish and feature it; a player buys a ticket through the pages and enters his TrxID;
 * staff approve it on /admin/transactions, propose it as the winner by hand and a second staff member approves the
 * draw, and the results are on the home page; staff
 * notify the winner (a message line in the server log); the player claims the prize with the code; a second staff
 * member approves the transfer (the prize is above PAYOUT_SECOND_APPROVAL_TK) and staff complete it on
 * /admin/prize-claims; the player sees "Transfer completed".
 */
import { readFileSync } from 'node:fs';
import { expect, login, readCode, serverLogPath, test } from './helpers.ts';
import { bearerOf, closeSales, randomTicket, secondStaff, STAFF, useLanguage } from './pages.ts';

test('create → publish and feature → buy → approve → draw → results → notify → claim → transfer completed', async ({
  browser,
  page,
  player,
  request,
}) => {
  test.setTimeout(180_000);
  const staffContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.9.${Date.now() % 250}.7` } });
  const staff = await staffContext.newPage();
  await useLanguage(staff, 'en');
  await login(staff, STAFF);

  // Staff create the lottery, published and featured, with its Bengali name.
  const name = `Teesta ${Date.now() % 100000}`;
  await staff.goto('/admin/create-lottery');
  const form = staff.locator('form.admin-form');
  await form.getByLabel('Name (English)').fill(name);
  await form.getByLabel('Name (Bengali)').fill('তিস্তা ড্র');
  await form.getByLabel('Total prize (৳)').fill('20000');
  // Ends after the demo's featured lotteries: the journeys that take the first featured lottery keep theirs.
  await form.getByLabel('End date').fill(new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10));
  await form.getByLabel('Published (players can see it)').check();
  await form.getByLabel('Featured (on the home page)').check();
  await form.getByRole('button', { name: 'Create lottery' }).click();
  // Shown the new lottery (its form, with the line that says it was created), then the list.
  await expect(staff).toHaveURL(/\/admin\/lotteries\/\d+\/edit\?notice=created$/);
  await staff.goto('/admin/lotteries');
  await staff.getByLabel('Search by name or description').fill(name);
  await staff.getByRole('button', { name: 'Apply' }).click();
  const card = staff.locator('.admin-card').filter({ hasText: name });
  await expect(card).toContainText('Active');
  await expect(card).toContainText('Featured');
  const lotteryId = Number(((await card.getByRole('link', { name: 'Edit' }).getAttribute('href')) ?? '').split('/')[3]);

  // The player buys a ticket through the pages and enters his TrxID.
  const ticket = randomTicket();
  await useLanguage(page, 'en');
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto(`/quick-play/${lotteryId}/${ticket}`);
  await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const trx = `BO${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  await page.getByLabel('bKash transaction ID (TrxID)').fill(trx);
  await page.getByRole('button', { name: 'Send TrxID' }).click();
  // A TrxID bKash does not know (the player shows a receipt instead): bKash cannot confirm it, staff check it by hand.
  await expect(page.locator('main')).toContainText(
    `bKash could not confirm your TrxID ${trx}: bKash knows no transaction with this TrxID.`,
  );

  // Staff propose approving it; a second staff member approves (docs/rules/payments.md#1-who-may-do-what).
  await staff.goto(`/admin/transactions?search=${trx}`);
  const sale = staff.locator('.admin-card:not(.admin-proposals .admin-card)').filter({ hasText: ticket });
  await expect(sale).toContainText(trx);
  await sale.getByLabel('Why approve it (the receipt you checked)').fill('Journey: receipt shown');
  await sale.getByRole('button', { name: 'Propose approval' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('Approval proposed');
  const secondLogin = await secondStaff(request);
  const checkerContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.7.${Date.now() % 250}.8` } });
  const checker = await checkerContext.newPage();
  await useLanguage(checker, 'en');
  await login(checker, secondLogin);
  await checker.goto('/admin/transactions');
  const proposal = checker.locator('.admin-proposals .admin-card').filter({ hasText: ticket });
  await proposal.getByLabel('Your reason').fill('Journey: receipt checked');
  await proposal.getByRole('button', { name: 'Approve' }).click();
  await expect(checker.locator('.toasts--top-right')).toContainText('Proposal approved');

  // Its sales end (winners are chosen by hand only after the close, from the tickets frozen then); staff propose its
  // winner by hand, and a second staff member (made by the demo superuser) approves it on the page.
  await closeSales(request, lotteryId);
  await staff.goto(`/admin/lotteries/${lotteryId}/draw`);
  const panel = staff.locator('.draw-select');
  await panel.getByLabel('Ticket').fill(ticket);
  await panel.getByRole('button', { name: 'Add Winner' }).click();
  await expect(panel.locator('.draw-chosen')).toContainText(ticket);
  await panel.getByLabel('Why by hand').fill('Journey: drawn by hand');
  await panel.getByRole('button', { name: 'Propose these winners' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('Winners proposed');
  await checker.goto(`/admin/lotteries/${lotteryId}/draw`);
  await checker.getByRole('button', { name: 'Approve and finish the draw' }).click();
  await expect(checker.locator('.toasts--top-right')).toContainText('Successfully Drawn Lottery');
  await checkerContext.close();

  // The results are on the home page.
  await page.goto('/');
  await expect(page.locator('#results')).toContainText(name);

  // Staff notify the winner: one message in the server's log.
  await staff.goto(`/admin/lotteries?search=${encodeURIComponent(name)}`);
  await staff.locator('.admin-card').filter({ hasText: name }).getByRole('link', { name: 'Notify Winners' }).click();
  await staff.getByRole('dialog', { name: 'Notify the winners?' }).getByRole('button', { name: 'Send messages' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('Winners notified successfully!');
  await expect
    .poll(() =>
      readFileSync(serverLogPath(), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"purpose":"winner"') && l.includes(player.phone)),
    )
    .toHaveLength(1);

  // The player claims the prize.
  await page.goto('/my-lotteries');
  const mine = page.locator('.my-ticket').filter({ hasText: name });
  await expect(mine).toContainText('Congratulations! You won');
  await mine.getByRole('link', { name: 'Add Payment Info' }).click();
  const claim = page.locator('form.claim-form');
  await claim.getByLabel('Account number').fill(player.phone);
  await claim.getByLabel('Account holder name').fill(player.name);
  await claim.getByRole('button', { name: 'Send code' }).click();
  await claim.getByLabel('Claim code').fill(await readCode(player.phone, 'claim'));
  await claim.getByRole('button', { name: 'Submit claim' }).click();
  await expect(page).toHaveURL(/\/my-lotteries\?notice=claimed$/);
  await expect(page.locator('.my-ticket').filter({ hasText: name })).toContainText('Details submitted');

  // TK. 20,000 is above PAYOUT_SECOND_APPROVAL_TK: the second staff member approves the
  // transfer, through the API (docs/rules/lotteries-and-sales.md#11-prize-claims); then staff pay it by bKash on the page.
  await staff.goto(`/admin/prize-claims?search=${encodeURIComponent(name)}`);
  const row = staff.locator('tr').filter({ hasText: name });
  await expect(row).toContainText('Details submitted');
  await expect(row).toContainText('Needs a second approval');
  await expect(row.getByRole('link', { name: 'Pay now by bKash' })).toHaveCount(0);
  const second = await bearerOf(request, secondLogin);
  const listed = await request.get(`/api/v1/admin/prize-claims/?search=${encodeURIComponent(name)}`, { headers: second });
  const claimId = ((await listed.json()) as { id: number }[])[0]!.id;
  const approved = await request.post(`/api/v1/admin/prize-claims/${claimId}/approve-transfer/`, { headers: second });
  expect(approved.ok(), await approved.text()).toBe(true);
  await staff.reload();
  await expect(row).toContainText('Approved by Second Officer');
  await row.getByRole('link', { name: 'Pay now by bKash' }).click();
  await staff.getByRole('dialog', { name: 'Pay this prize by bKash?' }).getByRole('button', { name: 'Pay now', exact: true }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('Payout sent to bKash');
  const paid = staff.locator('tr').filter({ hasText: name });
  await expect(paid).toContainText('Transfer completed');
  await expect(paid).toContainText(/Paid by bKash: TrxID [A-Z0-9]{10}/);
  const paidTrx = /TrxID ([A-Z0-9]{10})/.exec((await paid.textContent()) ?? '')?.[1] ?? '';
  await page.reload();
  await expect(page.locator('.my-ticket').filter({ hasText: name })).toContainText('Transfer completed');
  // The winner's notification names bKash's TrxID.
  await page.goto('/notifications');
  await expect(page.locator('main')).toContainText(`bKash TrxID ${paidTrx}`);
  await staffContext.close();
});
