/**
 * Makes the app's PNG icons (public/icons, committed) from the Bhagya mark (views/components/logo.tsx, public/favicon.svg),
 * rendered by Chromium with our own Bengali font, so that ভা looks as it does on the pages. Run again only when the
 * mark changes: `npx tsx scripts/make-icons.ts` (Debian's Chromium, as the browser journeys use).
 *   icon-192.png, icon-512.png   the mark on a transparent background ("any")
 *   icon-maskable-512.png        the mark inside the safe circle on a full green square ("maskable": Android crops it)
 *   apple-touch-icon.png (180)   as the maskable one (iOS fills transparency with black)
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { THEME_COLOUR } from '../shared/app-shell.ts';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'public', 'icons');
// Inlined: a page made with setContent may not load a file:// font.
const font = `data:font/woff2;base64,${readFileSync(path.join(root, 'public', 'fonts', 'noto-sans-bengali-600.woff2')).toString('base64')}`;

/** The mark of logo.tsx, its text in the 600 face (the heaviest we serve). */
const MARK = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" width="100%" height="100%">
<circle cx="24" cy="24" r="22" fill="${THEME_COLOUR}"/><circle cx="24" cy="24" r="15" fill="#fff"/>
<circle cx="24" cy="24" r="22" fill="none" stroke="#f4b400" stroke-width="3"/>
<text x="24" y="30" text-anchor="middle" font-size="17" font-weight="600" fill="#c8102e" font-family="Bengali">ভা</text></svg>`;

/** `mark`: the mark's width as a share of the icon; `fill`: the square's colour behind it, or none. */
const ICONS = [
  { name: 'icon-192.png', size: 192, mark: 1, fill: null },
  { name: 'icon-512.png', size: 512, mark: 1, fill: null },
  // The safe zone of a maskable icon is the centred circle of 80 % of its width: the mark (with its ring) stays inside.
  { name: 'icon-maskable-512.png', size: 512, mark: 0.72, fill: THEME_COLOUR },
  { name: 'apple-touch-icon.png', size: 180, mark: 0.8, fill: THEME_COLOUR },
] as const;

const page = (size: number, mark: number, fill: string | null) => `<!doctype html><html><head><style>
@font-face { font-family: Bengali; src: url('${font}') format('woff2'); font-weight: 600; }
html, body { margin: 0; background: ${fill ?? 'transparent'}; }
body { width: ${size}px; height: ${size}px; display: grid; place-items: center; }
div { width: ${mark * size}px; height: ${mark * size}px; }
</style></head><body><div>${MARK}</div></body></html>`;

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const icon of ICONS) {
    const p = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await p.setContent(page(icon.size, icon.mark, icon.fill));
    await p.evaluate(() => document.fonts.ready);
    await p.screenshot({ path: path.join(out, icon.name), omitBackground: icon.fill === null });
    await p.close();
    console.log(`public/icons/${icon.name}`);
  }
} finally {
  await browser.close();
}
