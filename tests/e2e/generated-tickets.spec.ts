/**
 * Generated tickets in the back office (docs/rules/tickets.md#6-generated-tickets, #8) with JavaScript: staff generate
 * 5 tickets of a lottery of their own, export the CSV (the downloaded file checked), a player activates one, and it
 * shows as activated and is no longer in the export. The no-JS form posts are covered by tests/api/admin-pages.test.ts,
 * the file byte for byte by tests/api/generated-export.test.ts.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, login, test } from './helpers.ts';
import { STAFF, useLanguage } from './pages.ts';

async function token(request: APIRequestContext, phone: string, password: string): Promise<string> {
  const res = await request.post('/api/token/', { data: { phone, password } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { access: string }).access;
}

test('staff generate 5 tickets, export them, a player activates one: it shows activated and leaves the export', async ({
  page,
  player,
  request,
}) => {
  // A lottery of this test's own (so other journeys keep theirs), open for a week.
  const staffAuth = { Authorization: `Bearer ${await token(request, STAFF.identifier, STAFF.password)}` };
  const name = `Offline ${Date.now() % 100000}`;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
  const created = await request.post('/api/v1/lotteries/', {
    headers: staffAuth,
    data: { name, winners: 1, ticket_price: 100, total_prize: 1000, start_date: day(-1), end_date: day(7), published: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lotteryId = ((await created.json()) as { id: number }).id;

  await useLanguage(page, 'en');
  await login(page, STAFF);
  await page.goto(`/admin/generated-tickets?lottery_id=${lotteryId}`);
  await page.getByText('Generate Tickets', { exact: true }).click();
  const form = page.locator('form.admin-generate');
  await form.getByLabel('Lottery').selectOption(String(lotteryId));
  await form.getByLabel('How many').fill('5');
  await form.getByRole('button', { name: 'Generate' }).click();
  await expect(page.locator('.toasts--bottom-right')).toContainText('Tickets generated successfully (5)');
  await expect(page.locator('.admin-cards--tickets > li')).toHaveCount(5);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export to CSV (5 non-activated)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^bhagya-tickets-${name.replace(' ', '-')}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = readFileSync(await file.path(), 'utf8').replace(/^\ufeff/, '');
  const lines = csv.split('\r\n').filter(Boolean);
  expect(lines[0]).toBe(
    'Ticket Number,Secret Key,Lottery Name,Ticket Price,Total Prize,Draw Date,Created Date,Is Activated,Activated By,Activated At',
  );
  expect(lines).toHaveLength(6);
  const [ticket, secret] = (lines[1] ?? '').split(',');

  // The player activates the first one (the dialog itself is covered by activation.spec.ts).
  const activated = await request.post('/api/v1/activate-generated-ticket/', {
    headers: { Authorization: `Bearer ${await token(request, player.phone, player.password)}` },
    data: { ticket_number: ticket, secret_number: secret },
  });
  expect(activated.ok(), await activated.text()).toBe(true);

  await page.goto(`/admin/generated-tickets?lottery_id=${lotteryId}&activation=activated`);
  const card = page.locator('.admin-cards--tickets > li');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Activated');
  await expect(card).toContainText(player.name);
  await page.goto(`/admin/generated-tickets?lottery_id=${lotteryId}`);
  const again = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export to CSV (4 non-activated)' }).click();
  const rest = readFileSync(await (await again).path(), 'utf8');
  expect(rest).not.toContain(String(secret));
  expect(rest.split('\r\n').filter(Boolean)).toHaveLength(5);
});
