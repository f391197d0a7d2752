/**
 * Every page of the site, for the journeys that look at all of them (mobile.spec.ts, a11y.spec.ts): the pages of
 * the route tree (views/routes.tsx), each with who can open it (the guarded groups `guest`, `player`, `staff`) and
 * sample values for its parameters, plus a few states of pages that show something else (an open picker dialog).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { RouteObject } from 'react-router';
import { DEMO_STAFF } from '../../server/db/seed.ts';
import { LANG_COOKIE, type Language } from '../../shared/i18n.ts';
import { routes } from '../../views/routes.tsx';
import { createPlayer, expect, uniquePhone } from './helpers.ts';

export const LANGUAGES: Language[] = ['en', 'bn'];

/** Visitors see the public pages and the guest pages (login, register); players and staff their own groups. */
export type Who = 'visitor' | 'player' | 'staff';
const GROUPS: Record<string, Who> = { guest: 'visitor', player: 'player', staff: 'staff' };

/** A page: its route (also the test's title), who opens it, and its address for an open lottery's id. */
export type SitePage = { route: string; who: Who; path: (lotteryId: number) => string };

/** The page routes (those with a module) of the tree, with their full path pattern and who opens them. */
function pageRoutes(rs: RouteObject[], base = '', who: Who = 'visitor'): { route: string; who: Who }[] {
  return rs.flatMap((r) => {
    const path = r.index || r.path === undefined ? base : r.path.startsWith('/') ? r.path : `${base.replace(/\/$/, '')}/${r.path}`;
    const w = (r.id !== undefined ? GROUPS[r.id] : undefined) ?? who;
    if (r.children) return pageRoutes(r.children, path, w);
    return typeof r.lazy === 'function' ? [{ route: path || '/', who: w }] : [];
  });
}

/** A sample ticket for /quick-play/:lotteryId/:ticket. */
const TICKET = '03-14-27-41-55-09';

/**
 * Every page. A route with a parameter this list does not know fails here, so that a sample is added for it
 * rather than the page silently left out.
 */
