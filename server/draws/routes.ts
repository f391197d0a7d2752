import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Draws } from './service.ts';
import type { PrizeWithholdings } from './withholding.ts';

/** The draw, a lottery's participants and prizes, and notifying its winners (staff): HTTP only; the rules live in Draws. */
export function drawRoutes(draws: Draws, withholdings: PrizeWithholdings): Endpoints {
  const r = new Endpoints();
  route(r, api.drawLottery, ({ body, user }) => draws.propose(user, body));
  route(r, api.drawProposals, ({ params }) => draws.proposals(params.id));
  route(r, api.approveDrawProposal, ({ params, user }) => draws.approve(user, params.proposalId));
  route(r, api.rejectDrawProposal, ({ params, user }) => draws.reject(user, params.proposalId));
  route(r, api.randomWinner, ({ body }) => draws.randomWinner(body));
  route(r, api.lotteryPrizes, ({ params }) => draws.prizes(params.lotteryId));
  route(r, api.participants, ({ params, query }) => draws.participants(params.lotteryId, query));
  route(r, api.proposeWithholding, ({ params, body, user }) => withholdings.propose(user, params.prizeId, body.reason));
  route(r, api.lotteryWithholdings, ({ params }) => withholdings.ofLottery(params.id));
  route(r, api.approveWithholding, ({ params, body, user }) => withholdings.approve(user, params.proposalId, body.reason));
  route(r, api.rejectWithholding, ({ params, body, user }) => withholdings.reject(user, params.proposalId, body.reason));
  route(r, api.drawProof, ({ params }) => draws.proof(params.id));
  route(r, api.setDrawBeacon, ({ params, body, user }) => draws.setBeacon(user, params.id, body));
  route(r, api.verifiableDraw, ({ params, user }) => draws.verifiableDraw(user.user_id, params.id));
  // The answer's detail (how many were told) is a success, worded in the caller's language.
  route(r, api.notifyWinners, ({ body, user, caller }) => draws.notifyWinners(user, body, caller.lng));
  return r;
}
