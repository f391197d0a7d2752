import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { LotteryAdmin } from './admin.ts';

/** Staff's lottery management: HTTP only; the rules live in LotteryAdmin. */
export function adminLotteryRoutes(admin: LotteryAdmin): Router {
  const r = Router();
  route(r, api.staffLotteries, ({ query }) => admin.list(query));
  route(r, api.createLottery, ({ body, user, req }) => admin.create(user, body, req.t));
  route(r, api.staffLottery, ({ params, req }) => admin.one(params.id, req.t));
  route(r, api.updateLottery, ({ params, body, user, req }) => admin.update(user, params.id, body, req.t));
  return r;
}
