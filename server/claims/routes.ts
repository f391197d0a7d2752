import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Claims } from './service.ts';

/** A player's winning tickets and claims, and the staff's transfer actions (approve, complete, fail): HTTP only; the rules live in Claims. */
export function claimRoutes(claims: Claims): Endpoints {
  const r = new Endpoints();
  route(r, api.myWinningTickets, ({ query, user }) => claims.mine(user, query.limit, query.offset));
  route(r, api.myWinningTicket, ({ params, user, caller }) => claims.one(user, params.id, caller.t));
  route(r, api.sendClaimCode, ({ body, user, caller }) => claims.sendCode(user, body.prize_id, caller));
  route(r, api.submitClaim, ({ body, user, caller }) => claims.submit(user, body, caller));
  route(r, api.staffClaims, ({ query }) => claims.list(query));
  route(r, api.claimsSummary, () => claims.summary());
  route(r, api.approveTransfer, ({ params, user, caller }) => claims.approve(user, params.id, caller));
  route(r, api.completeTransfer, ({ params, user, caller }) => claims.transfer(user, params.id, 'complete', caller));
  route(r, api.failTransfer, ({ params, user, caller }) => claims.transfer(user, params.id, 'fail', caller));
  return r;
}
