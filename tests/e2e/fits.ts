import type { Page } from '@playwright/test';
import { axeFindings } from './axe.ts';

/**
 * What is wrong with the page on screen at `width` px, added to `problems`: anything wider than the screen (the first
 * three elements that stick out, not counting a scrolling table's cells or the back office's sideways-scrolling menu),
 * and axe's serious and critical findings. axe runs as a script in the page, so only
 * where JavaScript is on (`axe: false` otherwise; the same page is then audited in a run with it).
 */
export async function fits(page: Page, width: number, label: string, problems: string[], o: { axe?: boolean } = {}): Promise<void> {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scroll > width) {
    const wide = await page.evaluate(
      (w) =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > w && !e.closest('.table-scroll *, .admin-nav'))
          .slice(0, 3)
          .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`),
      width,
    );
    problems.push(`${label} ${width}: ${scroll} px wide (${wide.join(', ')})`);
  }
  if (o.axe === false) return;
  for (const finding of await axeFindings(page)) problems.push(`${label} ${width}: axe ${finding}`);
}
