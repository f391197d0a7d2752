/**
 * Accessibility of every page (tests/e2e/pages.ts), in both languages, as a visitor, a player and staff:
 * - axe-core (@axe-core/playwright) finds no serious or critical violation;
 * - the page has a title and a `<meta name="description">` in its language, and `<html lang>` says which;
 * - its headings start at one h1 and skip no level.
 * Also the first-visit language chooser.
 */
import type { Page } from '@playwright/test';
import type { Language } from '../../shared/i18n.ts';
import { axeFindings } from './axe.ts';
import { expect, test } from './helpers.ts';
import { enterAs, featuredLotteryId, LANGUAGES, sitePages } from './pages.ts';

/** The language most of a text's letters are in (an English text may name Bhagya as ভাগ্য). */
const languageOf = (text: string): Language =>
  (text.match(/[\u0980-\u09FF]/g)?.length ?? 0) > (text.match(/[A-Za-z]/g)?.length ?? 0) ? 'bn' : 'en';

/** What is wrong with the page now on screen, one line each (empty when nothing). */
async function audit(page: Page, lng: Language): Promise<string[]> {
  const problems: string[] = [];
  for (const finding of await axeFindings(page)) problems.push(`axe ${finding}`);

  const head = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    descriptions: [...document.querySelectorAll('meta[name="description"]')].map((m) => m.getAttribute('content') ?? ''),
    headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .filter((h) => !h.closest('[hidden], dialog:not([open])'))
      .map((h) => Number(h.localName.slice(1))),
  }));
  if (head.lang !== lng) problems.push(`<html lang="${head.lang}">, expected "${lng}"`);
  if (!head.title.trim()) problems.push('no <title>');
  if (head.descriptions.length !== 1) problems.push(`${head.descriptions.length} <meta name="description"> elements, expected 1`);
  const [description = ''] = head.descriptions;
  if (description.trim().length < 20) problems.push(`description too short: "${description}"`);
  else if (languageOf(description) !== lng) problems.push(`description not in ${lng}: "${description}"`);
  if (head.headings[0] !== 1) problems.push(`the first heading is h${head.headings[0]}, not h1`);
  head.headings.forEach((level, i) => {
    const before = head.headings[i - 1];
    if (before !== undefined && level > before + 1) problems.push(`heading h${level} follows h${before}: a level is skipped`);
  });
  return problems;
}

const report = (problems: string[]) => `accessibility problems:\n  ${problems.join('\n  ')}`;

test('the first-visit language chooser (an English page until a language is chosen) is accessible', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('a.chooser-option')).toHaveCount(2);
  const problems = await audit(page, 'en');
  expect(problems, report(problems)).toEqual([]);
});

/**
 * One journey per language and kind of visitor, as mobile.spec.ts does: logging in once and opening every page in
 * turn, instead of a new player and a new browser context per page, which made this file half of the journeys' time.
 * Every page is audited even when an earlier one had problems; the report names each page's.
 */
for (const lng of LANGUAGES) {
  test.describe(`${lng}: every page is accessible`, () => {
    for (const who of ['visitor', 'player', 'staff'] as const) {
      test(`as ${who === 'visitor' ? 'a visitor' : who === 'player' ? 'a logged-in player' : 'staff'}`, async ({ page, request }) => {
        test.setTimeout(240_000);
        await enterAs(page, request, who, lng);
        const id = await featuredLotteryId(request);
        const problems: string[] = [];
        for (const { route, path } of sitePages().filter((p) => p.who === who)) {
          await page.goto(path(id));
          for (const problem of await audit(page, lng)) problems.push(`${route}: ${problem}`);
        }
        expect(problems, report(problems)).toEqual([]);
      });
    }
  });
}