export function sitePages(): SitePage[] {
  const pages = pageRoutes(routes).map(({ route, who }): SitePage => {
    const template = route
      .replace(/^\/admin\/\*$/, '/admin/create-lottery')
      .replace(/^\/\*$/, '/no-such-page')
      .replace(':ticket', TICKET)
      // A player's payment page: a number no purchase of his has (the page then says so); the journey in
      // purchase.spec.ts looks at the page of a real purchase.
      .replace(':transactionId', '999999')
      // A prize of nobody's: the claim page says "not found" (claim.spec.ts looks at a real claim).
      .replace(':prizeId', '999999')
      // A back-office page of a lottery: the open lottery's.
      .replace(/^\/admin\/lotteries\/:id\//, '/admin/lotteries/:lotteryId/')
      // A user's edit page: the first account (the demo data's staff member).
      .replace(/^\/admin\/users\/:id\//, '/admin/users/1/')
      // An uploaded bKash statement: none in the demo data, so the page says "not found" (the page tests upload one).
      .replace(/^\/admin\/bkash-statements\/:id$/, '/admin/bkash-statements/999999');
    // `:lotteryId` is the open lottery's: /results/:lotteryId is then its proof before the draw (draw-proof.spec.ts
    // looks at a drawn one).
    if (/[*]|:(?!lotteryId\b)/.test(template)) throw new Error(`tests/e2e/pages.ts: no sample address for the route ${route}`);
    return { route, who, path: (id) => template.replace(':lotteryId', String(id)) };
  });
  // States of pages that show more than their plain address: the picker dialog (home, all lotteries), the picker
  // page of one lottery with the messages of an incomplete choice, and the ticket of a logged-in player.
  const states: SitePage[] = [
    { route: '/ (picker dialog)', who: 'visitor', path: (id) => `/?pick=${id}` },
    { route: '/all-lotteries (picker dialog)', who: 'visitor', path: (id) => `/all-lotteries?pick=${id}` },
    { route: '/quick-play (incomplete choice)', who: 'visitor', path: (id) => `/quick-play?lottery=${id}&main=5&main=12` },
    { route: '/quick-play/:lotteryId/:ticket (logged in)', who: 'player', path: (id) => `/quick-play/${id}/${TICKET}` },
  ];
  return [...pages, ...states];
}

let featured: Promise<number> | undefined;

/** The id of the first featured lottery (the demo data has open ones), asked once per worker. */
export function featuredLotteryId(request: APIRequestContext): Promise<number> {
  featured ??= (async () => {
    const res = await request.get('/api/v1/featured-lotteries/');
    expect(res.ok(), await res.text()).toBe(true);
    const [first] = (await res.json()) as { id: number }[];
    if (!first) throw new Error('no featured lottery: the journeys need the demo data (SEED_DEMO)');
    return first.id;
  })();
  return featured;
}

/** The page's language for every request of this browser context, as a returning visitor who chose it. */
export async function useLanguage(page: Page, lng: Language): Promise<void> {
  await page.context().addCookies([{ name: LANG_COOKIE, value: lng, url: process.env.E2E_BASE_URL as string }]);
}

/**
 * Logs in through the login form at any screen width (on a phone the top bar's user name is inside the closed
 * menu, so this waits for the page after the login page rather than for the name to show).
 */
export async function logInAs(page: Page, who: { identifier: string; password: string }): Promise<void> {
  await page.goto('/login');
  const form = page.locator('main form').filter({ has: page.locator('input[name="phone"]') });
  await form.locator('input[name="phone"]').fill(who.identifier);
  await form.locator('input[name="password"]').fill(who.password);
  await form.locator('[type="submit"]').click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await expect(page.locator('.nav-user__name')).toBeAttached();
}

/** The demo staff login the server creates on the embedded database (SEED_DEMO, as playwright.config.ts runs it). */
export const STAFF = { identifier: DEMO_STAFF.phone, password: DEMO_STAFF.password };

/** A bearer token of this login, as the API's clients send it. */
export async function bearerOf(request: APIRequestContext, who: { identifier: string; password: string }) {
  const res = await request.post('/api/token/', { data: { phone: who.identifier, password: who.password } });
  expect(res.ok(), await res.text()).toBe(true);
  return { Authorization: `Bearer ${((await res.json()) as { access: string }).access}` };
}

/** A new staff member, made by the demo superuser: the second pair of eyes that decisions of two need. */
export async function secondStaff(request: APIRequestContext, name = 'Second Officer'): Promise<{ identifier: string; password: string }> {
  const who = { identifier: uniquePhone(), password: 'second-pass-1' };
  const made = await request.post('/api/v1/admin-users/', {
    headers: await bearerOf(request, STAFF),
    data: { name, phone: who.identifier, password: who.password, is_staff: true },
  });
  expect(made.ok(), await made.text()).toBe(true);
  return who;
}

/** Five different main numbers and a last one, random so that journeys sharing a lottery do not collide. */
export function randomTicket(): string {
  const main = new Set<number>();
  while (main.size < 5) main.add(1 + Math.floor(Math.random() * 55));
  const last = 1 + Math.floor(Math.random() * 15);
  return [...[...main].sort((a, b) => a - b), last].map((n) => String(n).padStart(2, '0')).join('-');
}

/**
 * A new published lottery of the journey's own (1 winner, not featured, on sale for a week) with one ticket of this
 * player bought and approved by the demo staff member, through the API.
 */
export async function lotteryWithSale(request: APIRequestContext, player: { phone: string; password: string }, name: string) {
  const staff = await bearerOf(request, STAFF);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const created = await request.post('/api/v1/lotteries/', {
    headers: staff,
    data: {
      name,
      name_bn: `${name} ড্র`,
      start_date: day(-1),
      end_date: day(7),
      ticket_price: 50,
      total_prize: 5000,
      winners: 1,
      published: true,
      featured: false,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lottery = (await created.json()) as { id: number; commitment: string | null };
  const ticket = randomTicket();
  const bought = await request.post('/api/v1/transactions-create/', {
    headers: await bearerOf(request, { identifier: player.phone, password: player.password }),
    data: {
      lottery_id: lottery.id,
      ticket,
      amount: 50,
      transaction_type: 'payment',
      payment_method: 'bkash',
      nid: '',
      payment_number: '01712345678',
      // Approval needs a TrxID (docs/rules/lotteries-and-sales.md#8-transaction-states).
      trx_id: `DR${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  const trx = (await bought.json()) as { id: number };
  const approved = await request.put(`/api/v1/transactions/${trx.id}/`, { headers: staff, data: { status: 'success' } });
  expect(approved.ok(), await approved.text()).toBe(true);
  return { id: lottery.id, commitment: lottery.commitment, ticket, staff };
}

/**
 * Finishes a draw by hand through the API, as the rules allow it (docs/rules/lotteries-and-sales.md#9-the-draw): the
 * demo staff member proposes the tickets, a second staff member approves. Answers the draw's prizes.
 */
export async function drawByHand(request: APIRequestContext, lotteryId: number, tickets: string[]) {
  const proposed = await request.post('/api/v1/draw-lottery/', {
    headers: await bearerOf(request, STAFF),
    data: { lottery_id: lotteryId, tickets, reason: 'Drawn by hand in a journey' },
  });
  expect(proposed.status(), await proposed.text()).toBe(202);
  const { id } = (await proposed.json()) as { id: number };
  const approved = await request.post(`/api/v1/draw-proposals/${id}/approve/`, {
    headers: await bearerOf(request, await secondStaff(request)),
  });
  expect(approved.status(), await approved.text()).toBe(201);
  return (await approved.json()) as { prizes: { id: number; ticket: string; prize_money: number }[] };
}

/** Makes the browser context `who` in language `lng`: a returning visitor, a new logged-in player, or staff. */
export async function enterAs(page: Page, request: APIRequestContext, who: Who, lng: Language): Promise<void> {
  await useLanguage(page, lng);
  if (who === 'player') {
    const player = await createPlayer(request);
    await logInAs(page, { identifier: player.phone, password: player.password });
  } else if (who === 'staff') await logInAs(page, STAFF);
}
