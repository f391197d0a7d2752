/**
 * The public proof of a draw, /results/{id} (docs/rules/draws.md#9-the-proof): a lottery is drawn by the procedure
 * through the staff API (a ticket bought and approved, the end of sales moved to where its drand round is SIGNED's, a
 * real quicknet round come long ago, drand's signature of it pasted, the verifiable draw), then a visitor opens its proof page in English and Bengali
 * on a 360 px phone and a 1280 px desktop: the winners, the revealed seed and the command to check it, nothing wider
 * than the screen, axe clean. Before the draw the same page shows the commitment and the round, never the seed. The
 * cards' links, the no-JavaScript page and its 404s are covered by tests/api/results-page.test.ts.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, hydrated, test } from './helpers.ts';
import { roundTime } from '../../server/draws/verifiable.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';
import { lotteryWithSale, useLanguage } from './pages.ts';
import { fits } from './fits.ts';

/**
 * A real quicknet beacon with its signature, as staff would copy it from a drand relay (the test cannot reach drand):
 * only drand's signed value draws (docs/rules/draws.md#4-the-beacon, decision 046).
 */
const SIGNED = REAL_BEACONS[1];

/**
 * Sales ended where SIGNED's round is the one after the end of sales (in August 2025, so the announced round moves to
 * it and has come), drand's signature of the round pasted, the draw by the procedure.
 */
async function drawByProcedure(request: APIRequestContext, id: number, staff: Record<string, string>): Promise<void> {
  const end = roundTime(SIGNED.round - 1);
  const ended = await request.patch(`/api/v1/lotteries/${id}/`, {
    headers: staff,
    data: { start_date: new Date(end.getTime() - 86_400_000).toISOString(), end_date: end.toISOString() },
  });
  expect(ended.ok(), await ended.text()).toBe(true);
  const beacon = await request.put(`/api/v1/lotteries/${id}/draw-beacon/`, { headers: staff, data: { signature: SIGNED.signature } });
  expect(beacon.ok(), await beacon.text()).toBe(true);
  expect(((await beacon.json()) as { beacon: { round: number; value: string } }).beacon).toMatchObject({
    round: SIGNED.round,
    value: SIGNED.randomness,
  });
  const drawn = await request.post(`/api/v1/lotteries/${id}/verifiable-draw/`, { headers: staff });
  expect(drawn.status(), await drawn.text()).toBe(201);
}

test('a drawn lottery’s proof page in English and Bengali at 360 and 1280 px; before the draw, the commitment only', async ({
  page,
  player,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Karnaphuli ${Date.now() % 100000}`;
  const lottery = await lotteryWithSale(request, player, name);
  expect(lottery.commitment).toMatch(/^[0-9a-f]{64}$/);
  const problems: string[] = [];

  // Before the draw: the commitment and why nobody can steer it.
  await useLanguage(page, 'en');
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/results/${lottery.id}`);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByRole('heading', { name: 'This draw will be checkable' })).toBeVisible();
  await expect(page.locator('main')).toContainText(lottery.commitment!);
  await expect(page.getByRole('heading', { name: 'Why nobody can steer it' })).toBeVisible();
  await fits(page, 360, 'pending en', problems);

  await drawByProcedure(request, lottery.id, lottery.staff);
  // Each language's page opened once on the phone, then looked at again on the desktop (decision 069).
  for (const lng of ['en', 'bn'] as const) {
    await useLanguage(page, lng);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/results/${lottery.id}`);
    await hydrated(page);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(lng === 'bn' ? `${name} ড্র` : name);
      await expect(
        page.getByRole('heading', { name: lng === 'bn' ? 'নিজে কীভাবে যাচাই করবেন' : 'How to check it yourself' }),
      ).toBeVisible();
      // The one ticket is the winner; the seed is revealed beside the commitment and the beacon value.
      await expect(page.locator('.proof__winners .balls')).toHaveCount(1);
      await expect(page.locator('main')).toContainText(lottery.commitment!);
      await expect(page.locator('main')).toContainText(SIGNED.randomness);
      await expect(page.locator('main')).toContainText(SIGNED.signature);
      await expect(page.locator('.proof__command')).toContainText(`npm run verify-draw -- ${new URL(page.url()).origin} ${lottery.id}`);
      await fits(page, width, `drawn ${lng}`, problems);
    }
  }
  expect(problems).toEqual([]);

  // The JSON proof the page links is the API's, with the seed that hashes to the commitment.
  const json = await request.get(`/api/v1/lotteries/${lottery.id}/draw-proof/`);
  const proof = (await json.json()) as { seed: string; winners: string[] };
  expect(proof.winners).toEqual([lottery.ticket]);
  await expect(page.locator('main')).toContainText(proof.seed);
});
