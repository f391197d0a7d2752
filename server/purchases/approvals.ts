import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import { approvalRefusal, type ApprovalProposalsQuery, type ApprovalStep } from '../../shared/purchases/approvals.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import { committing, procedure, uniqueViolation, type Db } from '../db/index.ts';
import * as aq from './approval-queries.ts';
import type { ApprovalProposalOut } from './approval-queries.ts';
import * as q from './queries.ts';
import type { TransactionRow } from './queries.ts';
import { auditSnapshot, confirmPurchase } from './service.ts';
import { confirmRestOfRun } from './runs.ts';
import { closedError, saleAndClosed, type ClosedForChanges } from '../lotteries/freeze.ts';

const ONE_PENDING = 'transaction_approval_proposals_one_pending';

/**
 * A payment approved by hand needs two people (docs/rules/payments.md#1-who-may-do-what,
 * docs/decisions/048-approval-by-hand-needs-two.md): one staff member proposes approving a pending purchase with a
 * reason, a different one approves (or anyone but the owner rejects) the proposal with a reason. The purchase becomes
 * `success` only at the approval, under the lottery's lock, with the checks a status change makes. Locks in the order
 * lottery → transaction → proposal.
 */
export class ManualApprovals {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Proposes approving the pending purchase `id`, whose TrxID the player's receipt shows; audited. */
  async propose(staff: AccessClaims, id: number, reason: string): Promise<ApprovalProposalOut> {
    let proposal: ApprovalProposalOut;
    try {
      proposal = await this.db.run(proposeTx, { staff, id, reason });
    } catch (err) {
      // Two proposals of one purchase at once: the second is told of the first.
      if (uniqueViolation(err) !== ONE_PENDING) throw err;
      refusePending((await aq.pendingProposalOf(this.db, id)) ?? 0);
    }
    return proposal;
  }

  /**
   * A second staff member approves a pending proposal: the purchase becomes `success` if it is still the pending
   * payment with the TrxID proposed and its lottery not closed for changes; a proposal whose lottery is closed lapses
   * (recorded, and refused as every confirmation then is: 409 `tickets_frozen` from the close, with the proposal's id). Audited
   * `transaction.approve` with both staff members and both reasons.
   */
  async approve(staff: AccessClaims, proposalId: number, reason: string): Promise<ApprovalProposalOut> {
    const done = await this.db.run(approveTx, { staff, proposalId, reason });
    // Refused after the transaction that recorded the lapse committed.
    if ('shut' in done) throw closedError(done.shut, { proposal_id: proposalId });
    return done.out;
  }

  /** Rejects a pending proposal (its author may withdraw it the same way): the purchase stays as it is; audited. */
  async reject(staff: AccessClaims, proposalId: number, reason: string): Promise<ApprovalProposalOut> {
    await this.db.tx(async (tx) => {
      const { before, proposal } = await lockPending(tx, proposalId);
      refuseBy('reject', { actor: staff.user_id, owner: before.user_id, proposer: proposal.proposed_by });
      await decide(tx, staff, before.id, proposalId, 'rejected', reason);
    });
    return one(this.db, proposalId);
  }

  /** Proposals, newest first (staff). */
  async list(query: z.output<typeof ApprovalProposalsQuery>): Promise<{ items: ApprovalProposalOut[]; total: number }> {
    const { rows, total } = await aq.approvalProposals(
      this.db,
      { status: query.status, transactionId: query.transaction_id },
      query.limit,
      query.offset,
    );
    return { items: rows, total };
  }
}

/**
 * A staff member's proposal to approve the pending purchase `id` (ManualApprovals.propose), run where the database is
 * (docs/decisions/099-writes-run-on-the-database-thread.md).
 */
export const proposeTx = procedure(
  'approval-propose',
  async (tx, { staff, id, reason }: { staff: AccessClaims; id: number; reason: string }): Promise<ApprovalProposalOut> => {
    const before = await q.lockTransaction(tx, id, 'shared');
    if (!before) refuse('transaction_not_found');
    refuseBy('propose', { actor: staff.user_id, owner: before.user_id });
    // Its reads and the open proposal's asked at once; approvable's refusals come first.
    const [, open] = await Promise.all([approvable(tx, before), aq.pendingProposalOf(tx, id)]);
    if (open !== undefined) refusePending(open);
    const pid = await aq.insertApprovalProposal(tx, { transactionId: id, trxId: before.trx_id ?? '', reason, by: staff.user_id });
    // The answer read in the transaction, and the audit record its last statement, sent with the COMMIT: one
    // message, not three (docs/decisions/097-writes-asked-together.md).
    const [out] = await Promise.all([
      one(tx, pid),
      recordAudit(committing(tx), {
        actorId: staff.user_id,
        action: 'transaction.approval_proposed',
        entity: 'transaction',
        entityId: String(id),
        before: auditSnapshot(before),
        after: { proposal_id: pid, trx_id: before.trx_id, reason },
      }),
    ]);
    return out;
  },
);

/**
 * A second staff member's approval of a pending proposal (ManualApprovals.approve), run where the database is
 * (docs/decisions/099-writes-run-on-the-database-thread.md): the proposal as it now is, or why its lottery is closed to it.
 */
