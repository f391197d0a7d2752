import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { LotteryAdmin } from './admin-service.ts';

/** Staff's lottery management: HTTP only; the rules live in LotteryAdmin. */
export function adminLotteryRoutes(admin: LotteryAdmin): Endpoints {
  const r = new Endpoints();
  route(r, api.staffLotteries, ({ query }) => admin.list(query));
  route(r, api.createLottery, ({ body, user, caller }) => admin.create(user, body, caller.t));
  route(r, api.staffLottery, ({ params, caller }) => admin.one(params.id, caller.t));
  route(r, api.updateLottery, ({ params, body, user, caller }) => admin.update(user, params.id, body, caller.t));
  return r;
}
