/**
 * Consecutive draws paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips), in Chromium, with and without
 * JavaScript: on the ticket page of the demo game's next draw, choose 5 draws, pay once on the bKash simulator's page
 * (TK. 500), come back to the receipt of the whole run, find the run as one item of My Lotteries, and open it: its five
 * draws, each confirmed with its own Lucky Chance code. In English and Bengali.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, login, test, type NewPlayer } from './helpers.ts';
import { payOnBkash } from './bkash.ts';
import { RUN } from './run-fixture.ts';

/** The demo game's next draw on sale (server/games/demo.ts). */
async function gameDrawId(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/v1/published-lotteries/?limit=100');
  expect(res.ok(), await res.text()).toBe(true);
  const draws = ((await res.json()) as { id: number; game_id: number | null; purchasable: boolean; draw_at: string | null }[])
    .filter((l) => l.game_id !== null && l.purchasable)
    .sort((a, b) => Date.parse(a.draw_at ?? '') - Date.parse(b.draw_at ?? ''));
  if (!draws[0]) throw new Error('no game draw on sale: the journeys need the demo data (SEED_DEMO)');
  return draws[0].id;
}

function randomTicket(): string {
  const main = new Set<number>();
  while (main.size < 5) main.add(1 + Math.floor(Math.random() * 55));
  const last = 1 + Math.floor(Math.random() * 15);
  return [...[...main].sort((a, b) => a - b), last].map((n) => String(n).padStart(2, '0')).join('-');
}

const bengaliDigits = (s: string) => s.replace(/[0-9]/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!);

async function buyRun(page: Page, request: APIRequestContext, player: NewPlayer, lng: 'en' | 'bn'): Promise<void> {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  const ticket = randomTicket();
  await page.goto(`/quick-play/${await gameDrawId(request)}/${ticket}?lng=${lng}`);
  const form = page.locator('.play-buy');
  await expect(form.locator('.run-choice legend')).toHaveText(lng === 'en' ? 'Consecutive draws' : 'ধারাবাহিক ড্র');
  await expect(form.locator('.run-choice')).toContainText(lng === 'en' ? 'TK. 500' : '৳৫০০');
  await form.locator('input[name="draws"][value="5"]').check();
  await form.getByRole('button', { name: lng === 'en' ? 'Pay with bKash' : 'বিকাশে পেমেন্ট করুন' }).click();

  // One payment on bKash's page for the whole run.
  await payOnBkash(page, /500/);

  await expect(page).toHaveURL(/\/payment\/\d+/);
  const receipt = page.locator('main .payment__receipt');
  await expect(receipt).toContainText(lng === 'en' ? 'One payment for the whole run' : 'পুরো ধারাবাহিক ড্র-এর জন্য একটি পেমেন্ট');
  await expect(receipt.locator('.summary__amount')).toContainText(lng === 'en' ? 'TK. 500' : '৳৫০০');

  // My Lotteries: the run is one item, its five draws to come, its one amount.
  await page.goto(`/my-lotteries?lng=${lng}`);
  const shown = lng === 'bn' ? bengaliDigits(ticket) : ticket;
  const card = page.locator('.my-run').filter({ hasText: shown });
  await expect(card).toHaveCount(1);
  await expect(page.locator('.my-ticket').filter({ hasText: shown })).toHaveCount(1);
  await expect(card.locator('.badge').first()).toHaveText(lng === 'en' ? 'Confirmed' : 'নিশ্চিত');
  await expect(card).toContainText(lng === 'en' ? '5 draws in a row, 1 line of numbers' : 'পরপর ৫টি ড্র, ১টি সংখ্যার সারি');
  await expect(card).toContainText(lng === 'en' ? '0 of 5 drawn' : '৫টির মধ্যে ০টির ড্র হয়েছে');
  await expect(card.locator('.my-ticket__facts')).toContainText(lng === 'en' ? 'TK. 500' : '৳৫০০');
  // It opens the run's own page: its five draws, each its own confirmed ticket with its Lucky Chance code.
  await card.getByRole('link', { name: lng === 'en' ? 'See its draws and results' : 'এর ড্র ও ফলাফল দেখুন' }).click();
  await expect(page).toHaveURL(/\/my-lotteries\/runs\/\d+/);
  const entries = page.locator('.run-page__draws .my-ticket');
  await expect(entries).toHaveCount(5);
  for (let i = 0; i < 5; i++) {
    await expect(entries.nth(i).locator('.badge').first()).toHaveText(lng === 'en' ? 'Confirmed' : 'নিশ্চিত');
    await expect(entries.nth(i).locator('.my-ticket__lucky')).toHaveText(/^BHG \d{4} \d{4}$/);
  }
  await expect(page.locator('.run-page__summary h2')).toHaveText(lng === 'en' ? 'Paid' : 'পরিশোধিত');
}

/**
 * A play slip: the page's numbers, one typed line and one quick pick for 3 draws; the payment page writes out the whole
 * (3 lines × 3 draws × TK. 100 = TK. 900) before bKash is asked; paid once, the run in My Lotteries has its 3 lines.
 */
