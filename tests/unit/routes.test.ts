import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { RouteObject } from 'react-router';
import { namedRouteModules, root, serverOptions } from '../../scripts/build-config.ts';
import { routes } from '../../views/routes.tsx';
import { flattenRoutes, handleOf } from '../helpers/routes.ts';

const pages = flattenRoutes(routes).filter(({ route }) => typeof route.lazy === 'function');

describe('route tree', () => {
  test('has the pages of every feature group', () => {
    const paths = pages.map((p) => p.path);
    for (const p of ['/', '/login', '/register', '/profile', '/my-lotteries', '/all-lotteries', '/faq', '/contact', '/admin/*'])
      expect(paths).toContain(p);
  });

  test.each(pages.map((p) => [p.path, p.route] as const))('%s: the chunk name is the module that its lazy() imports', (_path, route) => {
    const imported = /import\(\s*['"]\.\/([^'"]+)['"]\s*\)/.exec(String(route.lazy))?.[1];
    expect(imported).toBeDefined();
    expect(handleOf(route)?.chunk).toBe(`views/${imported}`);
  });

  test.each(pages.map((p) => [p.path, p.route] as const))('%s: its module exists and exports a page', async (_path, route) => {
    const mod = (await (route.lazy as () => Promise<Record<string, unknown>>)()) as Record<string, unknown>;
    expect(typeof mod.Component).toBe('function');
  });

  test('guards are declared once per group, on the layout routes, not on the pages', () => {
    const all = flattenRoutes(routes);
    const guarded = Object.fromEntries(
      all.filter(({ route }) => route.middleware?.length).map(({ route }) => [route.id, route.children?.length ?? 0]),
    );
    expect(Object.keys(guarded).sort()).toEqual(['guest', 'player', 'staff']);
    for (const n of Object.values(guarded)) expect(n).toBeGreaterThan(0);
    // A guarded group without loader data would be loaded again by the browser on hydration (the page rendered twice).
    for (const { route } of all.filter((x) => x.route.middleware?.length)) expect(typeof route.loader).toBe('function');
    for (const { route } of pages) expect(route.middleware).toBeUndefined();
  });
});

describe("the server bundle's route tree (scripts/build-config.ts, routeModules)", () => {
  // Bundling rewrites each page's import to a chunk of the server's own: the build gives each loader its module's
  // path, so the bundled tree names the same chunks as the sources do. Written inside node_modules so that the
  // bundle's imports of its libraries resolve.
  const out = path.join(root, 'node_modules', '.cache', `bhagya-routes-${process.pid}`);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('names every page by the module it loads, as the sources do', async () => {
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'package.json'), '{"type":"module"}');
    await esbuild.build({
      ...serverOptions,
      entryPoints: { routes: 'views/routes.tsx' },
      outdir: out,
      packages: 'external',
      sourcemap: false,
      legalComments: 'none',
      banner: {},
    });
    const bundled = ((await import(pathToFileURL(path.join(out, 'routes.js')).href)) as { routes: RouteObject[] }).routes;
    const chunks = (tree: RouteObject[]) =>
      flattenRoutes(tree)
        .filter(({ route }) => typeof route.lazy === 'function')
        .map(({ path: p, route }) => [p, handleOf(route)?.chunk]);
    expect(chunks(bundled)).toEqual(chunks(routes));
    expect(chunks(bundled).every(([, c]) => typeof c === 'string' && c.startsWith('views/'))).toBe(true);
  }, 60_000);

  test('gives a loader its module however the import is laid out, and leaves other code alone', () => {
    expect(namedRouteModules(`page(() =>\n  import( './a/b.tsx' ), {})`)).toBe(
      `page(Object.assign(() =>\n  import( './a/b.tsx' ), { module: 'views/a/b.tsx' }), {})`,
    );
    expect(namedRouteModules(`import('./a/b.ts'); const f = () => 1;`)).toBe(`import('./a/b.ts'); const f = () => 1;`);
  });
});
