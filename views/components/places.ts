import { isStaffPath, paths } from '../../shared/paths.ts';

/**
 * The player's four places (docs/rules/pages.md#10-finding-your-way): the tab bar at the bottom of a phone's screen and
 * the same links in the desktop header. Play is the list of every lottery on sale; the home page is the logo's.
 */
export const PLACES = ['play', 'results', 'tickets', 'account'] as const;
export type Place = (typeof PLACES)[number];

/** Where a place leads: Account is the profile, or the login page for a visitor. */
export function placePath(place: Place, signedIn: boolean): string {
  switch (place) {
    case 'play':
      return paths.allLotteries;
    case 'results':
      return paths.resultsArchive;
    case 'tickets':
      return paths.myLotteries;
    case 'account':
      return signedIn ? paths.profile : paths.login;
  }
}

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);
/** The fixed start of a pattern: `/user/prize-claim/:prizeId` → `/user/prize-claim`. */
const baseOf = (pattern: string) => pattern.slice(0, pattern.indexOf('/:'));

/** Pages of the player's account (his profile and what hangs off it, and the pages that sign him in). */
const ACCOUNT: readonly string[] = [
  paths.profile,
  paths.notifications,
  paths.realityCheck,
  paths.paymentSystem,
  paths.login,
  paths.register,
  paths.verifyOtp,
  paths.forgotPassword,
  paths.resetPassword,
];

/**
 * The place a page belongs to, which its tab marks as the current one; null for the home page, the information
 * pages and the back office. A trailing slash is the same page.
 */
export function placeOf(pathname: string): Place | null {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (isStaffPath(p)) return null;
  if (ACCOUNT.some((a) => under(p, a))) return 'account';
  if (under(p, paths.resultsArchive)) return 'results';
  if (under(p, paths.myLotteries) || under(p, baseOf(paths.prizeClaim.pattern))) return 'tickets';
  // Choosing numbers, the ticket page, its purchase and payment: all part of playing.
  if (under(p, paths.allLotteries) || under(p, paths.picker) || under(p, baseOf(paths.payment.pattern))) return 'play';
  return null;
}
