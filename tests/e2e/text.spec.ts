/**
 * How text is set, as a player sees it:
 * - an amount (TK. 1,000,000 / ৳১০,০০,০০০), a date or a time never breaks across lines, at phone and desktop widths;
 * - Bengali characters are set in our self-hosted Bengali font on English pages too (the top bar's বাংলা, the
 *   language chooser), so that a device without a Bengali font shows letters, not empty boxes.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './helpers.ts';
import { enterAs, featuredLotteryId, LANGUAGES, useLanguage } from './pages.ts';

const BENGALI_FONT = 'Noto Sans Bengali';

/**
 * Amounts, dates and times in the page's text that are split over more than one line: each match of the patterns
 * in a text node is measured as a Range, whose client rectangles are one per line it occupies.
 */
async function brokenAcrossLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const patterns = [
      /-?(?:TK\. |৳)[\d০-৯][\d০-৯,.]*/g, // amounts (formatTaka)
      /\d{1,2} [A-Z][a-z]{2} \d{4}/g, // 28 Nov 2026
      /\d{1,2}:\d{2} [AP]M/g, // 8:00 PM
      /[০-৯]{1,2} [\u0980-\u09FF]+,? [০-৯]{4}/g, // ২৮ নভেম্বর ২০২৬
      /[\u0980-\u09FF]+ [০-৯]{1,2}:[০-৯]{2}/g, // রাত ৮:০০
    ];
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const pattern of patterns) {
        for (const m of text.matchAll(pattern)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
          if (!rects.length) continue; // not shown (a closed dialog, a hidden slide)
          const lines = new Set(rects.map((r) => Math.round(r.bottom))).size;
          if (lines > 1) broken.push(`"${m[0]}" on ${lines} lines in <${node.parentElement?.localName}.${node.parentElement?.className}>`);
        }
      }
    }
    return broken;
  });
}

for (const lng of LANGUAGES) {
  test(`${lng}, 1280 and 360 px: no amount, date or time breaks across lines`, async ({ page, request }) => {
    const id = await featuredLotteryId(request);
    await enterAs(page, request, 'player', lng);
    const problems: string[] = [];
    for (const path of [
      '/',
      `/?pick=${id}`,
      '/all-lotteries',
      `/quick-play?lottery=${id}&action=edit`,
      `/quick-play/${id}/03-14-27-41-55-09`,
      '/profile',
    ]) {
      // Each page opened once on the desktop, then narrowed to a phone's width (docs/decisions/069-jest-workers-and-one-visit-per-page.md).
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(path);
      await page.evaluate(() => document.fonts.ready);
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 900 });
        problems.push(...(await brokenAcrossLines(page)).map((p) => `${path} at ${width} px: ${p}`));
      }
    }
    expect(problems, `broken across lines:\n  ${problems.join('\n  ')}`).toEqual([]);
  });
}

test('the quick-play panel shows the prize on one line at 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await useLanguage(page, 'en');
  await page.goto('/');
  const prize = page.locator('#quick-play .qp__prize strong');
  await expect(prize).toHaveText(/^TK\. [\d,]+$/);
  const { height, lineHeight } = await prize.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    lineHeight: parseFloat(getComputedStyle(el).lineHeight),
  }));
  expect(height, 'one line high').toBeLessThan(lineHeight * 1.5);
});

/**
 * The fonts Chromium set a text in (DevTools protocol: the platform fonts of the element's text), for each
 * element of `selector` whose text is Bengali (with spaces and punctuation): those that used a font other than
 * ours for more glyphs than the text has non-Bengali characters (spaces, ·) — Bengali letters in another font.
 */
async function bengaliInOtherFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
  const problems: string[] = [];
  for (const nodeId of nodeIds) {
    const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
    const text = outerHTML.replace(/<[^>]*>/g, '');
    if (!/^[\u0980-\u09FF\s·.,]+$/.test(text)) continue;
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    const others = fonts.filter((f) => !f.familyName.startsWith(BENGALI_FONT));
    const otherGlyphs = others.reduce((n, f) => n + f.glyphCount, 0);
    if (!fonts.some((f) => f.familyName.startsWith(BENGALI_FONT)) || otherGlyphs > text.replace(/[\u0980-\u09FF]/g, '').length)
      problems.push(`"${text}" set in ${fonts.map((f) => `${f.familyName} (${f.glyphCount} glyphs)`).join(', ')}`);
  }
  await cdp.detach();
  expect(nodeIds.length, `no element matches ${selector}`).toBeGreaterThan(0);
  return problems;
}

test('Bengali characters on an English page are set in the Bengali font: the top bar and the language chooser', async ({ page }) => {
  // First visit: the chooser is open over an English page.
  await page.goto('/faq');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('a.chooser-option')).toHaveCount(2);
  await page.evaluate(() => document.fonts.ready);
  const problems = await bengaliInOtherFonts(page, 'a.chooser-option span, .dialog__title span');
  // A returning visitor who chose English: the language switch of the top bar.
  await useLanguage(page, 'en');
  await page.goto('/faq');
  await page.evaluate(() => document.fonts.ready);
  problems.push(...(await bengaliInOtherFonts(page, '.lang-switch, .lang-switch *')));
  expect(problems, `Bengali text not in ${BENGALI_FONT}:\n  ${problems.join('\n  ')}`).toEqual([]);
});
