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
  payment: (transactionId: number | string) => `/payment/${transactionId}`,
  prizeClaim: (prizeId: number | string) => `/user/prize-claim/${prizeId}`,
  adminCreateLottery: '/admin/create-lottery',
  adminDashboard: '/admin/dashboard',
} as const;

/** Pages of the back office (staff only; docs/rules/pages.md#9-back-office). */
export const adminPaths = {
  home: '/admin',
  dashboard: '/admin/dashboard',
  lotteries: '/admin/lotteries',
  createLottery: '/admin/create-lottery',
  editLottery: (id: number | string) => `/admin/lotteries/${id}/edit`,
  drawLottery: (id: number | string) => `/admin/lotteries/${id}/draw`,
  transactions: '/admin/transactions',
  users: '/admin/users',
  newUser: '/admin/users/new',
  editUser: (id: number | string) => `/admin/users/${id}/edit`,
  prizeClaims: '/admin/prize-claims',
  generatedTickets: '/admin/generated-tickets',
  auditLog: '/admin/audit-log',
} as const;

/** Pages of the back office (staff only). */
export const isStaffPath = (path: string): boolean => path === '/admin' || path.startsWith('/admin/');

/** The form field that carries the CSRF token (the server reads it, every form writes it). */
export const CSRF_FIELD = '_csrf';

const LOCAL = 'http://local.invalid';

/**
 * Where to go after login and other actions: a path on this site, or null (the caller's default page).
 * Browsers drop tabs and line breaks inside URLs and read `\` as `/`, so `/\t/evil.example` would leave the site:
 * anything with a control character, white space or a backslash is refused outright, and what is left must
 * resolve to this origin. The answer is the normalised path (non-ASCII percent-encoded, safe in a header).
 */
export function safeFrom(from: string | null | undefined): string | null {
  if (typeof from !== 'string' || !from.startsWith('/') || from.length > 2000) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u00a0\\\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(from)) return null;
  let url: URL;
  try {
    url = new URL(from, LOCAL);
  } catch {
    return null;
  }
  if (url.origin !== LOCAL || url.pathname.startsWith('//')) return null;
  return url.pathname + url.search + url.hash;
}

export const withQuery = (path: string, q: Record<string, string | null | undefined>): string => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) s.set(k, v);
  const qs = s.toString();
  return qs ? `${path}?${qs}` : path;
};
