import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { PrizePayouts } from './payouts.ts';
import type { Claims } from './service.ts';

/**
 * A player's winning tickets and claims, and the staff's transfer actions (approve, complete, fail, pay now by bKash):
 * HTTP only; the rules live in Claims and PrizePayouts.
 */
export function claimRoutes(claims: Claims, payouts: PrizePayouts): Endpoints {
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
  route(r, api.completeTransfer, ({ params, body, user }) => claims.transfer(user, params.id, 'complete', body.reference));
  route(r, api.failTransfer, ({ params, user }) => claims.transfer(user, params.id, 'fail'));
  route(r, api.payNow, ({ params, user }) => payouts.payNow(user, params.id));
  route(r, api.settlePayout, ({ params, body, user }) => payouts.settle(user, params.id, body.trx_id));
  route(r, api.payoutNotSent, ({ params, user }) => payouts.notSent(user, params.id));
  route(r, api.bkashBalance, () => payouts.balance());
  return r;
}
