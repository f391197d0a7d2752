/**
 * Prize claims: a player's winning tickets, the claim code, the payout details, and the staff's transfer actions
 * (docs/rules/lotteries-and-sales.md#11-prize-claims). Built from the field rules of shared/fields.ts; messages are
 * keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { toAsciiDigits } from '../dates.ts';
import { code, id, optional, text, trxId, v, NAME_MAX } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

export const CLAIM_STATUSES = ['pending', 'payment_info_submitted', 'transfer_completed', 'transfer_failed'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** Where a prize can be paid: the three mobile wallets or a bank account. */
export const PAYOUT_METHODS = ['bkash', 'nagad', 'rocket', 'bank'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** Days after the draw within which a prize must be claimed (terms and conditions). */
export const CLAIM_DAYS = 30;

/** The last moment a prize drawn at `drawnAt` can be claimed, as an ISO string. */
export function claimDeadline(drawnAt: string | Date): string {
  return new Date(new Date(drawnAt).getTime() + CLAIM_DAYS * 24 * 3600 * 1000).toISOString();
}

/**
 * Whether the player may (still) send payout details: no details yet, or the last transfer failed; and the claim
 * period has not ended.
 */
export function canClaim(status: ClaimStatus | null, deadline: string, now = Date.now()): boolean {
  return (status === null || status === 'pending' || status === 'transfer_failed') && now < new Date(deadline).getTime();
}

const payoutMethod = z
  .string()
  .max(20)
  .transform((s, ctx) => {
    const m = s.trim().toLowerCase();
    if ((PAYOUT_METHODS as readonly string[]).includes(m)) return m as PayoutMethod;
    ctx.addIssue({ code: 'custom', message: m === '' ? v('fieldRequired') : v('payoutMethodInvalid') });
    return z.NEVER;
  });

/**
 * An account number as typed: spaces and dashes removed, Bengali digits read as ASCII. A wallet number is the
 * wallet's mobile number (11 digits from 01, or Rocket's 12); a bank account 6–34 letters and digits.
 */
export function normaliseAccountNumber(method: PayoutMethod, raw: string): string | null {
  const s = toAsciiDigits(raw).replace(/[\s-]/g, '');
  if (method === 'bank') return /^[A-Za-z0-9]{6,34}$/.test(s) ? s.toUpperCase() : null;
  const local = s.replace(/^(\+?88)(?=01)/, '');
  const max = method === 'rocket' ? 12 : 11;
  return /^01[3-9]\d{8,9}$/.test(local) && local.length <= max ? local : null;
}

/** The payout details: method, account and holder, and for a bank its name and branch. */
const details = {
  payment_method: payoutMethod,
  account_number: text(40, 'fieldRequired'),
  account_holder_name: text(NAME_MAX, 'fieldRequired'),
  bank_name: text(NAME_MAX).optional().default(''),
  branch_name: text(NAME_MAX).optional().default(''),
};

type Details = { payment_method: PayoutMethod; account_number: string; bank_name: string; branch_name: string };

/** The account number in stored form, bank and branch required for a bank and cleared otherwise. */
function checkDetails<T extends Details>(d: T, ctx: z.RefinementCtx): T {
  const account = normaliseAccountNumber(d.payment_method, d.account_number);
  if (account === null) ctx.addIssue({ code: 'custom', path: ['account_number'], message: v('accountNumberInvalid') });
  if (d.payment_method === 'bank') {
    if (!d.bank_name) ctx.addIssue({ code: 'custom', path: ['bank_name'], message: v('fieldRequired') });
    if (!d.branch_name) ctx.addIssue({ code: 'custom', path: ['branch_name'], message: v('fieldRequired') });
  }
  const bank = d.payment_method === 'bank';
  return { ...d, account_number: account ?? d.account_number, bank_name: bank ? d.bank_name : '', branch_name: bank ? d.branch_name : '' };
}

/** What the claim page checks before it asks for a code (the same rules the submit applies). */
export const ClaimDetails = z.object(details).transform(checkDetails);

/** `POST /api/v1/send-prize-claim-otp/`: a claim code for this prize, sent to the owner's phone or e-mail. */
export const ClaimCodeBody = z.strictObject({ prize_id: id });

/** `POST /api/v1/submit-prize-claim/`: the payout details of a prize with its claim code. */
export const ClaimBody = z.strictObject({ prize: id, ...details, otp: code('claim') }).transform(checkDetails);

/** A claim as its owner sees it. */
export const PlayerClaim = z.object({
  id: z.number().int(),
  status: z.enum(CLAIM_STATUSES),
  payment_method: z.enum(PAYOUT_METHODS).nullable(),
  account_number: z.string(),
  account_holder_name: z.string(),
  bank_name: z.string(),
  branch_name: z.string(),
  submitted_at: z.string().nullable(),
  updated_at: z.string(),
  /**
   * What proves the prize left: bKash's TrxID of a payout made by bKash, or the reference staff recorded of a transfer
   * made by hand; null until the transfer completed.
   */
  transfer_reference: z.string().nullable(),
});

/** One winning ticket of the caller (results published), its prize, its claim and until when it can be claimed. */
export const WinningTicket = z.object({
  prize: z.object({ id: z.number().int(), prize_money: z.number().int() }),
  lottery: z.object({ id: z.number().int(), name: z.string(), name_bn: z.string(), drawn_at: z.string() }),
  ticket: z.string(),
  transaction_id: z.number().int(),
  claim_deadline: z.string(),
  /**
   * Whether payout details can be sent now: no details yet or the transfer failed, within the claim period, and no
   * hold runs (held_until null).
   */
  can_claim: z.boolean(),
  /**
   * The end of the 72-hour hold after the player's phone, e-mail or (by staff) password changed; null when none runs
   * now (docs/rules/lotteries-and-sales.md#11-prize-claims). While it runs no claim code is sent and no details taken.
   */
  held_until: z.string().nullable(),
  /**
   * Why the prize was withheld by two staff members (docs/rules/lotteries-and-sales.md#9-the-draw); null when it was
   * not. A withheld prize cannot be claimed (409 `prize_withheld`).
   */
  withheld_reason: z.string().nullable(),
  claim: PlayerClaim.nullable(),
});

/** The states of a payout try by bKash (docs/rules/lotteries-and-sales.md#11-prize-claims, "Paid by bKash"). */
export const PAYOUT_STATES = ['waiting', 'sending', 'completed', 'refused', 'unknown', 'not_sent'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** A claim's latest payout try by bKash, as staff see it. */
export const StaffPayout = z.object({
  id: z.number().int(),
  try: z.number().int(),
  /** The merchant invoice number bKash was given. */
  invoice: z.string(),
  amount: z.number().int(),
  receiver: z.string(),
  state: z.enum(PAYOUT_STATES),
  trx_id: z.string().nullable(),
  /** bKash's refusal code and message (refused). */
  code: z.string().nullable(),
  message: z.string().nullable(),
  pressed_by: z.object({ id: z.number().int(), name: z.string() }),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});

/** A claim as staff see it: the player, the prize and the account to pay. */
export const StaffClaim = PlayerClaim.extend({
  created_at: z.string(),
  user: z.object({ id: z.number().int(), name: z.string(), phone: z.string().nullable(), email: z.string().nullable() }),
  prize: z.object({
    id: z.number().int(),
    ticket: z.string(),
    prize_money: z.number().int(),
    lottery: z.object({ id: z.number().int(), name: z.string(), name_bn: z.string() }),
  }),
  /** Whether completing the transfer needs a second staff member's approval (prize above PAYOUT_SECOND_APPROVAL_TK). */
  approval_required: z.boolean(),
  /** Who approved the transfer of these payout details, and when; null until someone did. */
  approved_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  approved_at: z.string().nullable(),
  /** The end of the 72-hour hold after the player's phone, e-mail or password changed; null when none runs now. */
  held_until: z.string().nullable(),
  /** The staff member (or the player himself) who last changed the player's phone, e-mail or password; he never completes. */
  contact_changed_by: z.number().int().nullable(),
  /** bKash's refusal code of the last payout try, when it was refused. */
  transfer_failure: z.string().nullable(),
  /** The latest payout try by bKash; null for a claim never paid by bKash. */
  payout: StaffPayout.nullable(),
});

/** `PATCH …/toggle-transfer/`: a transfer made by hand (Nagad, Rocket, a bank) is recorded with its reference. */
export const TransferBody = z.strictObject({ reference: text(40, 'fieldRequired') });

/** `POST …/settle-payout/`: the TrxID bKash's merchant portal shows for a payout whose answer was lost. */
export const SettlePayoutBody = z.strictObject({ trx_id: trxId });

/** `GET /api/v1/admin/bkash-balance/`: the money there, and the money owed to winners (whole taka; the balance in paisa). */
export const BkashBalanceReply = z.object({
  /** bKash's disbursement account's available balance in paisa, as last read; null when never read. */
  disbursement_paisa: z.number().int().nullable(),
  read_at: z.string().nullable(),
  /** Whether it was read within the last five minutes (false: bKash has not answered since). */
  fresh: z.boolean(),
  /** Claims with payout details given, waiting to be paid (any method): their prize money. */
  owed_claimed: z.number().int(),
  /** Prizes won and not yet claimed, within their claim period: what may still be asked for. */
  owed_unclaimed: z.number().int(),
  /** Payouts by bKash waiting for the balance to cover them: how many, and how much. */
  waiting: z.number().int(),
  waiting_amount: z.number().int(),
});

/** `GET /api/v1/admin/prize-claims/` (staff): paged, searched (player name or phone, lottery name, ticket), filtered. */
export const StaffClaimsQuery = Paging.extend({
  search: optional(text(100)),
  status: optional(z.enum(CLAIM_STATUSES)),
  payment_method: optional(z.enum(PAYOUT_METHODS)),
});

/** The summary cards of the claims page: every claim, whatever the filter. */
export const ClaimsSummary = z.object({
  total_claims: z.number().int(),
  /** Whole taka of the claimed prizes. */
  total_prize_amount: z.number().int(),
  /** Claims whose payout details wait for the transfer. */
  pending_transfers: z.number().int(),
});
