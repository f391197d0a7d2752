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
 * A page whose module is `views/<module>`: the chunk name is derived from the same module path that `load`
 * imports (tests/unit/routes.test.ts reads each `load` and fails on any difference, and the build test fails
 * when a chunk is missing from the manifest).
 */
const page = (module: `${string}.tsx`, load: Lazy, o: PageOptions = {}): Pick<RouteObject, 'handle' | 'lazy'> => ({
  handle: { chunk: `views/${module}`, cache: o.cache, islands: o.islands ?? false } satisfies RouteHandle,
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
      { index: true, ...page('home/home.tsx', () => import('./home/home.tsx'), { cache: ['pick'], islands: true }) },
      {
        path: paths.allLotteries,
        ...page('lotteries/all-lotteries.tsx', () => import('./lotteries/all-lotteries.tsx'), { cache: ['page', 'pick'] }),
      },
      { path: paths.picker, ...page('lotteries/quick-play.tsx', () => import('./lotteries/quick-play.tsx')) },
      { path: paths.quickPlay.pattern, ...page('lotteries/quick-play.tsx', () => import('./lotteries/quick-play.tsx')) },
      { path: paths.faq, ...page('content/faq.tsx', () => import('./content/faq.tsx'), { cache: ['category'] }) },
      { path: paths.howToPlay, ...page('content/how-to-play.tsx', () => import('./content/how-to-play.tsx'), { cache: [] }) },
      { path: paths.playResponsibly, ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.notice, ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.terms, ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.about, ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: paths.contact, ...page('content/contact.tsx', () => import('./content/contact.tsx')) },
      // The results archive (searched and paged: any other parameter is rendered fresh) and "check my numbers" (a
      // visitor's ticket, and a player's own tickets: never kept). Their static paths win over /results/:lotteryId.
      {
        path: paths.resultsArchive,
        ...page('results/archive.tsx', () => import('./results/archive.tsx'), { cache: ['page'] }),
      },
      { path: paths.checkNumbers, ...page('results/check.tsx', () => import('./results/check.tsx')) },
      // Not a shared page: its "check it yourself" command names the origin the visitor reached (no Host of another's).
      { path: paths.results.pattern, ...page('results/draw.tsx', () => import('./results/draw.tsx')) },
      { path: paths.logout, ...page('accounts/logout.tsx', () => import('./accounts/logout.tsx')) },
      // bKash sends the player back here, logged in or not: the payment is settled, then his payment page shows it.
      { path: paths.bkashCallback, ...page('lotteries/checkout-return.tsx', () => import('./lotteries/checkout-return.tsx')) },
      { path: paths.verifyOtp, ...page('accounts/verify-otp.tsx', () => import('./accounts/verify-otp.tsx')) },
      { path: paths.forgotPassword, ...page('accounts/forgot-password.tsx', () => import('./accounts/forgot-password.tsx')) },
      { path: paths.resetPassword, ...page('accounts/reset-password.tsx', () => import('./accounts/reset-password.tsx')) },
      // Visitors only: a logged-in user is sent on.
      group('guest', guestOnly, [
        { path: paths.login, ...page('accounts/login.tsx', () => import('./accounts/login.tsx')) },
        { path: paths.register, ...page('accounts/register.tsx', () => import('./accounts/register.tsx')) },
      ]),
      // Logged in.
      group('player', requireUser, [
        { path: paths.profile, ...page('accounts/profile.tsx', () => import('./accounts/profile.tsx')) },
        { path: paths.profileEdit, ...page('accounts/profile.tsx', () => import('./accounts/profile.tsx')) },
        { path: paths.profileLimits, ...page('accounts/play-limits.tsx', () => import('./accounts/play-limits.tsx')) },
        { path: paths.realityCheck, ...page('accounts/reality-check.tsx', () => import('./accounts/reality-check.tsx')) },
        {
          id: NOTIFICATIONS_ROUTE,
          path: paths.notifications,
          ...page('accounts/notifications.tsx', () => import('./accounts/notifications.tsx')),
        },
        { path: paths.paymentSystem, ...page('payment/system.tsx', () => import('./payment/system.tsx')) },
        { path: paths.myLotteries, ...page('lotteries/my-lotteries.tsx', () => import('./lotteries/my-lotteries.tsx')) },
        { path: paths.activate, ...page('lotteries/activate.tsx', () => import('./lotteries/activate.tsx')) },
        { path: paths.buy.pattern, ...page('lotteries/buy.tsx', () => import('./lotteries/buy.tsx')) },
        { path: paths.payment.pattern, ...page('lotteries/payment.tsx', () => import('./lotteries/payment.tsx')) },
        { path: paths.paymentCheckout.pattern, ...page('lotteries/payment.tsx', () => import('./lotteries/payment.tsx')) },
        { path: paths.prizeClaim.pattern, ...page('lotteries/prize-claim.tsx', () => import('./lotteries/prize-claim.tsx')) },
      ]),
      // Staff.
      // `/admin` itself too: a splat child does not match the group's own path, which rendered an empty page.
      group(
        'staff',
        requireStaff,
        [
          {
            id: 'admin-shell',
            ...page('admin/shell.tsx', () => import('./admin/shell.tsx')),
            children: [
              { index: true, loader: () => redirect(adminPaths.dashboard) },
              { path: adminPaths.dashboard, ...page('admin/dashboard.tsx', () => import('./admin/dashboard.tsx')) },
              { path: adminPaths.lotteries, ...page('admin/lotteries.tsx', () => import('./admin/lotteries.tsx')) },
              { path: adminPaths.createLottery, ...page('admin/lottery-form.tsx', () => import('./admin/lottery-form.tsx')) },
              { path: adminPaths.editLottery.pattern, ...page('admin/lottery-form.tsx', () => import('./admin/lottery-form.tsx')) },
              { path: adminPaths.drawLottery.pattern, ...page('admin/draw.tsx', () => import('./admin/draw.tsx')) },
              { path: adminPaths.prizeClaims, ...page('admin/prize-claims.tsx', () => import('./admin/prize-claims.tsx')) },
              { path: adminPaths.generatedTickets, ...page('admin/generated-tickets.tsx', () => import('./admin/generated-tickets.tsx')) },
              { path: adminPaths.auditLog, ...page('admin/audit-log.tsx', () => import('./admin/audit-log.tsx')) },
              { path: adminPaths.transactions, ...page('admin/transactions.tsx', () => import('./admin/transactions.tsx')) },
              { path: adminPaths.bkashStatements, ...page('admin/bkash-statements.tsx', () => import('./admin/bkash-statements.tsx')) },
              {
                path: adminPaths.bkashStatement.pattern,
                ...page('admin/bkash-statement.tsx', () => import('./admin/bkash-statement.tsx')),
              },
              { path: adminPaths.users, ...page('admin/users.tsx', () => import('./admin/users.tsx')) },
              { path: adminPaths.newUser, ...page('admin/user-form.tsx', () => import('./admin/user-form.tsx')) },
              { path: adminPaths.editUser.pattern, ...page('admin/user-form.tsx', () => import('./admin/user-form.tsx')) },
              { path: '*', ...page('admin/placeholder.tsx', () => import('./admin/placeholder.tsx')) },
            ],
          },
        ],
        adminPaths.home,
      ),
      // The spec's demo payment pages are not product features: they lead to the real purchase flow.
      ...PAYMENT_DEMOS.map((method) => ({ path: paths.paymentDemo(method), loader: toPurchaseFlow })),
      ...Object.entries(movedPaths).map(([path, to]) => ({ path, loader: moved(to) })),
      { path: '*', ...page('content/not-found.tsx', () => import('./content/not-found.tsx')) },
    ],
  },
];
