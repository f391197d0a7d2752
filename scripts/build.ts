/**
 * Builds the product with esbuild: hashed, code-split client bundles (one chunk per route module), the CSS,
 * a manifest the server reads to preload what a page needs, and the server bundle.
 *   tsx scripts/build.ts           production build
 *   tsx scripts/build.ts --watch   client rebuilds on change (npm run dev)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outClient = path.join(root, 'dist', 'client');
const watch = process.argv.includes('--watch');
const FONTS = { bn: '/fonts/noto-sans-bengali-400.woff2' };

type Manifest = { entry: string; entryImports: string[]; islands: string; islandsImports: string[]; css: string[]; chunks: Record<string, string[]>; fonts: Record<string, string> };

function manifestOf(meta: esbuild.Metafile): Manifest {
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

const writeManifest: esbuild.Plugin = {
  name: 'manifest',
  setup(build) {
    build.onEnd((r) => {
      if (r.errors.length || !r.metafile) return;
      writeFileSync(path.join(outClient, 'manifest.json'), JSON.stringify(manifestOf(r.metafile), null, 1));
      if (watch) console.log(`[build] client rebuilt ${new Date().toLocaleTimeString()}`);
    });
  },
};

const client: esbuild.BuildOptions = {
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
  plugins: [writeManifest],
};

const server: esbuild.BuildOptions = {
  absWorkingDir: root,
  entryPoints: ['server/index.ts'],
  outfile: path.join(root, 'dist', 'server', 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  jsx: 'automatic',
  logLevel: 'warning',
};

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

if (watch) {
  mkdirSync(outClient, { recursive: true });
  const ctx = await esbuild.context({ ...client, minify: false });
  await ctx.watch();
  console.log('[build] watching client files');
} else {
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  mkdirSync(outClient, { recursive: true });
  await Promise.all([esbuild.build(client), esbuild.build(server)]);
  precompress(path.join(outClient, 'assets'));
  console.log('[build] dist/client and dist/server written');
}
