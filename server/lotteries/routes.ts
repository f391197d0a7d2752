import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Lotteries } from './service.ts';

/** Public lottery reads: HTTP only. Lists are bounded; the total rides in X-Total-Count. */
export function lotteryRoutes(lotteries: Lotteries): Router {
  const r = Router();
  route(r, api.publishedLotteries, ({ query }) => lotteries.published(query.limit, query.offset));
  route(r, api.featuredLotteries, () => lotteries.featured());
  route(r, api.lotteryResults, () => lotteries.results());
  route(r, api.getLottery, async ({ params, user, req }) => {
    // An unpublished lottery is for staff as the database says now, not as an older token said.
    const staff = user?.is_staff === true && (await req.currentRights?.())?.is_staff === true;
    return lotteries.one(params.id, staff, req.t);
  });
  return r;
}
