import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Claims } from './service.ts';

/** A player's winning tickets and claims, and the staff's transfer actions (approve, complete, fail): HTTP only; the rules live in Claims. */
export function claimRoutes(claims: Claims): Endpoints {
  const r = new Endpoints();
  route(r, api.myWinningTickets, ({ query, user }) => claims.mine(user, query.limit, query.offset));
  route(r, api.myWinningTicket, ({ params, user }) => claims.one(user, params.id));
  route(r, api.sendClaimCode, async ({ body, user, caller }) => {
    // The code goes out in the language the player asks in; the answer's own words are a success the edge words
    // (refusals are run()'s to word).
    const { lng, t } = caller;
    return { detail: t('api:claimCodeSent'), ...(await claims.sendCode(user, body.prize_id, lng)) };
  });
  route(r, api.submitClaim, ({ body, user }) => claims.submit(user, body));
  route(r, api.staffClaims, ({ query }) => claims.list(query));
  route(r, api.claimsSummary, () => claims.summary());
  route(r, api.approveTransfer, ({ params, user }) => claims.approve(user, params.id));
  route(r, api.completeTransfer, ({ params, user }) => claims.transfer(user, params.id, 'complete'));
  route(r, api.failTransfer, ({ params, user }) => claims.transfer(user, params.id, 'fail'));
  return r;
}
