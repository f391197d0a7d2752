/**
 * The journeys' way around the site: every page (tests/helpers/site-pages.ts), the demo lottery, the language, logins
 * and the lotteries and players the journeys make through the API.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_STAFF } from '../../server/db/seed.ts';
import { DEV_BKASH_RECEIVER_NUMBER } from '../../server/config.ts';
import { LANG_COOKIE, type Language } from '../../shared/i18n.ts';
import { createPlayer, expect, login, uniquePhone } from './helpers.ts';

export const LANGUAGES: Language[] = ['en', 'bn'];

import type { Who } from '../helpers/site-pages.ts';

export { sitePages, type SitePage, type Who } from '../helpers/site-pages.ts';

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
 * A new published lottery of the journey's own (1 winner of `totalPrize`, not featured, on sale for a week) with one ticket of this
 * player bought and approved by the demo staff member, through the API.
 */
export async function lotteryWithSale(
  request: APIRequestContext,
  player: { phone: string; password: string },
  name: string,
  totalPrize = 5000,
) {
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
      total_prize: totalPrize,
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
  await approveByHand(request, trx.id);
  return { id: lottery.id, commitment: lottery.commitment, ticket, staff };
}

/**
 * Ends the lottery's sales now, as staff do it through the API (the lottery's end of sales moved to now), unless they
 * have ended already: once the draw's beacon round has come the end of sales no longer moves.
 */
export async function closeSales(request: APIRequestContext, lotteryId: number): Promise<void> {
  const shown = await request.get(`/api/v1/get-lottery/${lotteryId}/`);
  expect(shown.ok(), await shown.text()).toBe(true);
  if (Date.parse(((await shown.json()) as { end_date: string }).end_date) <= Date.now()) return;
  const res = await request.patch(`/api/v1/lotteries/${lotteryId}/`, {
    headers: await bearerOf(request, STAFF),
    data: { end_date: new Date().toISOString() },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Finishes a draw by hand through the API, as the rules allow it (docs/rules/lotteries-and-sales.md#9-the-draw): its
 * sales closed, the demo staff member proposes the tickets, a second staff member approves. Answers the draw's prizes.
 */
export async function drawByHand(request: APIRequestContext, lotteryId: number, tickets: string[]) {
  await closeSales(request, lotteryId);
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

/**
 * Approves a pending purchase by hand through the API, as the rules allow it (docs/rules/payments.md#1-who-may-do-what):
 * the demo staff member proposes it with a reason, a second staff member approves.
 */
export async function approveByHand(request: APIRequestContext, transactionId: number): Promise<void> {
  const proposed = await request.post(`/api/v1/transactions/${transactionId}/approval-proposals/`, {
    headers: await bearerOf(request, STAFF),
    data: { reason: 'Receipt shown in a journey' },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const { id } = (await proposed.json()) as { id: number };
  const approved = await request.post(`/api/v1/transaction-approval-proposals/${id}/approve/`, {
    headers: await bearerOf(request, await secondStaff(request)),
    data: { reason: 'Receipt checked in a journey' },
  });
  expect(approved.status(), await approved.text()).toBe(200);
}

/** Makes the browser context `who` in language `lng`: a returning visitor, a new logged-in player, or staff. */
export async function enterAs(page: Page, request: APIRequestContext, who: Who, lng: Language): Promise<void> {
  await useLanguage(page, lng);
  if (who === 'player') {
    const player = await createPlayer(request);
    await login(page, { identifier: player.phone, password: player.password });
  } else if (who === 'staff') await login(page, STAFF);
}

/**
 * The player sends the ticket's price to our bKash number with Send Money, as he would in the bKash app: the bKash
 * simulator's control call (docs/rules/bkash.md#6-the-simulator) makes the transfer from the sandbox wallet and answers
 * its TrxID, which bKash's Search Transaction then knows (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
 */
export async function sendMoney(request: APIRequestContext, amount: number, reference: string): Promise<string> {
  const sent = await request.post('/_bkash/_control', {
    data: { sendMoney: { from: '01770618575', to: DEV_BKASH_RECEIVER_NUMBER, amount: String(amount), reference } },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return ((await sent.json()) as { trxID: string }).trxID;
}
