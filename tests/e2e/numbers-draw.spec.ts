/**
 * A numbers lottery from the back office to a tier prize claimed (docs/rules/lotteries-and-sales.md#9-the-draw,
 * docs/rules/draws.md#7-numbers-draw): staff create the next numbers lottery with the form and name it as the target of
 * the journey lottery's unwon jackpot on its edit form; a player buys a ticket through the pages and bKash confirms
 * his TrxID; sales close; staff paste drand's signature of the round on the draw page and draw the numbers; the player sees the
 * numbers his ticket matched and its tier in My Lotteries, claims the prize with the code, and anyone can check the draw
 * on its proof page, in English and Bengali at a phone's width. Only drand's signed value draws (decision 046): the
 * journey lottery comes from tests/e2e/prepare-data.ts with a seed chosen as test data (tests/e2e/numbers-fixture.ts)
 * so that on SIGNED, a real quicknet round whose signature the tests have, its ticket wins a tier, as no one can
 * arrange in production; its sales close where SIGNED's round is the draw's.
 */
import type { APIRequestContext } from '@playwright/test';
import { tierOf } from '../../shared/draws/tiers.ts';
import { drawNumbers, roundTime } from '../../server/draws/verifiable.ts';
import { expect, login, readCode, test } from './helpers.ts';
import { NUMBERS_FIXTURE as F, SIGNED, TICKET } from './numbers-fixture.ts';
import { bearerOf, sendMoney, STAFF, useLanguage } from './pages.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The journey lottery's id, found by its name in the staff list. */
async function fixtureId(request: APIRequestContext, auth: Record<string, string>): Promise<number> {
  const res = await request.get(`/api/v1/lotteries/?search=${encodeURIComponent(F.name)}`, { headers: auth });
  expect(res.ok(), await res.text()).toBe(true);
  const found = ((await res.json()) as { id: number; name: string }[]).find((l) => l.name === F.name);
  expect(found, 'the journey lottery from tests/e2e/prepare-data.ts').toBeTruthy();
  return found!.id;
}

/** The numbers SIGNED's beacon draws with the fixture's seed when `ticket` is the only ticket sold, and its tier. */
function drawnOn(ticket: string): { numbers: number[]; tier: number | null } {
  const { numbers } = drawNumbers({ seed: F.seed, tickets: [ticket], beacon: SIGNED.randomness });
  return { numbers, tier: tierOf(ticket, numbers) };
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
  await login(staff, STAFF);

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
  // Shown the new lottery: its form, with the line that says it was created.
  await expect(staff).toHaveURL(/\/admin\/lotteries\/\d+\/edit\?notice=created$/);

  // The journey lottery's unwon jackpot rolls into it: named on the edit form.
  await staff.goto(`/admin/lotteries/${id}/edit`);
  await staff.getByLabel('If nobody wins the jackpot, it rolls into').selectOption({ label: next });
  await staff.getByRole('button', { name: 'Save' }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText('The lottery was saved.');

  // The player buys the ticket through the pages, sends the money with bKash (the simulator's Send Money, as his wallet
  // would) and gives the TrxID bKash sent him: bKash confirms it (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
  await useLanguage(page, 'en');
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto(`/quick-play/${id}/${TICKET}`);
  await page.locator('.play-buy').getByRole('button', { name: 'Send Money and enter the TrxID' }).click();
  await expect(page).toHaveURL(/\/payment\/\d+$/);
  const trx = await sendMoney(request, F.ticketPrice, player.phone);
  await page.getByLabel('bKash transaction ID (TrxID)').fill(trx);
  await page.getByRole('button', { name: 'Send TrxID' }).click();
  // Confirmed at once: the page is the ticket's receipt (docs/rules/payments.md#10-the-receipt).
  await expect(page.locator('main h1')).toHaveText('Ticket confirmed ✓');
  await expect(page.locator('main .payment__trx')).toHaveText(trx);

  // Sales close where SIGNED's round is the one after the end of sales (in August 2025, a round come long ago whose
  // signature the tests have): the announced round moves there, as it may while it has not come.
  const end = roundTime(SIGNED.round - 1);
  const closed = await request.patch(`/api/v1/lotteries/${id}/`, {
    headers: auth,
    data: { start_date: new Date(end.getTime() - 86_400_000).toISOString(), end_date: end.toISOString() },
  });
  expect(closed.ok(), await closed.text()).toBe(true);
  const announced = await request.get(`/api/v1/lotteries/${id}/draw-proof/`);
  expect(((await announced.json()) as { beacon: { round: number } }).beacon.round).toBe(SIGNED.round);

  // The tickets are frozen: staff paste drand's signature of the round, under which (with the fixture's seed) this
  // ticket wins a tier below the jackpot.
  const { numbers, tier } = drawnOn(TICKET);
  expect([4, 5]).toContain(tier);
  await staff.goto(`/admin/lotteries/${id}/draw`);
  await staff.getByLabel("drand's signature of the round").fill(SIGNED.signature);
  await staff.getByRole('button', { name: "Enter drand's signature" }).click();
  await expect(staff.locator('.toasts--top-right')).toContainText("drand's signature verified: the beacon value is saved");
  await expect(staff.locator('main')).toContainText(SIGNED.randomness);
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
  await expect(page.locator('.my-ticket').filter({ hasText: F.name }).first()).toContainText('Details submitted');

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
