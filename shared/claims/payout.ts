/**
 * Money out: when a prize may be claimed and paid, and who may approve and complete its transfer
 * (docs/rules/lotteries-and-sales.md#11-prize-claims, docs/decisions/023-four-eyes-on-money-out.md). Plain functions
 * of the facts the server reads under its locks; the server turns a refusal into its answer.
 */

/** Hours during which a player's claims and payouts are held after his phone, e-mail or (by staff) password changed. */
export const CONTACT_HOLD_HOURS = 72;
const HOLD_MS = CONTACT_HOLD_HOURS * 3600 * 1000;

/** The default of PAYOUT_SECOND_APPROVAL_TK: a transfer of more than this many taka needs a second staff member. */
export const DEFAULT_SECOND_APPROVAL_TK = 10_000;

const msOf = (x: string | Date): number => (x instanceof Date ? x.getTime() : new Date(x).getTime());

/** When the hold that a change of the account at `changedAt` puts on its claims and payouts ends: 72 hours later. */
export const holdEnd = (changedAt: string | Date): Date => new Date(msOf(changedAt) + HOLD_MS);

/**
 * The end of the hold a change of the account at `changedAt` put on its claims and payouts, as an ISO string, while it
 * runs at `now`; null when there was no change or its hold has ended (the hold ends exactly 72 hours after).
 */
export function heldUntil(changedAt: string | Date | null, now: number = Date.now()): string | null {
  if (changedAt === null) return null;
  const end = holdEnd(changedAt).getTime();
  if (!Number.isFinite(end)) return null;
  return now < end ? new Date(end).toISOString() : null;
}

/** Whether a transfer of this prize (whole taka) needs a second staff member's approval: more than the threshold. */
export const needsSecondApproval = (prizeMoney: number, thresholdTk: number): boolean => prizeMoney > thresholdTk;

/** What the server knows of a claim's transfer when a staff member acts on it. */
export type PayoutFacts = {
  /** The staff member acting. */
  staffId: number;
  /** The player whose prize it is. */
  winnerId: number;
  prizeMoney: number;
  thresholdTk: number;
  /** When and by whom the winner's phone, e-mail or (by staff) password last changed. */
  contactChangedAt: string | Date | null;
  contactChangedBy: number | null;
  /** The staff member who approved the transfer, if one did. */
  approvedBy: number | null;
};

export type PayoutRefusal =
  /** The winner's account changed less than 72 hours ago: nothing is paid until `until`. */
  | { reason: 'held'; until: string }
  /** Staff never approve or complete the transfer of their own prize. */
  | { reason: 'own_prize' }
  /** The staff member who last changed the winner's phone, e-mail or password. */
  | { reason: 'changed_account' }
  /** More than the threshold, and nobody approved it yet. */
  | { reason: 'approval_needed' }
  /** The approver is not also the one who completes. */
  | { reason: 'approver_completes' }
  /** At most the threshold: there is nothing to approve. */
  | { reason: 'approval_not_needed' };

/** Why this staff member may not approve the transfer, or null when he may. */
export function refuseApproval(f: PayoutFacts, now: number = Date.now()): PayoutRefusal | null {
  const until = heldUntil(f.contactChangedAt, now);
  if (until) return { reason: 'held', until };
  if (f.staffId === f.winnerId) return { reason: 'own_prize' };
  if (f.contactChangedBy === f.staffId) return { reason: 'changed_account' };
  if (!needsSecondApproval(f.prizeMoney, f.thresholdTk)) return { reason: 'approval_not_needed' };
  return null;
}

/** Why this staff member may not complete the transfer, or null when he may. */
export function refuseCompletion(f: PayoutFacts, now: number = Date.now()): PayoutRefusal | null {
  const until = heldUntil(f.contactChangedAt, now);
  if (until) return { reason: 'held', until };
  if (f.staffId === f.winnerId) return { reason: 'own_prize' };
  if (f.contactChangedBy === f.staffId) return { reason: 'changed_account' };
  if (needsSecondApproval(f.prizeMoney, f.thresholdTk)) {
    if (f.approvedBy === null) return { reason: 'approval_needed' };
    if (f.approvedBy === f.staffId) return { reason: 'approver_completes' };
  }
  return null;
}
