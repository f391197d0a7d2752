import { createHmac } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { matchRoutes, type RouteObject } from 'react-router';
import { OFFLINE_COPY_HEADER, OFFLINE_OWNER_HEADER, type OfflineCopy } from '../../shared/app-shell.ts';
import type { SessionUser } from '../../shared/api-types.ts';
import { paths } from '../../shared/paths.ts';
import type { RouteHandle } from '../../views/routes.tsx';

/**
 * Which pages the service worker may keep for offline use, told by response headers
 * (docs/rules/app.md#2-what-is-kept): the worker keeps nothing on its own judgement.
 */

/** The back office: never kept, for anyone. */
const ADMIN = /^\/admin(\/|$)/;
/** The draws' results and proofs, and the results archive: public pages, though not shared by the page cache. */
const RESULTS = /^\/results(\/|$)/;

/**
 * What a page may be kept as: `player` for the player's own My Lotteries, `public` for the pages anyone sees alike
 * (those the page cache may share, `handle.cache`, and the results), nothing for any other page, the back office, or
 * anything a staff member opens.
 */
export function offlineKind(pathname: string, user: SessionUser | null, leaf: RouteHandle | undefined): OfflineCopy | null {
  if (ADMIN.test(pathname) || user?.is_staff) return null;
  if (pathname === paths.myLotteries) return user ? 'player' : null;
  if (RESULTS.test(pathname) || leaf?.cache !== undefined) return 'public';
  return null;
}

/** The player's mark on his pages: a keyed hash of his id, the same on every page and device, no id in it. */
export const ownerMark = (secret: string, userId: number): string =>
  createHmac('sha256', secret).update(`offline-owner:${userId}`, 'utf8').digest('base64url').slice(0, 22);

export type OfflineMarksDeps = {
  routes: RouteObject[];
  secret: string;
  /** The request's session (the pages' own, worked out once per request: server/bff/session.ts). */
  user: (req: Request, res: Response) => Promise<SessionUser | null>;
};

/**
 * Sets the two headers on a page's answer (a GET that reached the pages): `x-offline-copy` when it may be kept, and on
 * every page of a logged-in player (not staff) `x-offline-owner`, with which the worker tells one player from another.
 */
export function offlineMarks(d: OfflineMarksDeps) {
  const leaves = new Map<string, RouteHandle | undefined>();
  const leafOf = (pathname: string) => {
    if (leaves.has(pathname)) return leaves.get(pathname);
    const leaf = matchRoutes(d.routes, pathname)?.at(-1)?.route.handle as RouteHandle | undefined;
    if (leaves.size >= 2000) leaves.clear();
    leaves.set(pathname, leaf);
    return leaf;
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let user: SessionUser | null;
    try {
      user = await d.user(req, res);
    } catch {
      return next(); // the page itself meets the same failure and answers it; nothing is marked
    }
    if (user && !user.is_staff) res.setHeader(OFFLINE_OWNER_HEADER, ownerMark(d.secret, user.user_id));
    const kind = offlineKind(req.path, user, leafOf(req.path));
    if (kind) res.setHeader(OFFLINE_COPY_HEADER, kind);
    next();
  };
}
