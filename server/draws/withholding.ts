import { rejectionState, withholdableClaim, withholdingRefusal, type WithholdingStep } from '../../shared/draws/withholding.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import { uniqueViolation, type Db } from '../db/index.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import { tellWithheld } from '../messages/outbox.ts';
import { isSuperuserNow } from '../users/service.ts';
import { lockDrawLottery } from './queries.ts';
import * as wq from './withholding-queries.ts';
import type { LockedPrize, WithholdingOut } from './withholding-queries.ts';

const ONE_PENDING = 'prize_withholding_proposals_one_pending';

/**
 * A published result is not taken back by one person (docs/rules/lotteries-and-sales.md#9-the-draw,
 * docs/decisions/055-withholding-by-two.md): a prize of a draw follows from the draw and stays. A superuser proposes
 * withholding it with a reason; a different staff member approves (or rejects) the proposal with a reason; the author
 * may withdraw it. At the approval the prize is marked withheld (its row, ticket and money stay: the results and the
 * proof show it withheld, with the reason) and its winner is told. Only while the winner is not being paid. Locks in
 * the order lottery → prize → claim → proposal.
 */
export class PrizeWithholdings {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Proposes withholding prize `prizeId` (a superuser, as the database has him now); audited. */
  async propose(staff: AccessClaims, prizeId: number, reason: string): Promise<WithholdingOut> {
    let proposalId: number;
    try {
      proposalId = await this.db.tx(async (tx) => {
        mayTake('propose', { actor: staff.user_id, superuser: await isSuperuserNow(tx, staff.user_id) });
        const prize = await this.lockPrize(tx, prizeId);
        withholdable(prize);
        const open = await wq.pendingWithholdingOf(tx, prizeId);
        if (open !== undefined) throw pendingAlready(open);
        const id = await wq.insertWithholding(tx, { prizeId, reason, by: staff.user_id });
        await recordAudit(tx, {
          actorId: staff.user_id,
          action: 'prize.withholding_proposed',
          entity: 'prize',
          entityId: String(prizeId),
          before: prize,
          after: { proposal_id: id, reason },
        });
        return id;
      });
    } catch (err) {
      // Two proposals of one prize at once: the second is told of the first.
      if (uniqueViolation(err) !== ONE_PENDING) throw err;
      throw pendingAlready((await wq.pendingWithholdingOf(this.db, prizeId)) ?? 0);
    }
    return this.one(proposalId);
  }

  /**
   * A second staff member approves a pending proposal: the prize is withheld with the proposal's reason if its winner
   * is still not being paid; the winner is told. Audited `prize.withhold` with both staff members and both reasons.
   */
  async approve(staff: AccessClaims, proposalId: number, reason: string): Promise<WithholdingOut> {
    await this.db.tx(async (tx) => {
      const { prize, proposal } = await this.lockPending(tx, proposalId);
      mayTake('approve', { actor: staff.user_id, superuser: false, proposer: proposal.proposed_by });
      withholdable(prize);
      await wq.decideWithholding(tx, proposalId, 'approved', staff.user_id, reason);
      await wq.markWithheld(tx, prize.id, proposal.reason);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'prize.withhold',
        entity: 'prize',
        entityId: String(prize.id),
        before: prize,
        after: { withheld: true, proposal_id: proposalId, proposed_by: proposal.proposed_by, proposal_reason: proposal.reason, reason },
      });
      await tellWithheld(tx, prize.id, proposal.reason);
    });
    return this.one(proposalId);
  }

  /** Rejects a pending proposal, or withdraws it when its author does: the prize stays as it is; audited. */
  async reject(staff: AccessClaims, proposalId: number, reason: string): Promise<WithholdingOut> {
    await this.db.tx(async (tx) => {
      const { prize, proposal } = await this.lockPending(tx, proposalId);
      const status = rejectionState(staff.user_id, proposal.proposed_by);
      await wq.decideWithholding(tx, proposalId, status, staff.user_id, reason);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: status === 'withdrawn' ? 'prize.withholding_withdrawn' : 'prize.withholding_rejected',
        entity: 'prize',
        entityId: String(prize.id),
        before: { proposal_id: proposalId, status: 'pending' },
        after: { proposal_id: proposalId, status, reason },
      });
    });
    return this.one(proposalId);
  }

  /** A lottery's proposals to withhold its prizes, newest first (staff). */
  async ofLottery(lotteryId: number): Promise<WithholdingOut[]> {
    return wq.withholdingsOf(this.db, lotteryId);
  }

  private async one(proposalId: number): Promise<WithholdingOut> {
    const p = await wq.withholding(this.db, proposalId);
    if (!p) refuse('withholding_not_found');
    return p;
  }

  /** The lottery's lock (the one sales and the draw take), then the prize's and its claim's. */
  private async lockPrize(tx: Db, prizeId: number): Promise<LockedPrize> {
    const lotteryId = await wq.lotteryOfPrize(tx, prizeId);
    if (lotteryId === undefined) refuse('withholding_prize_not_found');
    await lockDrawLottery(tx, lotteryId);
    const prize = await wq.lockPrizeAndClaim(tx, prizeId);
    if (!prize) refuse('withholding_prize_not_found');
    return prize;
  }

  /** The lottery's, the prize's, then the proposal's lock: a proposal still pending, or a clear refusal. */
  private async lockPending(tx: Db, proposalId: number) {
    const of = await wq.prizeOfWithholding(tx, proposalId);
    if (!of) refuse('withholding_not_found');
    const prize = await this.lockPrize(tx, of.prize_id);
    const proposal = await wq.lockWithholding(tx, proposalId);
    if (!proposal) refuse('withholding_not_found');
    // The text names the state in the caller's language (api:withholding.status.<state>).
    if (proposal.status !== 'pending') refuse('withholding_decided', { vars: { status: proposal.status } });
    return { prize, proposal };
  }
}

const pendingAlready = (proposalId: number) => refusal('withholding_pending', { extra: { proposal_id: proposalId } });

/** A prize already withheld, or whose winner is being paid or was paid, is not withheld (409 with its code). */
function withholdable(prize: LockedPrize): void {
  if (prize.withheld_at !== null) refuse('prize_withheld_already');
  const why = withholdableClaim(prize.claim_status);
  if (why === 'prize_paid') refuse('withholding_prize_paid');
  // The text names the claim's state in the caller's language (api:claimStatus.<state>).
  if (why === 'claim_in_progress') refuse('withholding_claim_in_progress', { vars: { status: prize.claim_status } });
}

/** The rule of shared/draws/withholding.ts as a refusal (403 with its code). */
function mayTake(step: WithholdingStep, who: { actor: number; superuser: boolean; proposer?: number }): void {
  const why = withholdingRefusal(step, who);
  if (why === 'superuser_only') refuse('withholding_superuser_only');
  if (why === 'same_person') refuse('withholding_same_person');
}
