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
