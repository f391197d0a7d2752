import { redirect, type LazyRouteFunction, type RouteObject } from 'react-router';
import { Root, RootErrorBoundary, rootLoader } from './root.tsx';

/**
 * `chunk` names the module so the server can preload its bundle; `cache` lists the query parameters with which
 * an anonymous page may be served from the page cache (any other parameter, e.g. a free-text search, is
 * rendered fresh so that random URLs cannot crowd the cache); `islands` serves the page with the light entry.
 */
export type RouteHandle = { chunk?: string; cache?: readonly string[]; islands?: boolean };

type Lazy = LazyRouteFunction<RouteObject>;
const page = (chunk: string, lazy: Lazy, cache?: readonly string[], islands = false): Pick<RouteObject, 'handle' | 'lazy'> => ({ handle: { chunk, cache, islands } satisfies RouteHandle, lazy });

/** Older addresses keep working (DESIGN.md §3). */
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
      { index: true, ...page('views/player/home.tsx', () => import('./player/home.tsx'), ['pick'], true) },
      { path: 'all-lotteries', ...page('views/player/all-lotteries.tsx', () => import('./player/all-lotteries.tsx'), ['page', 'pick']) },
      { path: 'quick-play', ...page('views/player/quick-play.tsx', () => import('./player/quick-play.tsx')) },
      { path: 'quick-play/:lotteryId/:ticket', ...page('views/player/quick-play.tsx', () => import('./player/quick-play.tsx')) },
      { path: 'faq', ...page('views/player/faq.tsx', () => import('./player/faq.tsx'), ['category']) },
      { path: 'play-responsibly', ...page('views/player/legal.tsx', () => import('./player/legal.tsx'), []) },
      { path: 'notice', ...page('views/player/legal.tsx', () => import('./player/legal.tsx'), []) },
      { path: 'terms-conditions', ...page('views/player/legal.tsx', () => import('./player/legal.tsx'), []) },
      { path: 'about', ...page('views/player/legal.tsx', () => import('./player/legal.tsx'), []) },
      { path: 'contact', ...page('views/player/contact.tsx', () => import('./player/contact.tsx')) },
      { path: 'login', ...page('views/player/login.tsx', () => import('./player/login.tsx')) },
      { path: 'logout', ...page('views/player/logout.tsx', () => import('./player/logout.tsx')) },
      { path: 'register', ...page('views/player/register.tsx', () => import('./player/register.tsx')) },
      { path: 'verify-otp', ...page('views/player/verify-otp.tsx', () => import('./player/verify-otp.tsx')) },
      { path: 'forgot-password', ...page('views/player/forgot-password.tsx', () => import('./player/forgot-password.tsx')) },
      { path: 'reset-password', ...page('views/player/reset-password.tsx', () => import('./player/reset-password.tsx')) },
      { path: 'profile', ...page('views/player/profile.tsx', () => import('./player/profile.tsx')) },
      { path: 'my-lotteries', ...page('views/player/my-lotteries.tsx', () => import('./player/my-lotteries.tsx')) },
      { path: 'admin/*', ...page('views/admin/placeholder.tsx', () => import('./admin/placeholder.tsx')) },
      { path: 'user/mylotteries', loader: moved('/my-lotteries') },
      { path: 'user-dashboard', loader: moved('/my-lotteries') },
      { path: 'user-dashboard/my-tickets', loader: moved('/my-lotteries') },
      { path: 'user-dashboard/available-tickets', loader: moved('/all-lotteries') },
      { path: 'user-dashboard/profile', loader: moved('/profile') },
      { path: 'user-dashboard/contact-us', loader: moved('/contact') },
      { path: '*', ...page('views/player/not-found.tsx', () => import('./player/not-found.tsx')) },
    ],
  },
];