export const approveTx = procedure(
  'approval-approve',
  async (
    tx,
    { staff, proposalId, reason }: { staff: AccessClaims; proposalId: number; reason: string },
  ): Promise<{ shut: ClosedForChanges } | { out: ApprovalProposalOut }> => {
    const { before, proposal } = await lockPending(tx, proposalId);
    refuseBy('approve', { actor: staff.user_id, owner: before.user_id, proposer: proposal.proposed_by });
    const sale = await saleAndClosed(tx, before.lottery_id);
    if (!sale) refuse('transaction_not_found');
    // docs/rules/payments.md#1-who-may-do-what: a proposal does not outlive its lottery's sales, nor a freeze recorded by another instance.
    // Checked before whether the purchase changed: from the close the answer is the same whether or not the freeze job
    // has already rejected the purchase (docs/rules/lotteries-and-sales.md#8-transaction-states).
    const shut = sale.closed;
    if (shut) {
      await decide(tx, staff, before.id, proposalId, 'lapsed', reason);
      return { shut };
    }
    if (before.status !== 'pending' || before.trx_id !== proposal.trx_id) refuse('proposal_stale');
    // Asked together, in this order, each waiting only for what it needs (docs/decisions/097-writes-asked-together.md):
    // the decision, the purchase's confirmation (its status, then its audit record; its message), and the answer's
    // read after both changes.
    const [, , out] = await Promise.all([
      aq.decideApprovalProposal(tx, proposalId, 'approved', staff.user_id, reason),
      confirmPurchase(tx, before, {
        actorId: staff.user_id,
        action: 'transaction.approve',
        proof: { proposal_id: proposalId, proposed_by: proposal.proposed_by, proposal_reason: proposal.reason, reason },
      }),
      one(tx, proposalId),
    ]);
    // A run's lead: its other entries with it (docs/rules/games.md#6-consecutive-draws-and-play-slips).
    await confirmRestOfRun(tx, before, proposal.trx_id, {
      actorId: staff.user_id,
      action: 'transaction.approve',
      proof: { proposal_id: proposalId, proposed_by: proposal.proposed_by },
    });
    return { out };
  },
);

/** The proposal as the API answers it, read on `db` (in the transaction that changed it, or after). */
async function one(db: Db, proposalId: number): Promise<ApprovalProposalOut> {
  const p = await aq.approvalProposal(db, proposalId);
  if (!p) refuse('proposal_not_found');
  return p;
}

/** The lottery's, the purchase's, then the proposal's lock: a proposal still pending, or a clear refusal. */
async function lockPending(tx: Db, proposalId: number) {
  // The three locks asked at once, taken in this order (a transaction's statements run one after the other).
  const [before, proposal] = await Promise.all([aq.lockTransactionOfProposal(tx, proposalId), aq.lockApprovalProposal(tx, proposalId)]);
  if (!before) refuse('proposal_not_found');
  if (!proposal) refuse('proposal_not_found');
  // The text names the status in the caller's words (api:manualApproval.status.<status>).
  if (proposal.status !== 'pending') refuse('proposal_decided', { vars: { status: proposal.status } });
  return { before, proposal };
}

/** What approving this purchase needs, checked when it is proposed (and again, under the locks, when approved). */
async function approvable(tx: Db, before: TransactionRow): Promise<void> {
  // The lottery first, as at the approval: from the close the answer is the same whether or not the freeze has
  // already rejected the purchase (docs/rules/lotteries-and-sales.md#8-transaction-states).
  const sale = await saleAndClosed(tx, before.lottery_id);
  if (!sale) refuse('transaction_not_found');
  if (sale.closed) throw closedError(sale.closed);
  // An activated generated ticket was proved by its secret, not paid to us: nothing to approve.
  if (before.transaction_type === 'activation') refuse('transaction_activation_final');
  if (before.status !== 'pending') refuse('approval_not_pending');
  // The TrxID is what the receipt is checked against (docs/rules/lotteries-and-sales.md#8-transaction-states).
  if (before.trx_id === null) refuse('approval_trx_id_missing');
}

/** A pending proposal decided without approving its purchase (it lapsed, or was rejected or withdrawn); audited. */
async function decide(
  tx: Db,
  staff: AccessClaims,
  transactionId: number,
  proposalId: number,
  status: 'lapsed' | 'rejected',
  reason: string,
): Promise<void> {
  await aq.decideApprovalProposal(tx, proposalId, status, staff.user_id, reason);
  await recordAudit(tx, {
    actorId: staff.user_id,
    action: status === 'lapsed' ? 'transaction.approval_lapsed' : 'transaction.approval_rejected',
    entity: 'transaction',
    entityId: String(transactionId),
    before: { proposal_id: proposalId, status: 'pending' },
    after: { proposal_id: proposalId, status, reason },
  });
}

/** A proposal of the purchase is open already: the refusal names it. */
function refusePending(proposalId: number): never {
  return refuse('proposal_pending', { extra: { proposal_id: proposalId } });
}

/** The rule of shared/purchases/approvals.ts as the API's refusal. */
function refuseBy(step: ApprovalStep, who: { actor: number; owner: number; proposer?: number }): void {
  const why = approvalRefusal(step, who);
  if (why === 'own_purchase') refuse('approval_own_purchase');
  if (why === 'same_person') refuse('approval_same_person');
}
