/**
 * A numbers lottery from the back office to a tier prize claimed (docs/rules/lotteries-and-sales.md#9-the-draw,
 * docs/rules/draws.md#7-numbers-draw): staff create the next numbers lottery with the form and name it as the target of
 * the journey lottery's unwon jackpot on its edit form; a player buys a ticket through the pages; staff approve it;
 * sales close; staff enter the round's beacon on the draw page and draw the numbers; the player sees the numbers his
 * ticket matched and its tier in My Lotteries, claims the prize with the code, and anyone can check the draw on its
 * proof page, in English and Bengali at a phone's width. The journey lottery comes from tests/e2e/prepare-data.ts with
 * a seed fixed as test data (tests/e2e/numbers-fixture.ts), so that once the tickets are frozen the journey can pick a
 * beacon value under which its ticket wins a tier, as no one can in production.
 */
import { createHash } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { tierOf } from '../../shared/draws/tiers.ts';
import { drawNumbers } from '../../server/draws/verifiable.ts';
import { expect, login, readCode, test } from './helpers.ts';
import { NUMBERS_FIXTURE as F } from './numbers-fixture.ts';
import { approveByHand, bearerOf, logInAs, STAFF, useLanguage } from './pages.ts';

const TICKET = '03-14-25-36-47-09';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The journey lottery's id, found by its name in the staff list. */
async function fixtureId(request: APIRequestContext, auth: Record<string, string>): Promise<number> {
  const res = await request.get(`/api/v1/lotteries/?search=${encodeURIComponent(F.name)}`, { headers: auth });
  expect(res.ok(), await res.text()).toBe(true);
  const found = ((await res.json()) as { id: number; name: string }[]).find((l) => l.name === F.name);
  expect(found, 'the journey lottery from tests/e2e/prepare-data.ts').toBeTruthy();
  return found!.id;
}

/** The first beacon value under which `ticket`, the only ticket sold, wins a tier below the jackpot (4th or 5th). */
function beaconFor(ticket: string): { beacon: string; numbers: number[]; tier: number } {
  for (let i = 0; ; i++) {
    const beacon = createHash('sha256').update(`journey beacon ${i}`).digest('hex');
    const { numbers } = drawNumbers({ seed: F.seed, tickets: [ticket], beacon });
    const tier = tierOf(ticket, numbers);
    if (tier === 4 || tier === 5) return { beacon, numbers, tier };
  }
}

