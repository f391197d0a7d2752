/**
 * No page is wider than a 360 px phone, in either language: every page of the route tree (tests/e2e/pages.ts),
 * as a visitor, a logged-in player and staff, on a small Android phone. A page wider than the screen makes the
 * phone zoom out (everything becomes tiny) or scroll sideways. Also with the top bar's menu open, and with the
 * first-visit language chooser.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers.ts';
import { enterAs, featuredLotteryId, LANGUAGES, sitePages, useLanguage, type Who } from './pages.ts';

const WIDTH = 360;
test.use({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/**
 * The document's scroll width and every element whose right edge is past the screen's, except inside an element
 * that clips or scrolls its content sideways (a carousel: its own box is checked instead).
 */
async function overflow(page: Page): Promise<{ scrollWidth: number; offenders: string[] }> {
  return page.evaluate((width) => {
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    const name = (el: Element) => {
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.localName}${cls}> right edge ${Math.round(el.getBoundingClientRect().right)} px${text ? ` "${text}"` : ''}`;
    };
    const offenders = [...document.body.querySelectorAll('*')].filter((el) => {
      const r = el.getBoundingClientRect();
      return (r.width > 0 || r.height > 0) && r.right > width + 0.5 && !clipped(el);
    });
    // The innermost offenders say where the cause is; their ancestors (the top bar, the container) only follow.
    const innermost = offenders.filter((el) => !offenders.some((o) => o !== el && el.contains(o)));
    return { scrollWidth: document.documentElement.scrollWidth, offenders: innermost.map(name) };
  }, WIDTH);
}

/**
 * Visits each page and lists every page that is wider than the phone, with what sticks out. The top bar's menu is
 * opened on the first page (it is the same on every page) unless `menu` is false (a modal dialog covers the page).
 */
async function checkPages(page: Page, paths: string[], { menu = true } = {}): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, path] of paths.entries()) {
    await page.goto(path);
    const checks: [string, () => Promise<void>][] = [['', async () => {}]];
    if (menu && i === 0) checks.push([' with the menu open', () => page.locator('summary.menu__toggle').click()]);
    for (const [what, open] of checks) {
      await open();
      const { scrollWidth, offenders } = await overflow(page);
      if (scrollWidth > WIDTH || offenders.length)
        problems.push(`${path}${what}: ${scrollWidth} px wide\n      ${offenders.join('\n      ') || '(no element found)'}`);
    }
  }
  return problems;
}

const pagesOf = async (request: APIRequestContext, who: Who) => {
  const id = await featuredLotteryId(request);
  return sitePages()
    .filter((p) => p.who === who)
    .map((p) => p.path(id));
};

const report = (problems: string[]) => `pages wider than ${WIDTH} px:\n  ${problems.join('\n  ')}`;

test(`the first-visit language chooser fits a ${WIDTH} px phone`, async ({ page }) => {
  const problems = await checkPages(page, ['/'], { menu: false }); // the chooser is modal: no menu to open
  await expect(page.locator('a.chooser-option')).toHaveCount(2);
  expect(problems, report(problems)).toEqual([]);
});

for (const lng of LANGUAGES) {
  test.describe(`${lng}: every page fits a ${WIDTH} px phone`, () => {
    test('as a visitor', async ({ page, request }) => {
      await useLanguage(page, lng);
      const problems = await checkPages(page, await pagesOf(request, 'visitor'));
      expect(problems, report(problems)).toEqual([]);
    });

    for (const who of ['player', 'staff'] as const) {
      test(`as ${who === 'player' ? 'a logged-in player' : 'staff'}`, async ({ page, request }) => {
        await enterAs(page, request, who, lng);
        const problems = await checkPages(page, await pagesOf(request, who));
        expect(problems, report(problems)).toEqual([]);
      });
    }
  });
}
