import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { api as contract } from '../shared/api/contract.ts';
import type { SessionUser } from '../shared/api-types.ts';
import { adminPaths, isStaffPath, paths, safeFrom, withQuery } from '../shared/paths.ts';
import { apiOf } from './context.ts';

/**
 * Who may open a group of pages is declared once, on the group's layout route in views/routes.tsx, as route
 * middleware: it runs on the server for the first request and for no-JS posts, and in the browser before every
 * navigation into the group. The pages below read the user from `userContext`; none repeats the check.
 * The API enforces every permission itself: these guards only spare a visitor a page he cannot use.
 */
export const userContext = createContext<SessionUser>();

/** The logged-in user that a guard of this route's group has put into the context. */
export const userOf = (c: Readonly<RouterContextProvider>): SessionUser => c.get(userContext);

const here = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/**
 * Logged-in players (and staff): anyone else goes to login and comes back here afterwards. The session's cookie is
 * read without asking the database; when the API then refuses its token (the session has ended,
 * docs/rules/accounts-and-codes.md#10-sessions), the page goes to login instead of showing its refusal.
 */
export const requireUser: MiddlewareFunction = async ({ request, context }, next) => {
  const api = apiOf(context);
  const { user } = await api.session();
  if (!user) throw redirect(withQuery(paths.login, { from: here(request) }));
  context.set(userContext, user);
  const page = await next();
  return api.sessionEnded() ? redirect(withQuery(paths.login, { from: here(request) })) : page;
};

/** Staff only: anyone else goes to login (a player may sign in there with a staff account). */
export const requireStaff: MiddlewareFunction = async ({ request, context }) => {
  const api = apiOf(context);
  const { user } = await api.session();
  // The staff right as the database has it now (through the API), not as the session's token said.
  const now = user ? await api.call(contract.me) : null;
  if (!now?.ok || !now.data.is_staff) throw redirect(withQuery(paths.login, { from: here(request) }));
  context.set(userContext, now.data);
};

/** Where a logged-in user lands when he opens a page meant for visitors (login, register). */
export const homeOf = (user: SessionUser, from: string | null): string => from ?? (user.is_staff ? adminPaths.createLottery : paths.home);

/**
 * Login and registration are for visitors: a logged-in user is sent on to where he was going, except a player
 * sent here by a staff page, who may sign in with a staff account (sending him on would loop).
 */
export const guestOnly: MiddlewareFunction = async ({ request, context }) => {
  if (request.method !== 'GET') return;
  const { user } = await apiOf(context).session();
  const from = safeFrom(new URL(request.url).searchParams.get('from'));
  if (user && !(from && isStaffPath(from) && !user.is_staff)) throw redirect(homeOf(user, from));
};
