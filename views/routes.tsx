import { redirect, type LazyRouteFunction, type MiddlewareFunction, type RouteObject } from 'react-router';
import { adminPaths, movedPaths, paths, PAYMENT_DEMOS } from '../shared/paths.ts';
import { guestOnly, requireStaff, requireUser } from './guards.ts';
import { toPurchaseFlow } from './payment/demos.ts';
import { NOTIFICATIONS_ROUTE } from './components/bell.tsx';
import { Root, RootErrorBoundary, rootLoader } from './root.tsx';

/**
 * `chunk` is the route module's path from the project root (`views/accounts/login.tsx`): the server preloads its
 * bundle by that name from the build manifest. `cache` lists the query parameters with which an anonymous page
 * may be served from the page cache (any other parameter, e.g. a free-text search, is rendered fresh so that
 * random URLs cannot crowd the cache); `islands` serves the page with the light entry.
 */
export type RouteHandle = { chunk?: string; cache?: readonly string[]; islands?: boolean };

type Lazy = LazyRouteFunction<RouteObject>;
type PageOptions = { cache?: readonly string[]; islands?: boolean };

/**
 * A page's loader of its module (`() => import('./home/home.tsx')`), the one place that names the module. The server's
 * build gives it the module's path as `module` (scripts/build-config.ts, `routeModules`), since bundling rewrites the
 * import; run from the sources (tsx, jest) the path is read from the import itself.
 */
type Load = Lazy & { module?: string };

/** The path from the project root (`views/home/home.tsx`) of the module a page's `load` imports; undefined if unknown. */
export function moduleOf(load: Load): string | undefined {
  if (load.module) return load.module;
  const imported = /import\(\s*['"]\.\/([^'"]+\.tsx)['"]\s*\)/.exec(String(load))?.[1];
  return imported && `views/${imported}`;
}

/** A page: its module loaded when first needed, its chunk named after that module (docs/decisions/063-where-the-weight-is.md). */
const page = (load: Load, o: PageOptions = {}): Pick<RouteObject, 'handle' | 'lazy'> => ({
  handle: { chunk: moduleOf(load), cache: o.cache, islands: o.islands ?? false } satisfies RouteHandle,
  lazy: load,
});

/**
 * A group of pages behind one guard. The group's own loader has nothing to load; it is there so that the group
 * has loader data to hydrate with (a route with middleware but no data would make the browser router load it
 * again on hydration, rendering the page twice).
 */
const group = (id: string, guard: MiddlewareFunction, children: RouteObject[], path?: string): RouteObject => ({
  id,
  ...(path ? { path } : {}),
  middleware: [guard],
  loader: () => null,
  children,
});

/** Older addresses keep working as permanent redirects. */
const moved = (to: string) => () => redirect(to, 301);