test('numbers lottery: created, rollover named, bought, drawn by the procedure, tier prize claimed, proof checked', async ({
  browser,
  page,
  player,
  request,
}) => {
  test.setTimeout(180_000);
  const auth = await bearerOf(request, STAFF);
  const id = await fixtureId(request, auth);
  const staffContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `10.6.${Date.now() % 250}.5` } });
  const staff = await staffContext.newPage();
  await useLanguage(staff, 'en');
  await logInAs(staff, STAFF);

  // Staff create the next numbers lottery with the form: the kind, the jackpot's share and the tier prizes.
  const next = `Next Numbers ${Date.now() % 100000}`;
  await staff.goto('/admin/create-lottery');
  const form = staff.locator('form.admin-form');
  await form.getByLabel('Name (English)').fill(next);
  await form.getByLabel('End date').fill(day(30));
  await form.getByLabel(/^Numbers: /).check();
  // The winning-tickets fields step aside; the numbers fields show.
  await expect(form.getByLabel('Total prize (৳)')).toBeHidden();
  await form.getByLabel('Jackpot: share of sales (%)').fill('40');
  await form.getByLabel('2nd prize: 5 main numbers (৳)').fill('20000');
  await form.getByLabel('3rd prize: 4 main numbers and the last (৳)').fill('4000');
  await form.getByLabel('4th prize: 4 main, or 3 and the last (৳)').fill('800');
  await form.getByLabel('5th prize: 3 main, or 2 and the last (৳)').fill('150');
  await form.getByLabel('Published (players can see it)').check();
  await form.getByRole('button', { name: 'Create lottery' }).click();
  await expect(staff).toHaveURL(/\/admin\/lotteries\?notice=created$/);

  // The journey lottery's unwon jackpot rolls into it: named on the edit form.
  await staff.goto(`/admin/lotteries/${id}/edit`);
  await staff.getByLabel('If nobody wins the jackpot, it rolls into').selectOption({ label: next });
  await staff.getByRole('button', { name: 'Save' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('The lottery was saved.');

  // The player buys the ticket through the pages and gives his TrxID.
  await useLanguage(page, 'en');
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto(`/quick-play/${id}/${TICKET}`);
  await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const transactionId = Number(new URL(page.url()).pathname.split('/').pop());
  const trx = `NM${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  await page.getByLabel('bKash transaction ID (TrxID)').fill(trx);
  await page.getByRole('button', { name: 'Send TrxID' }).click();
  await expect(page.locator('main')).toContainText(`We have your TrxID ${trx}`);

  // Staff approve it, and sales close a minute ago (the announced drand round has come).
  await approveByHand(request, transactionId);
  const closed = await request.patch(`/api/v1/lotteries/${id}/`, {
    headers: auth,
    data: { end_date: new Date(Date.now() - 60_000).toISOString() },
  });
  expect(closed.ok(), await closed.text()).toBe(true);

  // The tickets are frozen: the beacon value (as staff would copy it from drand) under which this ticket wins a tier.
  const { beacon, numbers, tier } = beaconFor(TICKET);
  await staff.goto(`/admin/lotteries/${id}/draw`);
  await staff.getByLabel("The round's beacon: its randomness or its signature").fill(beacon);
  await staff.getByRole('button', { name: 'Enter the beacon value' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('Beacon value saved');
  await staff.getByRole('button', { name: 'Draw the numbers (verifiable)' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('Successfully Drawn Lottery');
  const drawnText = [...numbers.slice(0, 5), numbers[5]].map((n) => String(n).padStart(2, '0')).join('-');
  await expect(staff.locator('.draw-results')).toContainText(drawnText);
  await expect(staff.getByRole('region', { name: 'Prizes' })).toContainText(TICKET);
  await staffContext.close();

  // The player: the win in My Lotteries, then the claim with the code.
  await page.goto('/my-lotteries');
  const card = page.locator('.my-ticket').filter({ hasText: F.name }).first();
  await expect(card).toContainText('Numbers drawn');
  await expect(card).toContainText(/numbers? matched|number matched/);
  await expect(card).toContainText(tier === 4 ? '4th prize' : '5th prize');
  await expect(card).toContainText('Congratulations! You won');
  await expect(card).toContainText(`TK. ${(tier === 4 ? F.tierPrizes[2] : F.tierPrizes[3]).toLocaleString('en-US')}`);
  await card.getByRole('link', { name: 'Add Payment Info' }).click();
  const claim = page.locator('form.claim-form');
  await claim.getByLabel('Account number').fill(player.phone);
  await claim.getByLabel('Account holder name').fill(player.name);
  await claim.getByRole('button', { name: 'Send code' }).click();
  await claim.getByLabel('Claim code').fill(await readCode(player.phone, 'claim'));
  await claim.getByRole('button', { name: 'Submit claim' }).click();
  await expect(page).toHaveURL(/\/my-lotteries\?notice=claimed$/);
  await expect(page.locator('.my-ticket').filter({ hasText: F.name }).first()).toContainText('Processing');

  // Anyone checks the draw: the proof page shows the numbers, in English and in Bengali on a phone.
  await page.setViewportSize({ width: 360, height: 740 });
  for (const lng of ['en', 'bn'] as const) {
    await useLanguage(page, lng);
    await page.goto(`/results/${id}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lng);
    await expect(page.locator('main')).toContainText(F.seed);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }
  // The rolled-over jackpot is the next lottery's now: half of the one ticket's price.
  const target = await request.get(`/api/v1/lotteries/?search=${encodeURIComponent(next)}`, { headers: auth });
  expect(((await target.json()) as { rollover_in: number }[])[0]?.rollover_in).toBe((F.ticketPrice * F.jackpotShare) / 100);
});
