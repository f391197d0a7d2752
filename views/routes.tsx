import { redirect, type LazyRouteFunction, type MiddlewareFunction, type RouteObject } from 'react-router';
import { adminPaths } from '../shared/paths.ts';
import { guestOnly, requireStaff, requireUser } from './guards.ts';
import { PAYMENT_DEMOS, toPurchaseFlow } from './payment/demos.ts';
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

/** The route tree, defined once: the server's static handler and the browser router both use it. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    loader: rootLoader,
    // The session changes only through actions (login, logout) or a full reload: plain navigations keep it.
    shouldRevalidate: ({ formMethod, defaultShouldRevalidate }) => (formMethod && formMethod !== 'GET' ? defaultShouldRevalidate : false),
    Component: Root,
    ErrorBoundary: RootErrorBoundary,
    children: [
      // Anyone: the lottery pages and the information pages.
      { index: true, ...page('home/home.tsx', () => import('./home/home.tsx'), { cache: ['pick'], islands: true }) },
      {
        path: 'all-lotteries',
        ...page('lotteries/all-lotteries.tsx', () => import('./lotteries/all-lotteries.tsx'), { cache: ['page', 'pick'] }),
      },
      { path: 'quick-play', ...page('lotteries/quick-play.tsx', () => import('./lotteries/quick-play.tsx')) },
      { path: 'quick-play/:lotteryId/:ticket', ...page('lotteries/quick-play.tsx', () => import('./lotteries/quick-play.tsx')) },
      { path: 'faq', ...page('content/faq.tsx', () => import('./content/faq.tsx'), { cache: ['category'] }) },
      { path: 'play-responsibly', ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: 'notice', ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: 'terms-conditions', ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: 'about', ...page('content/legal.tsx', () => import('./content/legal.tsx'), { cache: [] }) },
      { path: 'contact', ...page('content/contact.tsx', () => import('./content/contact.tsx')) },
      { path: 'logout', ...page('accounts/logout.tsx', () => import('./accounts/logout.tsx')) },
      { path: 'verify-otp', ...page('accounts/verify-otp.tsx', () => import('./accounts/verify-otp.tsx')) },
      { path: 'forgot-password', ...page('accounts/forgot-password.tsx', () => import('./accounts/forgot-password.tsx')) },
      { path: 'reset-password', ...page('accounts/reset-password.tsx', () => import('./accounts/reset-password.tsx')) },
      // Visitors only: a logged-in user is sent on.
      group('guest', guestOnly, [
        { path: 'login', ...page('accounts/login.tsx', () => import('./accounts/login.tsx')) },
        { path: 'register', ...page('accounts/register.tsx', () => import('./accounts/register.tsx')) },
      ]),
      // Logged in.
      group('player', requireUser, [
        { path: 'profile', ...page('accounts/profile.tsx', () => import('./accounts/profile.tsx')) },
        { path: 'profile/edit', ...page('accounts/profile.tsx', () => import('./accounts/profile.tsx')) },
        { path: 'payment/system', ...page('payment/system.tsx', () => import('./payment/system.tsx')) },
        { path: 'my-lotteries', ...page('lotteries/my-lotteries.tsx', () => import('./lotteries/my-lotteries.tsx')) },
        { path: 'my-lotteries/activate', ...page('lotteries/activate.tsx', () => import('./lotteries/activate.tsx')) },
        { path: 'quick-play/:lotteryId/:ticket/buy', ...page('lotteries/buy.tsx', () => import('./lotteries/buy.tsx')) },
        { path: 'payment/:transactionId', ...page('lotteries/payment.tsx', () => import('./lotteries/payment.tsx')) },
        { path: 'user/prize-claim/:prizeId', ...page('lotteries/prize-claim.tsx', () => import('./lotteries/prize-claim.tsx')) },
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
              { path: 'dashboard', ...page('admin/dashboard.tsx', () => import('./admin/dashboard.tsx')) },
              { path: 'lotteries', ...page('admin/lotteries.tsx', () => import('./admin/lotteries.tsx')) },
              { path: 'create-lottery', ...page('admin/lottery-form.tsx', () => import('./admin/lottery-form.tsx')) },
              { path: 'lotteries/:id/edit', ...page('admin/lottery-form.tsx', () => import('./admin/lottery-form.tsx')) },
              { path: 'lotteries/:id/draw', ...page('admin/draw.tsx', () => import('./admin/draw.tsx')) },
              { path: 'prize-claims', ...page('admin/prize-claims.tsx', () => import('./admin/prize-claims.tsx')) },
              { path: 'generated-tickets', ...page('admin/generated-tickets.tsx', () => import('./admin/generated-tickets.tsx')) },
              { path: 'audit-log', ...page('admin/audit-log.tsx', () => import('./admin/audit-log.tsx')) },
              { path: 'transactions', ...page('admin/transactions.tsx', () => import('./admin/transactions.tsx')) },
              { path: 'users', ...page('admin/users.tsx', () => import('./admin/users.tsx')) },
              { path: 'users/new', ...page('admin/user-form.tsx', () => import('./admin/user-form.tsx')) },
              { path: 'users/:id/edit', ...page('admin/user-form.tsx', () => import('./admin/user-form.tsx')) },
              { path: '*', ...page('admin/placeholder.tsx', () => import('./admin/placeholder.tsx')) },
            ],
          },
        ],
        'admin',
      ),
      // The spec's demo payment pages are not product features: they lead to the real purchase flow.
      ...PAYMENT_DEMOS.map((method) => ({ path: `payment/${method}`, loader: toPurchaseFlow })),
      { path: 'user/mylotteries', loader: moved('/my-lotteries') },
      // The claim page needs a prize (docs/rules/pages.md#3-older-addresses).
      { path: 'user/prize-claim', loader: moved('/my-lotteries') },
      { path: 'user-dashboard', loader: moved('/my-lotteries') },
      { path: 'user-dashboard/my-tickets', loader: moved('/my-lotteries') },
      { path: 'user-dashboard/available-tickets', loader: moved('/all-lotteries') },
      { path: 'user-dashboard/profile', loader: moved('/profile') },
      { path: 'user-dashboard/contact-us', loader: moved('/contact') },
      { path: '*', ...page('content/not-found.tsx', () => import('./content/not-found.tsx')) },
    ],
  },
];
