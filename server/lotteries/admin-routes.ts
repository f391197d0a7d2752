import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { LotteryAdmin } from './admin-service.ts';

/** Staff's lottery management: HTTP only; the rules live in LotteryAdmin. */
export function adminLotteryRoutes(admin: LotteryAdmin): Endpoints {
  const r = new Endpoints();
  route(r, api.staffLotteries, ({ query }) => admin.list(query));
  route(r, api.createLottery, ({ body, user }) => admin.create(user, body));
  route(r, api.staffLottery, ({ params }) => admin.one(params.id));
  route(r, api.updateLottery, ({ params, body, user }) => admin.update(user, params.id, body));
  return r;
}
