/**
 * Every page (tests/e2e/pages.ts), in both languages, as a visitor, a logged-in player and staff, on a 1280 px desktop
 * and a 360 px phone. Each page is opened once, at 1280 px, and the window then narrowed to 360 px: the pages' styles
 * depend on the width alone (no pointer or hover media queries), so the narrowed page is laid out as on the phone,
 * for the cost of a layout instead of a second page load (docs/decisions/069-jest-workers-and-one-visit-per-page.md).
 * - axe-core (@axe-core/playwright) finds no serious or critical violation: at 1280 px, and for the back office at
 *   360 px too (its menu and tables change most between the two);
 * - the page has a title and a `<meta name="description">` in its language, and `<html lang>` says which;
 * - its headings start at one h1 and skip no level;
 * - nothing is wider than the screen at either width: on a phone a page wider than the screen makes it zoom out
 *   (everything becomes tiny) or scroll sideways. On the first page also with the top bar's menu open (it is the same
 *   on every page).
 * Also the first-visit language chooser.
 */
import type { Page } from '@playwright/test';
import type { Language } from '../../shared/i18n.ts';
import { axeFindings } from './axe.ts';
import { fits } from './fits.ts';
import { expect, test } from './helpers.ts';
import { enterAs, featuredLotteryId, LANGUAGES, sitePages } from './pages.ts';

const DESKTOP = { width: 1280, height: 720 };
const PHONE = { width: 360, height: 740 };
test.use({ viewport: DESKTOP });

/** The language most of a text's letters are in (an English text may name Bhagya as ভাগ্য). */
const languageOf = (text: string): Language =>
  (text.match(/[\u0980-\u09FF]/g)?.length ?? 0) > (text.match(/[A-Za-z]/g)?.length ?? 0) ? 'bn' : 'en';

/** What is wrong with the accessibility of the page now on screen, one line each (empty when nothing). */
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

/**
 * The page now on screen (opened at 1280 px) audited at 1280 px, then narrowed to 360 px and checked there (with the
 * menu opened too when `menu`, axe again when `axeOnPhone`); the window is wide again afterwards. Adds to `problems`.
 */
async function check(page: Page, lng: Language, label: string, problems: string[], o: { menu: boolean; axeOnPhone: boolean }) {
  for (const problem of await audit(page, lng)) problems.push(`${label}: ${problem}`);
  await fits(page, DESKTOP.width, label, problems, { axe: false });
  await page.setViewportSize(PHONE);
  await fits(page, PHONE.width, label, problems, { axe: o.axeOnPhone });
  if (o.menu) {
    await page.locator('summary.menu__toggle').click();
    await fits(page, PHONE.width, `${label} (menu open)`, problems, { axe: false });
  }
  await page.setViewportSize(DESKTOP);
}

const report = (problems: string[]) => `problems:\n  ${problems.join('\n  ')}`;

test('the first-visit language chooser (an English page until a language is chosen) is accessible and fits a phone', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('a.chooser-option')).toHaveCount(2);
  const problems: string[] = [];
  // The chooser is modal: no menu to open.
  await check(page, 'en', '/', problems, { menu: false, axeOnPhone: false });
  expect(problems, report(problems)).toEqual([]);
});

/**
 * One journey per language and kind of visitor: logging in once and opening every page in turn. Every page is checked
 * even when an earlier one had problems; the report names each page's.
 */
for (const lng of LANGUAGES) {
  test.describe(`${lng}: every page is accessible and fits a 360 px phone and a 1280 px desktop`, () => {
    for (const who of ['visitor', 'player', 'staff'] as const) {
      test(`as ${who === 'visitor' ? 'a visitor' : who === 'player' ? 'a logged-in player' : 'staff'}`, async ({ page, request }) => {
        test.setTimeout(240_000);
        await enterAs(page, request, who, lng);
        const id = await featuredLotteryId(request);
        const problems: string[] = [];
        for (const [i, { route, path }] of sitePages()
          .filter((p) => p.who === who)
          .entries()) {
          await page.goto(path(id));
          await check(page, lng, route, problems, { menu: i === 0, axeOnPhone: who === 'staff' });
        }
        expect(problems, report(problems)).toEqual([]);
      });
    }
  });
}