/**
 * The route tree, defined once: the server's static handler and the browser router both use it. Every address comes
 * from shared/paths.ts (a page's `pattern` where it has parameters), so links and routes cannot drift apart.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: paths.home,
    loader: rootLoader,
    // The session changes only through actions (login, logout) or a full reload: plain navigations keep it. Leaving
    // the notifications page, which marked messages read, reads the bell's count again (docs/rules/messages.md).
    shouldRevalidate: ({ formMethod, currentUrl, defaultShouldRevalidate }) =>
      formMethod && formMethod !== 'GET' ? defaultShouldRevalidate : currentUrl.pathname === paths.notifications,
    Component: Root,
    ErrorBoundary: RootErrorBoundary,
    children: [
      // Anyone: the lottery pages and the information pages.
      { index: true, ...page(() => import('./home/home.tsx'), { cache: ['pick'], islands: true }) },
      {
        path: paths.allLotteries,
        ...page(() => import('./lotteries/all-lotteries.tsx'), { cache: ['page', 'pick'] }),
      },
      { path: paths.picker, ...page(() => import('./lotteries/quick-play.tsx')) },
      { path: paths.quickPlay.pattern, ...page(() => import('./lotteries/quick-play.tsx')) },
      { path: paths.faq, ...page(() => import('./content/faq.tsx'), { cache: ['category'] }) },
      { path: paths.howToPlay, ...page(() => import('./content/how-to-play.tsx'), { cache: [] }) },
      { path: paths.playResponsibly, ...page(() => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.notice, ...page(() => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.terms, ...page(() => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.about, ...page(() => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.contact, ...page(() => import('./content/contact.tsx')) },
      // The results archive (searched and paged: any other parameter is rendered fresh) and "check my numbers" (a
      // visitor's ticket, and a player's own tickets: never kept). Their static paths win over /results/:lotteryId.
      {
        path: paths.resultsArchive,
        ...page(() => import('./results/archive.tsx'), { cache: ['page'] }),
      },
      { path: paths.checkNumbers, ...page(() => import('./results/check.tsx')) },
      // Not a shared page: its "check it yourself" command names the origin the visitor reached (no Host of another's).
      { path: paths.results.pattern, ...page(() => import('./results/draw.tsx')) },
      { path: paths.logout, ...page(() => import('./accounts/logout.tsx')) },
      // bKash sends the player back here, logged in or not: the payment is settled, then his payment page shows it.
      { path: paths.bkashCallback, ...page(() => import('./lotteries/checkout-return.tsx')) },
      { path: paths.bkashAgreementCallback, ...page(() => import('./lotteries/agreement-return.tsx')) },
      { path: paths.verifyOtp, ...page(() => import('./accounts/verify-otp.tsx')) },
      { path: paths.forgotPassword, ...page(() => import('./accounts/forgot-password.tsx')) },
      { path: paths.resetPassword, ...page(() => import('./accounts/reset-password.tsx')) },
      // Visitors only: a logged-in user is sent on.
      group('guest', guestOnly, [
        { path: paths.login, ...page(() => import('./accounts/login.tsx')) },
        { path: paths.register, ...page(() => import('./accounts/register.tsx')) },
      ]),
      // Logged in.
      group('player', requireUser, [
        { path: paths.profile, ...page(() => import('./accounts/profile.tsx')) },
        { path: paths.profileEdit, ...page(() => import('./accounts/profile.tsx')) },
        { path: paths.profileLimits, ...page(() => import('./accounts/play-limits.tsx')) },
        { path: paths.profileBkash, ...page(() => import('./accounts/bkash-account.tsx')) },
        { path: paths.realityCheck, ...page(() => import('./accounts/reality-check.tsx')) },
        {
          id: NOTIFICATIONS_ROUTE,
          path: paths.notifications,
          ...page(() => import('./accounts/notifications.tsx')),
        },
        { path: paths.paymentSystem, ...page(() => import('./payment/system.tsx')) },
        { path: paths.myLotteries, ...page(() => import('./lotteries/my-lotteries.tsx')) },
        { path: paths.activate, ...page(() => import('./lotteries/activate.tsx')) },
        { path: paths.run.pattern, ...page(() => import('./lotteries/run.tsx')) },
        { path: paths.buy.pattern, ...page(() => import('./lotteries/buy.tsx')) },
        { path: paths.payment.pattern, ...page(() => import('./lotteries/payment.tsx')) },
        { path: paths.paymentCheckout.pattern, ...page(() => import('./lotteries/payment.tsx')) },
        { path: paths.prizeClaim.pattern, ...page(() => import('./lotteries/prize-claim.tsx')) },
      ]),
      // Staff.
      // `/admin` itself too: a splat child does not match the group's own path, which rendered an empty page.
      group(
        'staff',
        requireStaff,
        [
          {
            id: 'admin-shell',
            ...page(() => import('./admin/shell.tsx')),
            children: [
              { index: true, loader: () => redirect(adminPaths.dashboard) },
              { path: adminPaths.dashboard, ...page(() => import('./admin/dashboard.tsx')) },
              { path: adminPaths.lotteries, ...page(() => import('./admin/lotteries.tsx')) },
              { path: adminPaths.createLottery, ...page(() => import('./admin/lottery-form.tsx')) },
              { path: adminPaths.editLottery.pattern, ...page(() => import('./admin/lottery-form.tsx')) },
              { path: adminPaths.drawLottery.pattern, ...page(() => import('./admin/draw.tsx')) },
              { path: adminPaths.games, ...page(() => import('./admin/games.tsx')) },
              { path: adminPaths.newGame, ...page(() => import('./admin/game-new.tsx')) },
              { path: adminPaths.game.pattern, ...page(() => import('./admin/game.tsx')) },
              { path: adminPaths.prizeClaims, ...page(() => import('./admin/prize-claims.tsx')) },
              { path: adminPaths.generatedTickets, ...page(() => import('./admin/generated-tickets.tsx')) },
              { path: adminPaths.auditLog, ...page(() => import('./admin/audit-log.tsx')) },
              { path: adminPaths.deliveries, ...page(() => import('./admin/deliveries.tsx')) },
              { path: adminPaths.transactions, ...page(() => import('./admin/transactions.tsx')) },
              { path: adminPaths.bkashStatements, ...page(() => import('./admin/bkash-statements.tsx')) },
              {
                path: adminPaths.bkashStatement.pattern,
                ...page(() => import('./admin/bkash-statement.tsx')),
              },
              { path: adminPaths.users, ...page(() => import('./admin/users.tsx')) },
              { path: adminPaths.newUser, ...page(() => import('./admin/user-form.tsx')) },
              { path: adminPaths.editUser.pattern, ...page(() => import('./admin/user-form.tsx')) },
              { path: '*', ...page(() => import('./admin/placeholder.tsx')) },
            ],
          },
        ],
        adminPaths.home,
      ),
      // The spec's demo payment pages are not product features: they lead to the real purchase flow.
      ...PAYMENT_DEMOS.map((method) => ({ path: paths.paymentDemo(method), loader: toPurchaseFlow })),
      ...Object.entries(movedPaths).map(([path, to]) => ({ path, loader: moved(to) })),
      { path: '*', ...page(() => import('./content/not-found.tsx')) },
    ],
  },
];
