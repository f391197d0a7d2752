/** The names of a pattern's parameters, in order: `/quick-play/:lotteryId/:ticket` → ['lotteryId', 'ticket']. */
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? [N, ...ParamNames<Rest>]
  : P extends `${string}:${infer N}`
    ? [N]
    : [];
type ParamValues<N extends string[]> = { [K in keyof N]: number | string };

/** A page address with parameters: its `pattern` goes into the route tree, a call builds a link (values in order). */
export type PathPattern<P extends string> = ((...values: ParamValues<ParamNames<P>>) => string) & { readonly pattern: P };

function pattern<const P extends string>(p: P): PathPattern<P> {
  const build = (...values: (number | string)[]): string => {
    let i = 0;
    return p.replace(/:\w+/g, () => encodeURIComponent(String(values[i++])));
  };
  return Object.assign(build, { pattern: p }) as unknown as PathPattern<P>;
}

/** The spec's demo payment pages (`/payment/bkash`, …), not product pages. */
export const PAYMENT_DEMOS = ['bkash', 'nogod', 'rocket', 'stripe'] as const;
export type PaymentDemo = (typeof PAYMENT_DEMOS)[number];

/**
 * Every page address, declared once (docs/rules/pages.md#2-who-may-open-which-page): `views/routes.tsx` builds the
 * route tree from these entries (a plain path, or the `pattern` of one with parameters) and every link, form and
 * redirect takes its address from the same entry.
 */
export const paths = {
  home: '/',
  faq: '/faq',
  /** How to pick, pay, check and claim, with pictures (views/content/how-to-play.tsx). */
  howToPlay: '/how-to-play',
  playResponsibly: '/play-responsibly',
  notice: '/notice',
  terms: '/terms-conditions',
  about: '/about',
  contact: '/contact',
  login: '/login',
  logout: '/logout',
  register: '/register',
  verifyOtp: '/verify-otp',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  profile: '/profile',
  /** The Edit Profile dialog of `/profile`, and a plain page of the same form where JavaScript is off. */
  profileEdit: '/profile/edit',
  /** Keep play safe: spend limits and self-exclusion (docs/rules/play-safe.md). */
  profileLimits: '/profile/limits',
  /** The player's remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements). */
  profileBkash: '/profile/bkash',
  /**
   * The reality check (docs/rules/play-safe.md#7-reality-check): where its "Continue playing" posts (then back to the
   * page it came from, `from`), and a page of the session's time and spending.
   */
  realityCheck: '/reality-check',
  /** The player's messages, newest first (docs/rules/messages.md); the top bar's bell leads here. */
  notifications: '/notifications',
  myLotteries: '/my-lotteries',
  /** Where the activation form posts; the plain page of the same address shows it without JavaScript. */
  activate: '/my-lotteries/activate',
  /** One run of consecutive draws, its draws and their results (docs/rules/games.md#6-consecutive-draws-and-play-slips). */
  run: pattern('/my-lotteries/runs/:runId'),
  allLotteries: '/all-lotteries',
  /** Where the number picker's GET form goes (`lottery`, `main`, `last`, `action`: views/lotteries/selection.ts). */
  picker: '/quick-play',
  quickPlay: pattern('/quick-play/:lotteryId/:ticket'),
  /** Where the ticket page's purchase form posts. */
  buy: pattern('/quick-play/:lotteryId/:ticket/buy'),
  payment: pattern('/payment/:transactionId'),
  /** Where the payment page's "Pay with bKash" posts: the checkout starts and the player goes to bKash (docs/rules/payments.md). */
  paymentCheckout: pattern('/payment/:transactionId/bkash'),
  /** Where bKash sends the player back after its page (docs/rules/payments.md#3-paying-with-bkash-checkout). */
  bkashCallback: '/payment/bkash/callback',
  /** Where bKash sends the player back after approving an agreement (docs/rules/payments.md#11-remembered-bkash-agreements). */
  bkashAgreementCallback: '/payment/bkash/agreement',
  paymentSystem: '/payment/system',
  /** The spec's demo payment pages: redirects to the purchase flow (docs/rules/pages.md#3-older-addresses). */
  paymentDemo: (method: PaymentDemo) => `/payment/${method}`,
  prizeClaim: pattern('/user/prize-claim/:prizeId'),
  /** Every drawn lottery, searched and paged (`search`, `date`, `page`; docs/rules/lotteries-and-sales.md#10-results-for-players). */
  resultsArchive: '/results',
  /** "Check my numbers": the past draws a ticket (`ticket`) won or would have won, and a player's own tickets. */
  checkNumbers: '/results/check',
  /** The public proof of a lottery's draw, before and after it (docs/rules/draws.md#9-the-proof). */
  results: pattern('/results/:lotteryId'),
} as const;

/** Older addresses and where they lead now, as permanent redirects (docs/rules/pages.md#3-older-addresses). */
export const movedPaths: Readonly<Record<string, string>> = {
  '/user/mylotteries': paths.myLotteries,
  // The claim page needs a prize.
  '/user/prize-claim': paths.myLotteries,
  '/user-dashboard': paths.myLotteries,
  '/user-dashboard/my-tickets': paths.myLotteries,
  '/user-dashboard/available-tickets': paths.allLotteries,
  '/user-dashboard/profile': paths.profile,
  '/user-dashboard/contact-us': paths.contact,
};

const ADMIN = '/admin';

/** Pages of the back office (staff only; docs/rules/pages.md#9-back-office). */
export const adminPaths = {
  home: ADMIN,
  dashboard: `${ADMIN}/dashboard`,
  lotteries: `${ADMIN}/lotteries`,
  createLottery: `${ADMIN}/create-lottery`,
  editLottery: pattern(`${ADMIN}/lotteries/:id/edit`),
  drawLottery: pattern(`${ADMIN}/lotteries/:id/draw`),
  /** Games on a calendar (docs/rules/games.md): the list, a new game's form, and a game with its draws and its form. */
  games: `${ADMIN}/games`,
  newGame: `${ADMIN}/games/new`,
  game: pattern(`${ADMIN}/games/:id`),
  transactions: `${ADMIN}/transactions`,
  bkashStatements: `${ADMIN}/bkash-statements`,
  bkashStatement: pattern(`${ADMIN}/bkash-statements/:id`),
  users: `${ADMIN}/users`,
  newUser: `${ADMIN}/users/new`,
  editUser: pattern(`${ADMIN}/users/:id/edit`),
  prizeClaims: `${ADMIN}/prize-claims`,
  generatedTickets: `${ADMIN}/generated-tickets`,
  auditLog: `${ADMIN}/audit-log`,
  /** The SMS and e-mails sent, with their states (docs/rules/messages.md#7-sms-gateways). */
  deliveries: `${ADMIN}/deliveries`,
} as const;

/** Pages of the back office (staff only). */
export const isStaffPath = (path: string): boolean => path === ADMIN || path.startsWith(`${ADMIN}/`);

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

/** `path` with the query `q`, in its order: empty values left out, a list repeats its name (`main=5&main=12`). */
export const withQuery = (path: string, q: Record<string, string | readonly string[] | null | undefined>): string => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const one of typeof v === 'string' ? [v] : (v ?? [])) if (one) s.append(k, one);
  const qs = s.toString();
  return qs ? `${path}?${qs}` : path;
};
