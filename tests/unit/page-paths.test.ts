import { matchRoutes } from 'react-router';
import { adminPaths, movedPaths, paths, PAYMENT_DEMOS, withQuery } from '../../shared/paths.ts';
import { routes } from '../../views/routes.tsx';
import { flattenRoutes, samplePath } from '../helpers/routes.ts';

/** Every address shared/paths.ts declares: plain paths, the patterns of those with parameters, the demo pages. */
const declared = (o: Record<string, unknown>): string[] =>
  Object.values(o).flatMap((v) => (typeof v === 'string' ? [v] : typeof v === 'function' && 'pattern' in v ? [String(v.pattern)] : []));
const DECLARED = new Set([
  ...declared(paths),
  ...declared(adminPaths),
  ...PAYMENT_DEMOS.map(paths.paymentDemo),
  ...Object.keys(movedPaths),
]);

/** The route the router picks for an address (the innermost match). */
const routeOf = (url: string) => matchRoutes(routes, url)?.at(-1)?.route;

describe('page addresses are declared once (shared/paths.ts)', () => {
  test('a builder fills its pattern in order, and its pattern is what the route tree holds', () => {
    expect(paths.quickPlay(3, '05-12-23-34-45-07')).toBe('/quick-play/3/05-12-23-34-45-07');
    expect(paths.buy(3, '05-12-23-34-45-07')).toBe('/quick-play/3/05-12-23-34-45-07/buy');
    expect(paths.payment(42)).toBe('/payment/42');
    expect(paths.run(7)).toBe('/my-lotteries/runs/7');
    expect(paths.prizeClaim('9')).toBe('/user/prize-claim/9');
    expect(adminPaths.editLottery(7)).toBe('/admin/lotteries/7/edit');
    expect(adminPaths.drawLottery(7)).toBe('/admin/lotteries/7/draw');
    expect(adminPaths.editUser(5)).toBe('/admin/users/5/edit');
    expect(adminPaths.game(4)).toBe('/admin/games/4');
    expect(paths.quickPlay.pattern).toBe('/quick-play/:lotteryId/:ticket');
    // A value cannot add a segment of its own.
    expect(paths.quickPlay('1/x', 'a?b')).toBe('/quick-play/1%2Fx/a%3Fb');
  });

  test('every path of the route tree is a declared address (no literal page path in views/routes.tsx)', () => {
    const treePaths = flattenRoutes(routes)
      .filter(({ route }) => route.path !== undefined && route.path !== '*')
      .map(({ path }) => path);
    expect(treePaths.length).toBeGreaterThan(40);
    for (const p of treePaths) expect([p, DECLARED.has(p)]).toEqual([p, true]);
  });

  test('every declared address leads to a page of the tree, not to Not Found', () => {
    for (const p of DECLARED) {
      const route = routeOf(samplePath(p));
      expect([p, route?.path]).not.toEqual([p, '*']);
      expect([p, route]).not.toEqual([p, undefined]);
    }
    // The splats are still there for what nothing declares.
    expect(routeOf('/no-such-page')?.path).toBe('*');
    expect(routeOf('/admin/no-such-page')?.path).toBe('*');
  });

  test('an older address leads to a page of today', () => {
    for (const to of Object.values(movedPaths)) expect(DECLARED.has(to)).toBe(true);
    expect(movedPaths['/user-dashboard/available-tickets']).toBe(paths.allLotteries);
  });
});

test('withQuery repeats a list under its name, in order, and leaves empty values out', () => {
  expect(withQuery(paths.picker, { lottery: '3', main: ['5', '12', ''], last: '7', action: 'edit' })).toBe(
    '/quick-play?lottery=3&main=5&main=12&last=7&action=edit',
  );
  expect(withQuery(paths.picker, { lottery: '3', main: undefined, last: null, action: 'edit' })).toBe('/quick-play?lottery=3&action=edit');
  expect(withQuery(paths.picker, { main: [] })).toBe('/quick-play');
});
