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

// ---- prizes paid by bKash (docs/rules/lotteries-and-sales.md#11-prize-claims, "Paid by bKash") ------------------------

/**
 * The merchant invoice number of a claim's payout try: the claim's and the try's, so that each payout bKash makes
 * names the claim it paid, and a try is never sent under another's number.
 */
export const payoutInvoice = (claimId: number, tryNo: number): string => `BHAGYA-PRIZE-${claimId}-${tryNo}`;

/** Why bKash refused a payout, in the words the winner and staff are shown (api:payoutRefusal.<reason>). */
export const PAYOUT_REFUSAL_REASONS = ['wallet', 'blocked', 'limit', 'balance', 'other'] as const;
export type PayoutRefusalReason = (typeof PAYOUT_REFUSAL_REASONS)[number];

/**
 * bKash's refusal code of a payout → why, in our words: the wallet does not exist or is no customer's (2012, 2045,
 * 2057, 2058), the receiver's account may not take it (2037–2041, 2044, 2046), a limit (2074, 2075, 2076), the
 * merchant's balance (2023); anything else is "other", shown with bKash's own message.
 */
export function payoutRefusalReason(code: string | null): PayoutRefusalReason {
  switch (code) {
    case '2012':
    case '2045':
    case '2057':
    case '2058':
      return 'wallet';
    case '2037':
    case '2038':
    case '2039':
    case '2040':
    case '2041':
    case '2044':
    case '2046':
      return 'blocked';
    case '2074':
    case '2075':
    case '2076':
      return 'limit';
    case '2023':
      return 'balance';
    default:
      return 'other';
  }
}

/**
 * Whether bKash's disbursement balance (paisa, as last read) covers a payout of `amountTk` on top of the payouts
 * already going out (`outgoingTk`: sent and not yet settled, which the balance bKash reported may not show yet).
 * An unknown balance covers nothing: nothing is promised on money nobody has seen.
 */
export function balanceCovers(balancePaisa: number | null, amountTk: number, outgoingTk = 0): boolean {
  if (balancePaisa === null) return false;
  return balancePaisa >= (amountTk + outgoingTk) * 100;
}

/** What a staff member's settling of a payout whose answer was lost checks of the transaction bKash reports. */
export type SettleFacts = {
  payout: { amount: number; receiver: string; invoice: string; sentAt: string | Date | null };
  /** The transaction bKash's Search answered for the TrxID given; null when bKash knows none. */
  found: {
    transactionStatus: string;
    amount: number | null;
    customerMsisdn: string | null;
    transactionReference: string | null;
    completedTime: string | null;
  } | null;
};

export type SettleRefusal = 'unknown_trx' | 'not_completed' | 'wrong_amount' | 'wrong_receiver' | 'wrong_invoice' | 'before_sent';

/**
 * Why a TrxID is not this payout's, or null when it is: bKash knows it, it completed, for exactly this amount, to
 * this wallet, under this invoice number when bKash names one, and not before the payout was sent.
 */
export function refuseSettlement(f: SettleFacts): SettleRefusal | null {
  const t = f.found;
  if (t === null) return 'unknown_trx';
  if (t.transactionStatus !== 'Completed') return 'not_completed';
  if (t.amount !== f.payout.amount) return 'wrong_amount';
  if (t.customerMsisdn !== null && t.customerMsisdn !== f.payout.receiver) return 'wrong_receiver';
  if (t.transactionReference !== null && t.transactionReference !== f.payout.invoice) return 'wrong_invoice';
  if (t.completedTime !== null && f.payout.sentAt !== null) {
    // bKash's clock and ours differ by seconds at most; a minute's grace.
    if (new Date(t.completedTime).getTime() < new Date(f.payout.sentAt).getTime() - 60_000) return 'before_sent';
  }
  return null;
}
