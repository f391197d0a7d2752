import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Draws } from './service.ts';

/** The draw and a lottery's prizes (staff): HTTP only; the rules live in Draws. */
export function drawRoutes(draws: Draws): Router {
  const r = Router();
  route(r, api.drawLottery, ({ body, user, req }) => draws.finish(user, body, req.t));
  route(r, api.lotteryPrizes, ({ params, req }) => draws.prizes(params.lotteryId, req.t));
  return r;
}
