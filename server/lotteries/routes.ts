import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Lotteries } from './service.ts';

/** Public lottery reads: HTTP only. Lists are bounded; the total rides in X-Total-Count. */
export function lotteryRoutes(lotteries: Lotteries): Endpoints {
  const r = new Endpoints();
  route(r, api.publishedLotteries, ({ query }) => lotteries.published(query.limit, query.offset));
  route(r, api.featuredLotteries, () => lotteries.featured());
  route(r, api.lotteryResults, () => lotteries.results());
  // An unpublished lottery is for staff, as the database says now (the caller's rights are read on every call).
  route(r, api.getLottery, ({ params, user }) => lotteries.one(params.id, user?.is_staff === true));
  return r;
}