async function buySlip(page: Page, request: APIRequestContext, player: NewPlayer, lng: 'en' | 'bn'): Promise<void> {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  const [mine, typed] = [randomTicket(), randomTicket()];
  await page.goto(`/quick-play/${await gameDrawId(request)}/${mine}?lng=${lng}`);
  const form = page.locator('.play-buy');
  await form.locator('input[name="draws"][value="3"]').check();
  await form.locator('.slip-lines summary').click();
  await form.getByLabel(lng === 'en' ? 'Line 2' : 'সারি ২').fill(typed.replace(/-/g, ' '));
  await form.getByLabel(lng === 'en' ? 'Quick picks to add' : 'কতগুলো কুইক পিক যোগ করবেন').selectOption('1');
  await form.getByRole('button', { name: lng === 'en' ? 'Pay with bKash' : 'বিকাশে পেমেন্ট করুন' }).click();

  await expect(page).toHaveURL(/\/payment\/\d+/);
  await expect(page.locator('main .payment__run').first()).toHaveText(
    lng === 'en'
      ? 'One payment for the whole slip: 3 lines of numbers in 3 draws, TK. 900.'
      : 'পুরো স্লিপের জন্য একটি পেমেন্ট: ৩টি ড্র-তে ৩টি সংখ্যার সারি, ৳৯০০।',
  );
  await page.getByRole('button', { name: lng === 'en' ? 'Pay TK. 900 with bKash' : 'বিকাশে ৳৯০০ পেমেন্ট করুন' }).click();
  await payOnBkash(page, /900/);
  await expect(page).toHaveURL(/\/payment\/\d+/);
  await expect(page.locator('main .payment__receipt .summary__amount')).toContainText(lng === 'en' ? 'TK. 900' : '৳৯০০');

  await page.goto(`/my-lotteries?lng=${lng}`);
  const shown = lng === 'bn' ? bengaliDigits(mine) : mine;
  const card = page.locator('.my-run').filter({ hasText: shown });
  await expect(card).toContainText(lng === 'en' ? '3 draws in a row, 3 lines of numbers' : 'পরপর ৩টি ড্র, ৩টি সংখ্যার সারি');
  await expect(card.locator('.my-run__lines li')).toHaveCount(3);
  await expect(card.locator('.my-run__lines')).toContainText(lng === 'bn' ? bengaliDigits(typed) : typed);
}

/**
 * A run past its first draw (tests/e2e/run-fixture.ts): one item of My Lotteries, "1 of 3 drawn", a prize to claim; its
 * page shows the first draw's numbers drawn, what the entry matched and its Lucky Chance code won, the later draws not
 * drawn yet.
 */
async function drawnRun(page: Page, lng: 'en' | 'bn'): Promise<void> {
  await login(page, { identifier: RUN.phone, password: RUN.password, name: RUN.name });
  await page.goto(`/my-lotteries?lng=${lng}`);
  const shown = lng === 'bn' ? bengaliDigits(RUN.lines[0]) : RUN.lines[0];
  const card = page.locator('.my-run').filter({ hasText: shown });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(lng === 'en' ? '1 of 3 drawn' : '৩টির মধ্যে ১টির ড্র হয়েছে');
  await expect(card.locator('.my-run__claim')).toContainText(lng === 'en' ? '1 prize to claim' : '১টি পুরস্কার দাবি করার আছে');
  await card.getByRole('link', { name: lng === 'en' ? 'See its draws and results' : 'এর ড্র ও ফলাফল দেখুন' }).click();
  await expect(page).toHaveURL(/\/my-lotteries\/runs\/\d+/);
  const entries = page.locator('.run-page__draws .my-ticket');
  await expect(entries).toHaveCount(3);
  const first = entries.first();
  await expect(first.locator('.my-ticket__drawn .balls .ball')).toHaveCount(6);
  await expect(first.locator('.my-ticket__lucky')).toHaveText(/^BHG \d{4} \d{4}$/);
  await expect(first.locator('.my-ticket__lucky-won')).toContainText(
    lng === 'en' ? 'Your Lucky Chance code BHG' : 'আপনার লাকি চান্স কোড BHG',
  );
  await expect(first.getByRole('link', { name: lng === 'en' ? 'Add Payment Info' : 'পেমেন্টের তথ্য দিন' })).toBeVisible();
  for (const later of [1, 2]) await expect(entries.nth(later)).toContainText(lng === 'en' ? 'Not drawn yet.' : 'এখনো ড্র হয়নি।');
}

test('with JavaScript, in Bengali: a run past its first draw, its result and its Lucky Chance code', async ({ page }) => {
  await drawnRun(page, 'bn');
});

test('with JavaScript, in English: 5 draws paid once, the run in My Lotteries', async ({ page, player, request }) => {
  await buyRun(page, request, player, 'en');
});

test('with JavaScript, in Bengali: a play slip of 3 lines for 3 draws, paid once', async ({ page, player, request }) => {
  await buySlip(page, request, player, 'bn');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('in English: a run past its first draw, as plain pages', async ({ page }) => {
    await drawnRun(page, 'en');
  });

  test('in English: the same play slip as plain forms', async ({ page, player, request }) => {
    await buySlip(page, request, player, 'en');
  });

  test('in Bengali: the same run as plain forms and redirects', async ({ page, player, request }) => {
    await buyRun(page, request, player, 'bn');
  });
});
