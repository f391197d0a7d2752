/** The refusals of the claims endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';
import type { Language } from '../i18n.ts';
import { formatDate } from '../dates.ts';
import { formatTaka } from '../money.ts';

/** A date and time of the refusal's text (`{{date}}`) written the language's way, in Dhaka time. */
const dated = ({ date, ...vars }: Record<string, unknown>, lng: Language) => ({
  ...vars,
  date: formatDate(String(date), lng, { withTime: true }) ?? date,
});

/** The amount above which a second staff member approves a transfer (`{{threshold}}`), written the language's way. */
const threshold = ({ threshold, ...vars }: Record<string, unknown>, lng: Language) => ({
  ...vars,
  threshold: formatTaka(Number(threshold), lng),
});

export const claimsRefusals = refusals({
  // A player's own prize and his claim (docs/rules/lotteries-and-sales.md#11-prize-claims).
  claim_prize_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:prizeNotFound',
    when: "No prize of the caller's has this id, or its results are not published (another player's prize answers alike).",
  },
  claim_prize_withheld: {
    status: 409,
    code: 'prize_withheld',
    text: 'api:withholding.claimRefused',
    when: 'The prize was withheld (docs/rules/lotteries-and-sales.md#9-the-draw): it is not paid; the text gives the reason.',
  },
  claim_already_submitted: {
    status: 409,
    code: 'already_claimed',
    text: 'api:claimAlreadySubmitted',
    when: "The prize's payout details are already submitted, or its transfer completed.",
  },
  claim_period_over: {
    status: 409,
    text: 'api:claimPeriodOver',
    when: 'The 30 days after the draw in which a prize is claimed are over.',
    format: dated,
  },
  claim_held: {
    status: 409,
    text: 'api:claimHeld',
    when: "The player's phone, e-mail or (by staff) password changed less than 72 hours ago: claims wait until the date given.",
    format: dated,
  },
  claim_account_gone: {
    status: 401,
    code: 'token_not_valid',
    text: 'api:tokenInvalid',
    when: "The caller's account is no longer there.",
  },
  // The staff's transfer of a claim, and its four eyes (docs/decisions/023-four-eyes-on-money-out.md).
  claim_not_found: { status: 404, code: 'not_found', text: 'api:claimNotFound', when: 'No prize claim has this id.' },
  transfer_not_ready: {
    status: 409,
    text: 'api:transferNotReady',
    when: 'The claim has no payout details submitted (waiting for them, or its transfer completed or failed).',
  },
  transfer_held: {
    status: 409,
    code: 'claim_held',
    text: 'api:transferHeld',
    when: "The winner's phone, e-mail or (by staff) password changed less than 72 hours ago: nothing is paid until the date given.",
    format: dated,
  },
  transfer_own_prize: {
    status: 403,
    code: 'four_eyes',
    text: 'api:transferOwnPrize',
    when: 'Four eyes: a staff member never approves or completes the transfer of his own prize.',
  },
  transfer_changed_account: {
    status: 403,
    code: 'four_eyes',
    text: 'api:transferChangedAccount',
    when: "Four eyes: the staff member who last changed the winner's phone, e-mail or password neither approves nor completes.",
  },
  transfer_approver_completes: {
    status: 403,
    code: 'four_eyes',
    text: 'api:transferApproverCompletes',
    when: 'Four eyes: the staff member who approved a transfer does not also complete it.',
  },
  transfer_approval_required: {
    status: 409,
    code: 'approval_required',
    text: 'api:transferApprovalNeeded',
    when: 'The prize is above PAYOUT_SECOND_APPROVAL_TK and no second staff member approved its transfer yet.',
    format: threshold,
  },
  transfer_approval_not_required: {
    status: 409,
    code: 'approval_not_required',
    text: 'api:transferApprovalNotNeeded',
    when: 'The prize is not above PAYOUT_SECOND_APPROVAL_TK: its transfer needs no approval.',
    format: threshold,
  },
  // Prizes paid by bKash (docs/rules/lotteries-and-sales.md#11-prize-claims, "Paid by bKash").
  transfer_by_bkash: {
    status: 409,
    text: 'api:transferByBkash',
    when: 'A prize to a bKash wallet is paid by bKash with Pay now, never marked paid by hand.',
  },
  payout_not_bkash: {
    status: 409,
    text: 'api:payoutNotBkash',
    when: 'Pay now sends bKash payouts; this claim is to be paid to Nagad, Rocket or a bank, by hand, with its reference.',
  },
  payout_under_way: {
    status: 409,
    code: 'payout_under_way',
    text: 'api:payoutUnderWay',
    when: 'A payout of this claim is already waiting, being sent, or sent without an answer yet: one payout per claim.',
  },
  payout_not_unknown: {
    status: 409,
    text: 'api:payoutNotUnknown',
    when: 'Only a payout whose answer was lost is settled with a TrxID or found not sent.',
  },
  payout_trx_mismatch: {
    status: 422,
    code: 'trx_mismatch',
    text: 'api:payoutTrxMismatch',
    when: 'bKash reports the TrxID as something other than this payout (unknown, not completed, another amount, wallet or invoice).',
  },
  payout_trx_used: {
    status: 409,
    code: 'trx_used',
    text: 'api:payoutTrxUsed',
    when: 'The TrxID is already recorded as another payout.',
  },
  payout_same_staff: {
    status: 403,
    code: 'four_eyes',
    text: 'api:payoutSameStaff',
    when: 'Four eyes: the staff member who pressed Pay now does not also say that the payout was not sent.',
  },
  payout_bkash_unavailable: {
    status: 503,
    text: 'api:payoutBkashUnavailable',
    when: 'bKash did not answer the question asked (the balance, a TrxID): nothing changed; try again.',
  },
});
