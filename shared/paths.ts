/** Route paths, declared once (docs/rules/pages.md). */
export const paths = {
  home: '/',
  faq: '/faq',
  playResponsibly: '/play-responsibly',
  notice: '/notice',
  terms: '/terms-conditions',
  about: '/about',
  contact: '/contact',
  login: '/login',
  register: '/register',
  verifyOtp: '/verify-otp',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  profile: '/profile',
  myLotteries: '/my-lotteries',
  allLotteries: '/all-lotteries',
  quickPlay: (lotteryId: number | string, ticket: string) => `/quick-play/${lotteryId}/${ticket}`,
  adminCreateLottery: '/admin/create-lottery',
  adminDashboard: '/admin/dashboard',
} as const;

/** Pages of the back office (staff only). */
export const isStaffPath = (path: string): boolean => path === '/admin' || path.startsWith('/admin/');

/** The form field that carries the CSRF token (the server reads it, every form writes it). */
export const CSRF_FIELD = '_csrf';

/** `from` targets must stay on this site: a path, never a scheme or another host. */
export function safeFrom(from: string | null | undefined): string | null {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return null;
  return from;
}

export const withQuery = (path: string, q: Record<string, string | null | undefined>): string => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) s.set(k, v);
  const qs = s.toString();
  return qs ? `${path}?${qs}` : path;
};
