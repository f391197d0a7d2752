import { Router, type Request } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Claims, Ctx } from './service.ts';

const ctxOf = (req: Request): Ctx => ({ t: req.t, lng: req.language === 'bn' ? 'bn' : 'en' });

/** A player's winning tickets and claims, and the staff's transfer actions (approve, complete, fail): HTTP only; the rules live in Claims. */
export function claimRoutes(claims: Claims): Router {
  const r = Router();
  route(r, api.myWinningTickets, ({ query, user }) => claims.mine(user, query.limit, query.offset));
  route(r, api.myWinningTicket, ({ params, user, req }) => claims.one(user, params.id, req.t));
  route(r, api.sendClaimCode, ({ body, user, req }) => claims.sendCode(user, body.prize_id, ctxOf(req)));
  route(r, api.submitClaim, ({ body, user, req }) => claims.submit(user, body, ctxOf(req)));
  route(r, api.staffClaims, ({ query }) => claims.list(query));
  route(r, api.claimsSummary, () => claims.summary());
  route(r, api.approveTransfer, ({ params, user, req }) => claims.approve(user, params.id, ctxOf(req)));
  route(r, api.completeTransfer, ({ params, user, req }) => claims.transfer(user, params.id, 'complete', ctxOf(req)));
  route(r, api.failTransfer, ({ params, user, req }) => claims.transfer(user, params.id, 'fail', ctxOf(req)));
  return r;
}
