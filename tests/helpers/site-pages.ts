/**
 * Every page of the site (the route tree of views/routes.tsx), each with who can open it (the guarded groups `guest`,
 * `player`, `staff`) and sample values for its parameters, plus a few states of pages that show something else: the
 * journeys that look at all of them (tests/e2e) and the pages' authorization matrix (tests/api) share it.
 */
import type { RouteObject } from 'react-router';
import { routes } from '../../views/routes.tsx';

/** Visitors see the public pages and the guest pages (login, register); players and staff their own groups. */
export type Who = 'visitor' | 'player' | 'staff';
const GROUPS: Record<string, Who> = { guest: 'visitor', player: 'player', staff: 'staff' };

/** The guarded group a page is in: none (public), visitors only (login, register), players, staff. */
export type Group = 'public' | 'guest' | 'player' | 'staff';

/** A page: its route (also the test's title), who opens it, its group, and its address for an open lottery's id. */
export type SitePage = { route: string; who: Who; group: Group; path: (lotteryId: number) => string };

/** The page routes (those with a module) of the tree, with their full path pattern, group and who opens them. */
function pageRoutes(rs: RouteObject[], base = '', group: Group = 'public'): { route: string; who: Who; group: Group }[] {
  return rs.flatMap((r) => {
    const path = r.index || r.path === undefined ? base : r.path.startsWith('/') ? r.path : `${base.replace(/\/$/, '')}/${r.path}`;
    const g = r.id !== undefined && r.id in GROUPS ? (r.id as Group) : group;
    if (r.children) return pageRoutes(r.children, path, g);
    return typeof r.lazy === 'function' ? [{ route: path || '/', who: g === 'public' ? 'visitor' : (GROUPS[g] as Who), group: g }] : [];
  });
}

/** A sample ticket for /quick-play/:lotteryId/:ticket. */
const TICKET = '03-14-27-41-55-09';

/**
 * Every page. A route with a parameter this list does not know fails here, so that a sample is added for it
 * rather than the page silently left out.
 */
export function sitePages(): SitePage[] {
  const pages = pageRoutes(routes).map(({ route, who, group }): SitePage => {
    const template = route
      .replace(/^\/admin\/\*$/, '/admin/create-lottery')
      .replace(/^\/\*$/, '/no-such-page')
      .replace(':ticket', TICKET)
      // A player's payment page: a number no purchase of his has (the page then says so); the journey in
      // purchase.spec.ts looks at the page of a real purchase.
      .replace(':transactionId', '999999')
      // A prize of nobody's: the claim page says "not found" (claim.spec.ts looks at a real claim).
      .replace(':prizeId', '999999')
      // A run of nobody's: not found (runs.test.ts and runs.spec.ts look at real ones).
      .replace(':runId', '999999')
      // A back-office page of a lottery: the open lottery's.
      .replace(/^\/admin\/lotteries\/:id\//, '/admin/lotteries/:lotteryId/')
      // A user's edit page: the first account (the demo data's staff member).
      .replace(/^\/admin\/users\/:id\//, '/admin/users/1/')
      // An uploaded bKash statement: none in the demo data, so the page says "not found" (the page tests upload one).
      .replace(/^\/admin\/bkash-statements\/:id$/, '/admin/bkash-statements/999999')
      // A game no game has, so the page says "not found" (games-pages.test.ts looks at real ones).
      .replace(/^\/admin\/games\/:id$/, '/admin/games/999999');
    // `:lotteryId` is the open lottery's: /results/:lotteryId is then its proof before the draw (draw-proof.spec.ts
    // looks at a drawn one).
    if (/[*]|:(?!lotteryId\b)/.test(template)) throw new Error(`tests/e2e/pages.ts: no sample address for the route ${route}`);
    return { route, who, group, path: (id) => template.replace(':lotteryId', String(id)) };
  });
  // States of pages that show more than their plain address: the picker dialog (home, all lotteries), the picker
  // page of one lottery with the messages of an incomplete choice, and the ticket of a logged-in player.
  const states: SitePage[] = [
    { route: '/ (picker dialog)', who: 'visitor', group: 'public', path: (id) => `/?pick=${id}` },
    { route: '/all-lotteries (picker dialog)', who: 'visitor', group: 'public', path: (id) => `/all-lotteries?pick=${id}` },
    { route: '/quick-play (incomplete choice)', who: 'visitor', group: 'public', path: (id) => `/quick-play?lottery=${id}&main=5&main=12` },
    { route: '/quick-play/:lotteryId/:ticket (logged in)', who: 'player', group: 'public', path: (id) => `/quick-play/${id}/${TICKET}` },
  ];
  return [...pages, ...states];
}
