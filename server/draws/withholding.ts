import type { TFunction } from 'i18next';
import { rejectionState, withholdableClaim, withholdingRefusal, type WithholdingStep } from '../../shared/draws/withholding.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import { uniqueViolation, type Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
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
  constructor(private readonly db: Db) {}

  /** Proposes withholding prize `prizeId` (a superuser, as the database has him now); audited. */
  async propose(staff: AccessClaims, prizeId: number, reason: string, t: TFunction): Promise<WithholdingOut> {
    let proposalId: number;
    try {
      proposalId = await this.db.tx(async (tx) => {
        refuse('propose', { actor: staff.user_id, superuser: await isSuperuserNow(tx, staff.user_id) }, t);
        const prize = await this.lockPrize(tx, prizeId, t);
        withholdable(prize, t);
        const open = await wq.pendingWithholdingOf(tx, prizeId);
        if (open !== undefined) throw pendingAlready(open, t);
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
      throw pendingAlready((await wq.pendingWithholdingOf(this.db, prizeId)) ?? 0, t);
    }
    return this.one(proposalId, t);
  }

  /**
   * A second staff member approves a pending proposal: the prize is withheld with the proposal's reason if its winner
   * is still not being paid; the winner is told. Audited `prize.withhold` with both staff members and both reasons.
   */
  async approve(staff: AccessClaims, proposalId: number, reason: string, t: TFunction): Promise<WithholdingOut> {
    await this.db.tx(async (tx) => {
      const { prize, proposal } = await this.lockPending(tx, proposalId, t);
      refuse('approve', { actor: staff.user_id, superuser: false, proposer: proposal.proposed_by }, t);
      withholdable(prize, t);
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
    return this.one(proposalId, t);
  }

  /** Rejects a pending proposal, or withdraws it when its author does: the prize stays as it is; audited. */
  async reject(staff: AccessClaims, proposalId: number, reason: string, t: TFunction): Promise<WithholdingOut> {
    await this.db.tx(async (tx) => {
      const { prize, proposal } = await this.lockPending(tx, proposalId, t);
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
    return this.one(proposalId, t);
  }

  /** A lottery's proposals to withhold its prizes, newest first (staff). */
  async ofLottery(lotteryId: number): Promise<WithholdingOut[]> {
    return wq.withholdingsOf(this.db, lotteryId);
  }

  private async one(proposalId: number, t: TFunction): Promise<WithholdingOut> {
    const p = await wq.withholding(this.db, proposalId);
    if (!p) throw proposalNotFound(t);
    return p;
  }

  /** The lottery's lock (the one sales and the draw take), then the prize's and its claim's. */
  private async lockPrize(tx: Db, prizeId: number, t: TFunction): Promise<LockedPrize> {
    const lotteryId = await wq.lotteryOfPrize(tx, prizeId);
    if (lotteryId === undefined) throw prizeNotFound(t);
    await lockDrawLottery(tx, lotteryId);
    const prize = await wq.lockPrizeAndClaim(tx, prizeId);
    if (!prize) throw prizeNotFound(t);
    return prize;
  }

  /** The lottery's, the prize's, then the proposal's lock: a proposal still pending, or a clear refusal. */
  private async lockPending(tx: Db, proposalId: number, t: TFunction) {
    const of = await wq.prizeOfWithholding(tx, proposalId);
    if (!of) throw proposalNotFound(t);
    const prize = await this.lockPrize(tx, of.prize_id, t);
    const proposal = await wq.lockWithholding(tx, proposalId);
    if (!proposal) throw proposalNotFound(t);
    if (proposal.status !== 'pending')
      throw ApiError.detail(
        409,
        t('api:withholding.decided', { status: t(`api:withholding.status.${proposal.status}`) }),
        'proposal_decided',
      );
    return { prize, proposal };
  }
}

const prizeNotFound = (t: TFunction) => ApiError.detail(404, t('api:drawAdmin.prizeNotFound'), 'not_found');
const proposalNotFound = (t: TFunction) => ApiError.detail(404, t('api:withholding.notFound'), 'not_found');

const pendingAlready = (proposalId: number, t: TFunction) =>
  ApiError.detail(409, t('api:withholding.pending'), 'proposal_pending', { proposal_id: proposalId });

/** A prize already withheld, or whose winner is being paid or was paid, is not withheld (409 with its code). */
function withholdable(prize: LockedPrize, t: TFunction): void {
  if (prize.withheld_at !== null) throw ApiError.detail(409, t('api:withholding.already'), 'prize_withheld');
  const why = withholdableClaim(prize.claim_status);
  if (why === 'prize_paid') throw ApiError.detail(409, t('api:withholding.prizePaid'), 'prize_paid');
  if (why === 'claim_in_progress')
    throw ApiError.detail(
      409,
      t('api:withholding.claimInProgress', { status: t(`api:claimStatus.${prize.claim_status}`) }),
      'claim_in_progress',
    );
}

/** The rule of shared/draws/withholding.ts as the API's refusal: 403 with its code. */
function refuse(step: WithholdingStep, who: { actor: number; superuser: boolean; proposer?: number }, t: TFunction): void {
  const why = withholdingRefusal(step, who);
  if (why === 'superuser_only') throw ApiError.detail(403, t('api:withholding.superuserOnly'), 'permission_denied');
  if (why === 'same_person') throw ApiError.detail(403, t('api:withholding.samePerson'), 'same_person');
}
