/**
 * The back office's draw (docs/rules/lotteries-and-sales.md#9-the-draw) with JavaScript: staff propose a lottery's
 * winner by hand on /admin/lotteries/{id}/draw after a player's ticket was approved, a second staff member approves
 * it there, staff see the results, and notify the
 * winners from the lotteries list (a message line in the server's log); the draw page fits a 360 px phone and a
 * 1280 px desktop in both languages, axe clean. Each test makes its own lottery through the staff API, so the other
 * journeys keep theirs. The no-JS posts are covered by tests/api/draw-pages.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fits } from './fits.ts';
import { expect, login, serverLogPath, test } from './helpers.ts';
import { closeSales, drawByHand, lotteryWithSale, secondStaff, STAFF, useLanguage } from './pages.ts';

test('staff propose winners by hand, a second staff member approves, the results and the winner notified', async ({
  browser,
  page,
  player,
  request,
}) => {
  // The journey withholds the prize by two as well (two staff members, two browsers).
  test.setTimeout(120_000);
  const name = `Jamuna ${Date.now() % 100000}`;
  const lottery = await lotteryWithSale(request, player, name);
  await useLanguage(page, 'en');
  await login(page, STAFF);
  // While sales are open the page says why winners cannot be chosen yet; they are chosen after the end of sales.
  await page.goto(`/admin/lotteries/${lottery.id}/draw`);
  await expect(page.locator('.draw-select')).toContainText('winners are chosen by hand only after the end of sales');
  await expect(page.getByRole('button', { name: 'Propose these winners' })).toHaveCount(0);
  await closeSales(request, lottery.id);
  await page.goto('/admin/lotteries');
  await page.getByLabel('Search by name or description').fill(name);
  await page.getByRole('button', { name: 'Apply' }).click();
  const card = page.locator('.admin-card').filter({ hasText: name });
  // Not drawn yet: Notify Winners is there, but disabled.
  await expect(card.getByRole('button', { name: 'Notify Winners' })).toBeDisabled();
  await card.getByRole('link', { name: 'Draw' }).click();

  await expect(page).toHaveURL(new RegExp(`/admin/lotteries/${lottery.id}/draw$`));
  await expect(page.locator('h1')).toHaveText(`Draw: ${name}`);
  const participants = page.getByRole('region', { name: 'Participating tickets' });
  await expect(participants).toContainText(player.name);
  await expect(participants).toContainText(lottery.ticket);
  const panel = page.locator('.draw-select');
  await expect(panel).toContainText('No tickets selected yet');

  // A typed ticket is checked first.
  await panel.getByLabel('Ticket').fill('1-2-3');
  await panel.getByRole('button', { name: 'Add Winner' }).click();
  await expect(panel.locator('.field__error')).toHaveText('Invalid ticket');

  await panel.getByLabel('Ticket').fill(lottery.ticket);
  await panel.getByRole('button', { name: 'Add Winner' }).click();
  await expect(panel.locator('.draw-chosen li')).toHaveCount(1);
  await expect(panel.locator('.draw-chosen')).toContainText(lottery.ticket);
  await expect(panel.getByRole('button', { name: 'Add Winner' })).toBeDisabled(); // one winner
  await panel.getByLabel('Why by hand').fill('Drawn before the verifiable draw');
  await panel.getByRole('button', { name: 'Propose these winners' }).click();
  await expect(page.locator('.toasts--top-right')).toContainText('Winners proposed');
  const proposal = page.locator('.draw-proposal');
  await expect(proposal).toContainText('You proposed these winners');
  await expect(proposal.getByRole('button', { name: 'Approve and finish the draw' })).toHaveCount(0);

  // A second staff member approves it on the same page.
  const other = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.8.${Date.now() % 250}.9` } });
  const checker = await other.newPage();
  await useLanguage(checker, 'en');
  await login(checker, await secondStaff(request));
  await checker.goto(`/admin/lotteries/${lottery.id}/draw`);
  await expect(checker.locator('.draw-proposal')).toContainText('Drawn before the verifiable draw');
  await checker.getByRole('button', { name: 'Approve and finish the draw' }).click();
  await expect(checker.locator('.toasts--top-right')).toContainText('Successfully Drawn Lottery');
  await other.close();

  await page.reload();
  await expect(page.locator('.draw-results')).toContainText('Drawn by hand (unverifiable)');
  await expect(page.locator('.draw-results')).toContainText('The results are published.');
  await expect(page.locator('.draw-select')).toHaveCount(0);
  const prizes = page.getByRole('region', { name: 'Prizes' });
  await expect(prizes).toContainText(lottery.ticket);
  await expect(prizes).toContainText('TK. 5,000');

  // Notify Winners: a confirmation, then the server's message; one message line in the server's log.
  await page.getByRole('link', { name: '← Back to lotteries' }).click();
  await page.getByLabel('Search by name or description').fill(name);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.admin-card').filter({ hasText: name }).getByRole('link', { name: 'Notify Winners' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notify the winners?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send messages' }).click();
  await expect(page.locator('.toasts--top-right')).toContainText('Winners notified successfully! 1 message sent.');
  await expect(dialog).toBeHidden();
  await expect
    .poll(() =>
      readFileSync(serverLogPath(), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"purpose":"winner"') && l.includes(player.phone)),
    )
    .toHaveLength(1);

  // Withholding the prize, by two: the demo staff (a superuser) proposes it in a confirmation with a reason; a second
  // staff member approves it on the same page; the prize stays, marked withheld (docs/decisions/055-withholding-by-two.md).
  await page.goto(`/admin/lotteries/${lottery.id}/draw`);
  await page
    .getByRole('region', { name: 'Prizes' })
    .getByRole('link', { name: `Withhold the prize of ticket ${lottery.ticket}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Propose withholding this prize?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Propose withholding' }).click();
  await expect(confirm.locator('.field__error')).toContainText('Please give the reason.');
  await confirm.getByLabel('Reason').fill('Court order 12/2026');
  await confirm.getByRole('button', { name: 'Propose withholding' }).click();
  await expect(page.locator('.toasts--top-right')).toContainText('Withholding proposed');
  const pending = page.locator('.draw-withholding');
  await expect(pending).toContainText('You proposed this');
  await expect(pending.getByRole('button', { name: 'Approve withholding' })).toHaveCount(0);

  const second = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.9.${Date.now() % 250}.9` } });
  const approver = await second.newPage();
  await useLanguage(approver, 'en');
  await login(approver, await secondStaff(request, 'Withholding Officer'));
  await approver.goto(`/admin/lotteries/${lottery.id}/draw`);
  const form = approver.locator('.draw-withholding');
  await expect(form).toContainText('Court order 12/2026');
  await form.getByLabel('Your reason').fill('Order seen');
  await form.getByRole('button', { name: 'Approve withholding' }).click();
  await expect(approver.locator('.toasts--top-right')).toContainText('Prize withheld');
  await second.close();

  await page.goto(`/admin/lotteries/${lottery.id}/draw`);
  const prizes2 = page.getByRole('region', { name: 'Prizes' });
  await expect(prizes2).toContainText(lottery.ticket);
  await expect(prizes2).toContainText('Withheld: Court order 12/2026');
  await expect(page.locator('.draw-results')).toContainText('The results are published.');
});

test('the draw page fits a 360 px phone and a 1280 px desktop in both languages, axe clean', async ({ page, player, request }) => {
  // Sales open, the selection and the results, each at two widths in two languages, then the delete dialog.
  test.setTimeout(180_000);
  const lottery = await lotteryWithSale(request, player, `Surma ${Date.now() % 100000}`);
  await useLanguage(page, 'en');
  await login(page, STAFF);
  const problems: string[] = [];
  // Each page opened once on the phone, then looked at again on the desktop (decision 069).
  const visit = async (label: string) => {
    for (const lng of ['en', 'bn'] as const) {
      await useLanguage(page, lng);
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(`/admin/lotteries/${lottery.id}/draw`);
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        await expect(page.locator('.admin-main h1')).toBeVisible();
        await fits(page, width, `${label} ${lng}`, problems);
      }
    }
  };
  await visit('sales open');
  await closeSales(request, lottery.id);
  await visit('selection');
  // Drawn: the results and the prizes, and the confirmation of withholding one.
  await drawByHand(request, lottery.id, [lottery.ticket]);
  await visit('results');
  await page.setViewportSize({ width: 360, height: 740 });
  await useLanguage(page, 'bn');
  await page.goto(`/admin/lotteries/${lottery.id}/draw`);
  await page
    .getByRole('region', { name: 'পুরস্কার' })
    .getByRole('link', { name: /পুরস্কার আটকে রাখুন/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'এই পুরস্কার আটকে রাখার প্রস্তাব করবেন?' });
  await expect(dialog).toBeVisible();
  await fits(page, 360, 'withhold dialog bn', problems);
  await dialog.getByRole('link', { name: 'বাতিল' }).click();
  await expect(dialog).toHaveCount(0);
  expect(problems).toEqual([]);
});
