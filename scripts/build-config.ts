/**
 * The esbuild options and the manifest of the client build, shared by scripts/build.ts and the test that checks
 * every route's chunk is in the manifest (tests/unit/build-manifest.test.ts).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import type { Manifest } from '../server/ssr/assets.ts';

export const root = path.resolve(import.meta.dirname, '..');
const FONTS: Manifest['fonts'] = { bn: '/fonts/noto-sans-bengali-400.woff2' };

export type { Manifest };

/** outClient: the folder that holds `assets/` and `manifest.json` (URLs are relative to it). */
export function manifestOf(meta: esbuild.Metafile, outClient: string): Manifest {
  const url = (out: string) => `/${path.relative(outClient, path.join(root, out)).split(path.sep).join('/')}`;
  const staticImports = (out: string, seen = new Set<string>()): string[] => {
    if (seen.has(out)) return [];
    seen.add(out);
    for (const imp of meta.outputs[out]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) staticImports(imp.path, seen);
    return [...seen];
  };
  const m: Manifest = { entry: '', entryImports: [], islands: '', islandsImports: [], css: [], chunks: {}, fonts: FONTS };
  for (const [out, info] of Object.entries(meta.outputs)) {
    if (out.endsWith('.map')) continue;
    if (out.endsWith('.css')) {
      m.css.push(url(out));
      continue;
    }
    if (!info.entryPoint) continue;
    const files = staticImports(out).map(url);
    if (info.entryPoint === 'client/entry.tsx') {
      m.entry = url(out);
      m.entryImports = files.filter((f) => f !== m.entry);
    } else if (info.entryPoint === 'client/islands.tsx') {
      m.islands = url(out);
      m.islandsImports = files.filter((f) => f !== m.islands);
    } else m.chunks[info.entryPoint] = files;
  }
  return m;
}

/** Writes manifest.json next to the build's `assets/` folder. */
const writeManifest = (onWritten?: () => void): esbuild.Plugin => ({
  name: 'manifest',
  setup(build) {
    build.onEnd((r) => {
      if (r.errors.length || !r.metafile) return;
      const outClient = path.dirname(build.initialOptions.outdir as string);
      writeFileSync(path.join(outClient, 'manifest.json'), JSON.stringify(manifestOf(r.metafile, outClient), null, 1));
      onWritten?.();
    });
  },
});

/**
 * zod's messages in its ~50 other languages (`z.locales`), which the pages never use (their messages are ours,
 * locales/*\/validation.json; zod's own English stays): `export * as locales` keeps all of them in any bundle that
 * imports `z`, about 250 KB of minified JavaScript on every page. The browser build gets an empty module instead.
 */
const withoutZodLocales: esbuild.Plugin = {
  name: 'without-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'empty' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** The browser bundles, written to `<outClient>/assets`. */
export const clientOptions = (outClient: string, onWritten?: () => void): esbuild.BuildOptions => ({
  absWorkingDir: root,
  entryPoints: ['client/entry.tsx', 'client/islands.tsx', 'views/styles/index.css'],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome103', 'safari16', 'firefox102'],
  outdir: path.join(outClient, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: 'c/[name]-[hash]',
  assetNames: 'a/[name]-[hash]',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['/fonts/*'],
  legalComments: 'linked',
  logLevel: 'warning',
  plugins: [withoutZodLocales, writeManifest(onWritten)],
});

/**
 * The service worker (client/sw.ts), built on its own: one classic script (a module worker is not registered by every
 * browser the client targets), unhashed at `<outClient>/sw.js`; the server serves it at /sw.js with its config before it
 * (server/pwa/service-worker.ts, docs/rules/app.md#3-the-service-worker).
 */
export const serviceWorkerOptions = (outClient: string): esbuild.BuildOptions => ({
  absWorkingDir: root,
  entryPoints: ['client/sw.ts'],
  outfile: path.join(outClient, 'sw.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022', 'chrome103', 'safari16', 'firefox102'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

export const serverOptions: esbuild.BuildOptions = {
  absWorkingDir: root,
  // The server, and the backup and restore commands (`npm run backup`, `npm run restore`) that run where it runs.
  entryPoints: { index: 'server/index.ts', backup: 'server/db/backup-cli.ts' },
  outdir: path.join(root, 'dist', 'server'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  jsx: 'automatic',
  logLevel: 'warning',
};
