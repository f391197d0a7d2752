/**
 * `npm run size`: the gzip bytes of the JavaScript, CSS and fonts that `/` loads, in each language, against
 * the budgets of docs/rules/limits.md#6-page-budgets (JS ≤ 100 KB gzip, CSS ≤ 20 KB gzip; fonts self-hosted and subset, our own cap).
 * It starts the built app on the embedded database with the demo data, asks for `/` as a first-time
 * visitor would in each language, and follows every script, module preload, stylesheet and font it names.
 * The back office has a budget of its own: ≤ 150 KB gzip for the chunks only its pages load (from the build
 * manifest), and it must add nothing to what `/` loads (none of those chunks there).
 * Exits 1 when a budget is exceeded. Run `npm run build` first.
 */
import { existsSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';

const KB = 1000;
const BUDGET = { js: 100 * KB, css: 20 * KB, fonts: 100 * KB } as const;
const ADMIN_JS_BUDGET = 150 * KB;
const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'dist/client/manifest.json'))) {
  console.error('No build found: run `npm run build` first.');
  process.exit(2);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bhagya-size-'));
const app = await createApp(
  loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'true', LOG_LEVEL: 'silent', PORT: '0', SECRET_KEY: 'size-bench-'.padEnd(40, 'x') }),
  { inMemoryDb: true },
);
const server = app.app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * Bytes on the wire: the precompressed .gz twin for scripts and stylesheets, woff2 as is for fonts; the client's texts
 * (made by the server at start, server/ssr/texts.ts) as the server sends them gzipped.
 */
async function wireBytes(url: string): Promise<number> {
  if (url.startsWith('/texts/')) {
    const r = await fetch(`${base}${url}`, { headers: { 'accept-encoding': 'gzip' } });
    if (r.status !== 200 || r.headers.get('content-encoding') !== 'gzip') throw new Error(`${url}: ${r.status}`);
    return Number(r.headers.get('content-length'));
  }
  const file = path.join(root, url.startsWith('/assets/') ? 'dist/client' : 'public', url);
  if (url.endsWith('.woff2')) return readFileSync(file).length;
  return existsSync(`${file}.gz`) ? readFileSync(`${file}.gz`).length : gzipSync(readFileSync(file), { level: 9 }).length;
}

const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];

async function measure(lng: 'en' | 'bn') {
  const res = await fetch(`${base}/`, { headers: { cookie: `lang=${lng}` } });
  const html = await res.text();
  const js = new Set<string>(),
    css = new Set<string>(),
    fonts = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const src = attr(tag, 'src'),
      href = attr(tag, 'href'),
      rel = attr(tag, 'rel');
    if (tag.startsWith('<script') && src) js.add(src);
    else if (rel === 'modulepreload' && href) js.add(href);
    else if (rel === 'stylesheet' && href) css.add(href);
    else if (rel === 'preload' && attr(tag, 'as') === 'font' && href) fonts.add(href);
  }
  // Bengali text on the page (in English too: the language switch reads বাংলা) makes the browser fetch the
  // Bengali faces the stylesheet declares for that range; count every weight declared.
  if (/[\u0980-\u09FF]/.test(html)) {
    for (const sheet of css)
      for (const m of readFileSync(path.join(root, 'dist/client', sheet), 'utf8').matchAll(/url\(["']?(\/fonts\/[^"')]+\.woff2)/g))
        fonts.add(m[1] as string);
  }
  const sum = async (s: Set<string>) => (await Promise.all([...s].map(wireBytes))).reduce((n, b) => n + b, 0);
  return { lng, js: await sum(js), css: await sum(css), fonts: await sum(fonts), files: { js: [...js], css: [...css], fonts: [...fonts] } };
}

let failed = false;
const fmt = (n: number) => `${(n / KB).toFixed(1).padStart(6)} KB`;
console.log('What / loads (gzip bytes on the wire; fonts as woff2):');
for (const lng of ['en', 'bn'] as const) {
  const m = await measure(lng);
  for (const kind of ['js', 'css', 'fonts'] as const) {
    const ok = m[kind] <= BUDGET[kind];
    failed ||= !ok;
    console.log(
      `  ${lng}  ${kind.padEnd(5)} ${fmt(m[kind])}  budget ${fmt(BUDGET[kind])}  ${ok ? 'ok' : 'OVER BUDGET'}  (${m.files[kind].length} files)`,
    );
  }
}

// The back office, from the build manifest: what each admin page loads, and what only admin pages load.
type Manifest = { entry: string; entryImports: string[]; chunks: Record<string, string[]> };
const manifest = JSON.parse(readFileSync(path.join(root, 'dist/client/manifest.json'), 'utf8')) as Manifest;
const adminModules = Object.keys(manifest.chunks).filter((m) => m.startsWith('views/admin/'));
const usedElsewhere = new Set(Object.entries(manifest.chunks).flatMap(([m, files]) => (m.startsWith('views/admin/') ? [] : files)));
const adminOnly = new Set(adminModules.flatMap((m) => manifest.chunks[m] ?? []).filter((f) => !usedElsewhere.has(f)));
// The admin bundle: every chunk that only back-office pages load (their shared frame, the shell, every page).
const adminBytes = (await Promise.all([...adminOnly].map(wireBytes))).reduce((n, b) => n + b, 0);
const adminOk = adminBytes <= ADMIN_JS_BUDGET;
failed ||= !adminOk;
const appBytes = (await Promise.all([manifest.entry, ...manifest.entryImports].map(wireBytes))).reduce((n, b) => n + b, 0);
console.log(`The back office (${adminModules.length} page modules, ${adminOnly.size} chunks only they load):`);
console.log(`      js    ${fmt(adminBytes)}  budget ${fmt(ADMIN_JS_BUDGET)}  ${adminOk ? 'ok' : 'OVER BUDGET'}`);
console.log(`  (the application entry every page but / loads first: ${fmt(appBytes).trim()}, shared with the player's pages)`);
for (const lng of ['en', 'bn'] as const) {
  const m = await measure(lng);
  const leaked = m.files.js.filter((f) => adminOnly.has(f));
  failed ||= leaked.length > 0;
  console.log(`  ${lng}  / loads ${leaked.length ? `admin-only chunks: ${leaked.join(', ')}  OVER BUDGET` : 'no admin-only chunk  ok'}`);
}

server.close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
if (failed) {
  console.error('Size budget exceeded (docs/rules/limits.md#6-page-budgets).');
  process.exit(1);
}
