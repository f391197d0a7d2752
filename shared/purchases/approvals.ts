/**
 * A payment approved by hand needs two people (docs/rules/payments.md#1-who-may-do-what,
 * docs/decisions/048-approval-by-hand-needs-two.md): the requests and answers of proposing, approving and rejecting,
 * and the rule of who may take each step. Messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { id, optional, text } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';
import { REASON_MAX } from '../draws/schemas.ts';

/** `POST /api/v1/transactions/{id}/approval-proposals/`, `…/approve/` and `…/reject/`: why, 1–500 characters. */
export const ApprovalReasonBody = z.strictObject({ reason: text(REASON_MAX, 'reasonRequired') });

export const APPROVAL_PROPOSAL_STATES = ['pending', 'approved', 'rejected', 'lapsed'] as const;
export type ApprovalProposalState = (typeof APPROVAL_PROPOSAL_STATES)[number];

/** `GET /api/v1/transaction-approval-proposals/`: newest first; `pending` unless told; one purchase's with `transaction_id`. */
export const ApprovalProposalsQuery = Paging.extend({
  status: z.enum(APPROVAL_PROPOSAL_STATES).default('pending'),
  transaction_id: optional(id),
});

/** `POST /api/v1/transaction-approval-proposals/{proposalId}/approve/` and `…/reject/`. */
export const ApprovalProposalParams = z.strictObject({
  proposalId: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});

const person = z.object({ id: z.number().int(), name: z.string() });

/** A proposal to approve a pending purchase by hand, waiting for (or decided by) a second staff member. */
export const ApprovalProposal = z.object({
  id: z.number().int(),
  transaction_id: z.number().int(),
  /** The TrxID of the receipt, as the purchase carried it when proposed. */
  trx_id: z.string(),
  reason: z.string(),
  status: z.enum(APPROVAL_PROPOSAL_STATES),
  proposed_by: person,
  proposed_at: z.string(),
  decided_by: person.nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
  /** A pending proposal that can no longer be approved: its lottery's sales closed, or the purchase is no longer pending. */
  lapsed: z.boolean(),
  purchase: z.object({
    ticket: z.string(),
    amount: z.number().int(),
    status: z.string(),
    player: person,
    lottery: z.object({ id: z.number().int(), name: z.string(), name_bn: z.string() }),
  }),
});

/** The steps of an approval by hand. */
export type ApprovalStep = 'propose' | 'approve' | 'reject';

/**
 * Who may not take a step, or null when he may (docs/rules/payments.md#1-who-may-do-what): nobody acts on his own
 * purchase; the approval is a different person's from the proposal; a proposal's author may withdraw it (reject).
 */
export function approvalRefusal(
  step: ApprovalStep,
  who: { actor: number; owner: number; proposer?: number },
): 'own_purchase' | 'same_person' | null {
  if (who.actor === who.owner) return 'own_purchase';
  if (step === 'approve' && who.proposer === who.actor) return 'same_person';
  return null;
}
