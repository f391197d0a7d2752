/**
 * Builds the product with esbuild: hashed, code-split client bundles (one chunk per route module), the CSS,
 * a manifest the server reads to preload what a page needs, the service worker (dist/client/sw.js), the server bundle and,
 * apart from it, the bKash simulator's (dist/dev/, development only); last, dist/build-stamp.json
 * with the hash of the sources it was built from (scripts/build-stamp.ts: `npm start` rebuilds when they change).
 *   tsx scripts/build.ts           production build
 *   tsx scripts/build.ts --watch   client rebuilds on change (npm run dev)
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { clientOptions, PGLITE_FILES, root, serverOptions, serviceWorkerOptions, simulatorOptions } from './build-config.ts';
import { sourceHash, STAMP_FILE, writeStamp } from './build-stamp.ts';

const outClient = path.join(root, 'dist', 'client');
const watch = process.argv.includes('--watch');
const client = clientOptions(outClient, watch ? () => console.log(`[build] client rebuilt ${new Date().toLocaleTimeString()}`) : undefined);
const server = serverOptions;

/** .gz and .br next to each script and stylesheet, made once here instead of on every request. */
function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
    writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

/** PGlite's WebAssembly and data files, where its bundled code looks for them: beside the server bundle. */
function copyPgliteFiles(outServer: string): void {
  const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (const file of PGLITE_FILES) copyFileSync(path.join(dist, file), path.join(outServer, file));
}

if (watch) {
  // The unminified client of the watch build is no production build: `npm start` must rebuild over it.
  rmSync(path.join(root, STAMP_FILE), { force: true });
  mkdirSync(outClient, { recursive: true });
  const ctx = await esbuild.context({ ...client, minify: false });
  await ctx.watch();
  const swCtx = await esbuild.context({ ...serviceWorkerOptions(outClient), minify: false });
  await swCtx.watch();
  console.log('[build] watching client files');
} else {
  // Hashed before building: a file edited during the build makes the stamp stale, never wrongly current.
  const hash = sourceHash(root);
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  mkdirSync(outClient, { recursive: true });
  await Promise.all([
    esbuild.build(client),
    esbuild.build(serviceWorkerOptions(outClient)),
    esbuild.build(server),
    esbuild.build(simulatorOptions),
  ]);
  precompress(path.join(outClient, 'assets'));
  copyPgliteFiles(serverOptions.outdir as string);
  writeStamp(root, hash);
  console.log('[build] dist/client, dist/server and dist/dev written');
}
