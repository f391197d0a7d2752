/**
 * The esbuild options and the manifest of the client build, shared by scripts/build.ts and the test that checks
 * every route's chunk is in the manifest (tests/unit/build-manifest.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

/**
 * views/routes.tsx as the server's bundle needs it: bundling rewrites each page's `() => import('./home/home.tsx')`
 * to a chunk of the server's own, so each such loader is given the module's path (`module: 'views/home/home.tsx'`),
 * which names the page's client chunk in the manifest (views/routes.tsx, `moduleOf`).
 */
export function namedRouteModules(source: string): string {
  return source.replace(
    /\(\)\s*=>\s*import\(\s*'\.\/([^']+\.tsx)'\s*\)/g,
    (load: string, module: string) => `Object.assign(${load}, { module: 'views/${module}' })`,
  );
}

export const routeModules: esbuild.Plugin = {
  name: 'route-modules',
  setup(b) {
    b.onLoad({ filter: /[\\/]views[\\/]routes\.tsx$/ }, (args) => ({
      contents: namedRouteModules(readFileSync(args.path, 'utf8')),
      loader: 'tsx',
    }));
  },
};

/**
 * What the server bundle leaves to `node_modules`: sharp's native binary (libvips) and the optional native driver pg
 * asks for when it is installed. Everything else — the app and its libraries, PGlite's JavaScript among them — is in
 * the bundle, so the container ships these packages and nothing else of node_modules (scripts/runtime-modules.ts,
 * docs/decisions/042-server-bundle-with-its-libraries.md).
 */
export const SERVER_EXTERNALS = ['sharp', 'pg-native'] as const;

/** The files PGlite opens beside its code (`new URL('./pglite.wasm', import.meta.url)`), copied beside the bundle. */
export const PGLITE_FILES = ['pglite.wasm', 'pglite.data', 'initdb.wasm'] as const;

export const serverOptions: esbuild.BuildOptions = {
  absWorkingDir: root,
  // The server, the backup and restore commands (`npm run backup`, `npm run restore`) that run where it runs, and the
  // embedded database's thread (server/db/pglite-thread.ts starts it from dist/server/pglite-worker.js).
  entryPoints: { index: 'server/index.ts', backup: 'server/db/backup-cli.ts', 'pglite-worker': 'server/db/pglite-worker.ts' },
  outdir: path.join(root, 'dist', 'server'),
  bundle: true,
  // What the two share (the database, PGlite) is one chunk, not a copy in each; the views the routes load lazily are
  // chunks of their own, read when a page first needs them. All in one folder, so that PGlite's files beside the
  // bundle are beside whichever chunk holds its code.
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: [...SERVER_EXTERNALS],
  // The CommonJS libraries in an ES module bundle still `require` node's own modules.
  banner: {
    js: "import { createRequire as __bhagyaCreateRequire } from 'node:module'; const require = __bhagyaCreateRequire(import.meta.url);",
  },
  // Whitespace and syntax only: names stay, so a logged stack trace still says which function it passed through.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  jsx: 'automatic',
  logLevel: 'warning',
  plugins: [routeModules],
};

/**
 * The bKash simulator, a development tool (docs/rules/bkash.md#6-the-simulator): a bundle of its own, never part of the
 * server's (docs/decisions/063-where-the-weight-is.md). The built server imports it from dist/dev/ outside production
 * (server/payments/bkash/simulator-module.ts); the container leaves dist/dev/ out (Dockerfile).
 */
export const simulatorOptions: esbuild.BuildOptions = {
  ...serverOptions,
  entryPoints: { 'bkash-simulator': 'scripts/bkash-simulator/simulator.ts' },
  outdir: path.join(root, 'dist', 'dev'),
  splitting: false,
  plugins: [],
};
