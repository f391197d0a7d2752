import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Draws } from './service.ts';
import type { PrizeWithholdings } from './withholding.ts';

/** The draw, a lottery's participants and prizes, and notifying its winners (staff): HTTP only; the rules live in Draws. */
export function drawRoutes(draws: Draws, withholdings: PrizeWithholdings): Endpoints {
  const r = new Endpoints();
  route(r, api.drawLottery, ({ body, user, caller }) => draws.propose(user, body, caller.t));
  route(r, api.drawProposals, ({ params, caller }) => draws.proposals(params.id, caller.t));
  route(r, api.approveDrawProposal, ({ params, user, caller }) => draws.approve(user, params.proposalId, caller.t));
  route(r, api.rejectDrawProposal, ({ params, user, caller }) => draws.reject(user, params.proposalId, caller.t));
  route(r, api.randomWinner, ({ body, caller }) => draws.randomWinner(body, caller.t));
  route(r, api.lotteryPrizes, ({ params, caller }) => draws.prizes(params.lotteryId, caller.t));
  route(r, api.participants, ({ params, query, caller }) => draws.participants(params.lotteryId, query, caller.t));
  route(r, api.proposeWithholding, ({ params, body, user, caller }) => withholdings.propose(user, params.prizeId, body.reason, caller.t));
  route(r, api.lotteryWithholdings, ({ params }) => withholdings.ofLottery(params.id));
  route(r, api.approveWithholding, ({ params, body, user, caller }) =>
    withholdings.approve(user, params.proposalId, body.reason, caller.t),
  );
  route(r, api.rejectWithholding, ({ params, body, user, caller }) => withholdings.reject(user, params.proposalId, body.reason, caller.t));
  route(r, api.drawProof, ({ params, caller }) => draws.proof(params.id, caller.t));
  route(r, api.setDrawBeacon, ({ params, body, user, caller }) => draws.setBeacon(user, params.id, body, caller.t, caller.lng));
  route(r, api.verifiableDraw, ({ params, user, caller }) => draws.verifiableDraw(user, params.id, caller.t));
  route(r, api.notifyWinners, ({ body, user, caller }) => draws.notifyWinners(user, body, caller.t));
  return r;
}
