/**
 * Withholding a prize, by two people (docs/rules/lotteries-and-sales.md#9-the-draw,
 * docs/decisions/055-withholding-by-two.md): the requests and answers of proposing, approving, rejecting and
 * withdrawing, and the rule of who may take each step. Messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { text } from '../fields.ts';
import { REASON_MAX } from './schemas.ts';

/** `POST /api/v1/prizes/{prizeId}/withholding-proposals/`, `…/approve/` and `…/reject/`: why, 1–500 characters. */
export const WithholdingReasonBody = z.strictObject({ reason: text(REASON_MAX, 'reasonRequired') });

export const WITHHOLDING_STATES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type WithholdingState = (typeof WITHHOLDING_STATES)[number];

const person = z.object({ id: z.number().int(), name: z.string() });

/** A proposal to withhold a prize, waiting for (or decided by) a second staff member. */
export const WithholdingProposal = z.object({
  id: z.number().int(),
  prize_id: z.number().int(),
  lottery_id: z.number().int(),
  ticket: z.string(),
  prize_money: z.number().int(),
  reason: z.string(),
  status: z.enum(WITHHOLDING_STATES),
  proposed_by: person,
  proposed_at: z.string(),
  decided_by: person.nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
});

/** The steps of withholding a prize. */
export type WithholdingStep = 'propose' | 'approve' | 'reject';

/**
 * Who may not take a step, or null when he may: only a superuser proposes; the approval is a different person's
 * from the proposal (superusers included); anyone on staff may reject, the author too (that withdraws it).
 */
export function withholdingRefusal(
  step: WithholdingStep,
  who: { actor: number; superuser: boolean; proposer?: number },
): 'superuser_only' | 'same_person' | null {
  if (step === 'propose' && !who.superuser) return 'superuser_only';
  if (step === 'approve' && who.proposer === who.actor) return 'same_person';
  return null;
}

/** What a reject is: the author's withdrawal, or another's rejection. */
export const rejectionState = (actor: number, proposer: number): 'withdrawn' | 'rejected' =>
  actor === proposer ? 'withdrawn' : 'rejected';

/**
 * Whether a prize whose claim is in this state may still be withheld: no claim, or one whose payout details were not
 * submitted (`pending`: a code was sent). Once details are submitted the winner is being paid (`claim_in_progress`),
 * and a paid prize is paid (`prize_paid`).
 */
export function withholdableClaim(claimStatus: string | null): 'claim_in_progress' | 'prize_paid' | null {
  if (claimStatus === null || claimStatus === 'pending') return null;
  if (claimStatus === 'transfer_completed') return 'prize_paid';
  return 'claim_in_progress';
}
