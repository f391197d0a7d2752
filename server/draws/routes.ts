import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Draws } from './service.ts';

/** The draw, a lottery's participants and prizes, and notifying its winners (staff): HTTP only; the rules live in Draws. */
export function drawRoutes(draws: Draws): Router {
  const r = Router();
  route(r, api.drawLottery, ({ body, user, req }) => draws.finish(user, body, req.t));
  route(r, api.randomWinner, ({ body, req }) => draws.randomWinner(body, req.t));
  route(r, api.lotteryPrizes, ({ params, req }) => draws.prizes(params.lotteryId, req.t));
  route(r, api.participants, ({ params, query, req }) => draws.participants(params.lotteryId, query, req.t));
  route(r, api.deletePrize, ({ params, body, user, req }) => draws.deletePrize(user, params.prizeId, body.reason, req.t));
  route(r, api.notifyWinners, ({ body, user, req }) => draws.notifyWinners(user, body, req.t));
  return r;
}
