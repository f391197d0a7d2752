import type { Page } from '@playwright/test';
import { axeFindings } from './axe.ts';

/**
 * The document's scroll width and every element whose right edge is past a `width` px screen, except inside an element
 * that clips or scrolls its content sideways (a carousel, a scrolling table, the back office's menu: their own box is
 * checked instead). Only the innermost offenders are named: they say where the cause is; their ancestors (the top bar,
 * the container) only follow.
 */
async function overflow(page: Page, width: number): Promise<{ scrollWidth: number; offenders: string[] }> {
  return page.evaluate((w) => {
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
      return (r.width > 0 || r.height > 0) && r.right > w + 0.5 && !clipped(el);
    });
    const innermost = offenders.filter((el) => !offenders.some((o) => o !== el && el.contains(o)));
    return { scrollWidth: document.documentElement.scrollWidth, offenders: innermost.map(name) };
  }, width);
}

/**
 * What is wrong with the page on screen at `width` px, added to `problems`: anything wider than the screen (the page's
 * width and what sticks out, `overflow`), and axe's serious and critical findings. axe runs as a script in the page, so
 * only where JavaScript is on (`axe: false` otherwise; the same page is then audited in a run with it).
 */
export async function fits(page: Page, width: number, label: string, problems: string[], o: { axe?: boolean } = {}): Promise<void> {
  const { scrollWidth, offenders } = await overflow(page, width);
  if (scrollWidth > width || offenders.length)
    problems.push(`${label} ${width}: ${scrollWidth} px wide\n      ${offenders.join('\n      ') || '(no element found)'}`);
  if (o.axe === false) return;
  for (const finding of await axeFindings(page)) problems.push(`${label} ${width}: axe ${finding}`);
}
