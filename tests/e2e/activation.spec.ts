/**
 * Activating generated tickets with JavaScript (docs/rules/tickets.md#7-activating-a-generated-ticket): on My Lotteries
 * the last card opens the dialog; typing moves from box to box and Backspace in an empty box goes back; pasting a whole
 * number fills the boxes; a correct pair shows the success view with the lottery and status, the toast, and the ticket
 * in the list; "Activate another" empties every box; the open dialog fits a phone and passes axe. The no-JS form is covered by tests/api/activation-pages.test.ts.
 */
import { axeFindings } from './axe.ts';
import type { APIRequestContext, Locator } from '@playwright/test';
import { DEMO_STAFF } from '../../server/db/seed.ts';
import { expect, hydrated, login, test } from './helpers.ts';
import { featuredLotteryId, useLanguage } from './pages.ts';

type Generated = { ticket_number: string; secret_number: string; lottery: { name: string } };

/** Two tickets of the featured lottery, made by the demo staff account through the API. */
async function generate(request: APIRequestContext): Promise<Generated[]> {
  const token = await request.post('/api/token/', { data: { phone: DEMO_STAFF.phone, password: DEMO_STAFF.password } });
  expect(token.ok(), await token.text()).toBe(true);
  const { access } = (await token.json()) as { access: string };
  const res = await request.post('/api/v1/generated-tickets/', {
    headers: { Authorization: `Bearer ${access}` },
    data: { lottery_id: await featuredLotteryId(request), quantity: 2 },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Generated[];
}

/** A paste of `text` into a box, as the browser fires it. */
const paste = (box: Locator, text: string) =>
  box.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);

test('a player activates two generated tickets in the dialog: typing, Backspace, paste, success view, Activate another', async ({
  page,
  player,
  request,
}) => {
  const [first, second] = await generate(request);
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto('/my-lotteries?lng=en');
  await hydrated(page);
  const card = page.locator('.activate-card');
  await expect(card).toContainText('Activate a ticket');
  await card.getByRole('link', { name: 'Activate ticket' }).click();
  const dialog = page.getByRole('dialog', { name: 'Activate a ticket' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/my-lotteries(\?lng=en)?$/);

  const ticketBox = (n: number) => dialog.getByLabel(`Ticket number, number ${n} of 6`, { exact: true });
  const secretBox = (n: number) => dialog.getByLabel(`Secret number, digit ${n} of 16`, { exact: true });
  const activate = dialog.getByRole('button', { name: 'Activate', exact: true });
  await expect(activate).toBeDisabled();

  // Typing: each full box hands on to the next, from the ticket into the secret; letters are dropped.
  await ticketBox(1).click();
  await page.keyboard.type(first!.ticket_number.replaceAll('-', ''));
  await expect(secretBox(1)).toBeFocused();
  await page.keyboard.type(`${first!.secret_number.slice(0, 3)}x`);
  await expect(secretBox(4)).toBeFocused();
  await expect(secretBox(4)).toHaveValue('');
  // Backspace in an empty box goes back to the one before.
  await page.keyboard.press('Backspace');
  await expect(secretBox(3)).toBeFocused();
  await secretBox(4).click();
  await page.keyboard.type(first!.secret_number.slice(3));
  for (const [i, part] of first!.ticket_number.split('-').entries()) await expect(ticketBox(i + 1)).toHaveValue(part);
  await expect(activate).toBeEnabled();
  await activate.click();

  await expect(dialog).toContainText('Ticket activated');
  await expect(dialog).toContainText(first!.lottery.name);
  await expect(dialog).toContainText('Confirmed');
  await expect(page.locator('.toasts--bottom-right')).toContainText('Ticket activated successfully!');
  // The list behind the dialog has the new ticket.
  await expect(page.locator('.my-ticket').filter({ hasText: first!.ticket_number })).toContainText('Activated from a generated ticket');

  // Activate another: every box empty again; pasting whole numbers fills the boxes.
  await dialog.getByRole('button', { name: 'Activate another' }).click();
  for (let n = 1; n <= 6; n++) await expect(ticketBox(n)).toHaveValue('');
  for (let n = 1; n <= 16; n++) await expect(secretBox(n)).toHaveValue('');
  await paste(ticketBox(1), second!.ticket_number);
  for (const [i, part] of second!.ticket_number.split('-').entries()) await expect(ticketBox(i + 1)).toHaveValue(part);
  const s = second!.secret_number;
  await paste(secretBox(1), `${s.slice(0, 4)} ${s.slice(4, 8)}-${s.slice(8, 12)} ${s.slice(12)}`);
  for (let n = 1; n <= 16; n++) await expect(secretBox(n)).toHaveValue(s[n - 1]!);
  await activate.click();
  await expect(dialog).toContainText('Ticket activated');
  await dialog.locator('.activate-done').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Opened again, the dialog starts empty; a wrong secret is refused with the one message.
  await card.getByRole('link', { name: 'Activate ticket' }).click();
  await expect(ticketBox(1)).toHaveValue('');
  await paste(ticketBox(1), second!.ticket_number);
  await paste(secretBox(1), s === '1111222233334444' ? '4444333322221111' : '1111222233334444');
  await activate.click();
  await expect(dialog).toContainText('Invalid ticket number or secret number');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.my-ticket').filter({ hasText: second!.ticket_number })).toBeVisible();
});

test('the open dialog fits a 360 px phone and passes axe, in both languages', async ({ page, player }) => {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.setViewportSize({ width: 360, height: 740 });
  const problems: string[] = [];
  for (const [lng, open, title] of [
    ['en', 'Activate ticket', 'Activate a ticket'],
    ['bn', 'টিকিট সক্রিয় করুন', 'টিকিট সক্রিয় করুন'],
  ] as const) {
    await useLanguage(page, lng);
    await page.goto('/my-lotteries');
    await hydrated(page);
    await page.locator('.activate-card').getByRole('link', { name: open }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 360) problems.push(`${lng}: ${width} px wide`);
    const box = await dialog.boundingBox();
    if (!box || box.x < 0 || box.x + box.width > 360) problems.push(`${lng}: the dialog is outside the screen (${JSON.stringify(box)})`);
    for (const finding of await axeFindings(page, { include: 'dialog' })) problems.push(`${lng}: axe ${finding}`);
  }
  expect(problems).toEqual([]);
});
