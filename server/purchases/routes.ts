import { api } from '../../shared/api/contract.ts';
import { IdempotencyKey } from '../../shared/purchases/schemas.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { Endpoints, route, type Caller } from '../http/route.ts';
import type { Db } from '../db/index.ts';
import type { ManualApprovals } from './approvals.ts';
import type { Purchases } from './service.ts';
import type { Runs } from './runs.ts';
import { staffHeldTickets } from './staff-tickets.ts';

/** The `Idempotency-Key` header, when sent: 1–100 printable characters (docs/rules/lotteries-and-sales.md#7-buying-a-ticket). */
function idempotencyKey(caller: Caller): string | null {
  const raw = caller.idempotencyKey;
  if (raw === undefined) return null;
  const r = IdempotencyKey.safeParse(raw);
  if (!r.success) refuse('idempotency_key_invalid');
  return r.data;
}

/** Purchases, the player's transactions and the staff's: HTTP only; the rules live in Purchases. */
export function purchaseRoutes(purchases: Purchases, approvals: ManualApprovals, db: Db, runs: Runs): Endpoints {
  const r = new Endpoints();
  route(r, api.createRun, async ({ body, user, caller, answer }) => {
    const { created, run } = await runs.create(user, body, idempotencyKey(caller));
    if (!created) {
      // A retry of a slip already made: the slip as it is now, with 200 instead of 201.
      answer.status = 200;
      answer.headers['Idempotent-Replayed'] = 'true';
    }
    return run;
  });
  route(r, api.getRun, ({ params, user }) => runs.one(user, params.id));
  route(r, api.createTransaction, async ({ body, user, caller, answer }) => {
    const { created, reply } = await purchases.create(user, body, idempotencyKey(caller));
    if (!created) {
      // A retry of a purchase already made: the first transaction, as it is now, with 200 instead of 201.
      answer.status = 200;
      answer.headers['Idempotent-Replayed'] = 'true';
    }
    return reply;
  });
  route(r, api.setTrxId, ({ params, body, user }) => purchases.setTrxId(user, params.id, body));
  route(r, api.myTransactions, ({ query, user }) => purchases.mine(user, query.limit, query.offset, query.only));
  route(r, api.myLotteries, ({ query, user }) => purchases.myLotteries(user, query.limit, query.offset));
  route(r, api.myTransaction, ({ params, user }) => purchases.one(user, params.id));
  route(r, api.transactions, ({ query }) => purchases.list(query));
  route(r, api.updateTransaction, ({ params, body, user }) => purchases.setStatus(user, params.id, body));
  route(r, api.proposeApproval, ({ params, body, user }) => approvals.propose(user, params.id, body.reason));
  route(r, api.approvalProposals, ({ query }) => approvals.list(query));
  route(r, api.approveApprovalProposal, ({ params, body, user }) => approvals.approve(user, params.proposalId, body.reason));
  route(r, api.rejectApprovalProposal, ({ params, body, user }) => approvals.reject(user, params.proposalId, body.reason));
  route(r, api.staffHeldTickets, ({ query, user }) => staffHeldTickets(db, user, query));
  return r;
}
