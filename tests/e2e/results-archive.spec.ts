/**
 * The results archive (/results) and "check my numbers" (/results/check), docs/rules/lotteries-and-sales.md#10-results-for-players:
 * a visitor on a 360 px phone and a 1280 px desktop, in English and Bengali, finds the demo data's drawn lottery, searches
 * it by name, follows its proof link, and checks one of its winning tickets and a ticket that won nothing; nothing is
 * wider than the screen, axe finds nothing serious. The API, the pages without JavaScript and the bad inputs are covered
 * by tests/api/results-archive.test.ts.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, hydrated, test } from './helpers.ts';
import { useLanguage } from './pages.ts';
import { fits } from './fits.ts';

/** The demo data's drawn lottery (server/db/seed.ts) as the archive's API answers it. */
const DRAWN = { en: 'Ekushey Draw', bn: 'একুশে ড্র' };

type Item = { lottery: { id: number }; winners: { ticket: string }[] | null };

async function demoDraw(request: APIRequestContext): Promise<{ id: number; winner: string }> {
  const res = await request.get(`/api/v1/results/?search=${encodeURIComponent(DRAWN.en)}`);
  expect(res.ok(), await res.text()).toBe(true);
  const [item] = (await res.json()) as Item[];
  const winner = item?.winners?.[0]?.ticket;
  if (!item || !winner) throw new Error('the demo data has no drawn lottery with winners (SEED_DEMO)');
  return { id: item.lottery.id, winner };
}

/** A ticket no past draw pays, as the API says now (other journeys draw lotteries meanwhile). */
async function losingTicket(request: APIRequestContext): Promise<string> {
  for (const ticket of ['51-52-53-54-55-15', '46-47-48-49-50-14', '41-42-43-44-45-13', '36-37-38-39-40-12']) {
    const res = await request.get(`/api/v1/check-numbers/?ticket=${ticket}`);
    expect(res.ok(), await res.text()).toBe(true);
    if (((await res.json()) as { hits: unknown[] }).hits.length === 0) return ticket;
  }
  throw new Error('every sample ticket won something');
}

test('the results archive and check my numbers, in English and Bengali at 360 and 1280 px', async ({ page, request }) => {
  test.setTimeout(120_000);
  const draw = await demoDraw(request);
  const miss = await losingTicket(request);
  const problems: string[] = [];
  const texts = {
    en: {
      title: 'Results',
      search: 'Search',
      check: 'Check',
      proof: 'Verifiable draw · proof',
      won: 'won',
      none: 'This ticket would not have won any past draw.',
    },
    bn: {
      title: 'ফলাফল',
      search: 'খুঁজুন',
      check: 'যাচাই করুন',
      proof: 'যাচাইযোগ্য ড্র · প্রমাণ',
      won: 'জিতেছে',
      none: 'এই টিকিট আগের কোনো ড্র-তে জিততে পারত না।',
    },
  } as const;

  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    for (const lng of ['en', 'bn'] as const) {
      const x = texts[lng];
      await useLanguage(page, lng);
      await page.goto('/results');
      await hydrated(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.title);
      // The newest draws first: the journeys before this one draw lotteries of their own, so the demo's may be on a
      // later page; the first page has draws all the same, and the search below finds the demo's.
      await expect(page.locator('.archive-card').first()).toBeVisible();
      await fits(page, width, `archive ${lng}`, problems);

      // Searched by name: the form is a plain GET form.
      await page.getByRole('searchbox').fill(lng === 'bn' ? 'একুশে' : 'ekushey');
      await page.getByRole('button', { name: x.search, exact: true }).click();
      await page.waitForURL(/\/results\?search=/);
      const card = page.locator('.archive-card');
      await expect(card).toHaveCount(1);
      await expect(card.getByRole('heading', { name: DRAWN[lng] })).toBeVisible();
      await expect(card.getByRole('link', { name: x.proof })).toHaveAttribute('href', `/results/${draw.id}`);

      // Check my numbers: a winning ticket of it, then a ticket that won nothing.
      await page.getByLabel(lng === 'bn' ? 'টিকিট নম্বর' : 'Ticket number').fill(draw.winner);
      await page.getByRole('button', { name: x.check, exact: true }).click();
      await page.waitForURL(/\/results\/check\?ticket=/);
      await hydrated(page);
      const hit = page.locator('.check-hit').filter({ hasText: DRAWN[lng] });
      await expect(hit).toBeVisible();
      await expect(hit).toContainText(x.won);
      await fits(page, width, `check ${lng}`, problems);

      await page.getByLabel(lng === 'bn' ? 'টিকিট নম্বর' : 'Ticket number').fill(miss);
      await page.getByRole('button', { name: x.check, exact: true }).click();
      await expect(page.getByText(x.none)).toBeVisible();
    }
  }
  expect(problems).toEqual([]);
});
