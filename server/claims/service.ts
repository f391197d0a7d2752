import type { z } from 'zod';
import {
  canClaim,
  claimDeadline,
  type ClaimBody,
  type ClaimsSummary,
  type ClaimStatus,
  type StaffClaim,
  type StaffClaimsQuery,
  type WinningTicket,
} from '../../shared/claims/schemas.ts';
import {
  CONTACT_HOLD_HOURS,
  heldUntil,
  needsSecondApproval,
  refuseApproval,
  refuseCompletion,
  type PayoutFacts,
  type PayoutRefusal,
} from '../../shared/claims/payout.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import type { Refusal } from '../../shared/api/refusal.ts';
import { normalisePhone } from '../../shared/identifiers.ts';
import { normaliseTicket } from '../../shared/ticket.ts';
import { CODE_RULES } from '../../shared/one-time-codes.ts';
import type { Language } from '../../shared/i18n.ts';
import { codeRefusal, type Codes } from '../accounts/codes.ts';
import { accountById } from '../accounts/service.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { countFailure, LIMITS, refuseWhileBackingOff, throttle, throttled } from '../http/rate-limit.ts';
import type { Texts } from '../i18n.ts';
import { deliverCode } from '../notify/deliver.ts';
import type { Notifier } from '../notify/index.ts';
import { tellPayout } from '../messages/outbox.ts';
import { recordAudit, type AuditAction } from '../audit/record.ts';
import * as q from './queries.ts';
import * as pq from './payout-queries.ts';

export type ClaimsDeps = {
  db: Db;
  codes: Codes;
  notifier: Notifier;
  /** The app's texts, for the claim code's message in the player's language (never for a refusal: run() words those). */
  texts: Texts;
  /** A transfer of more than this many taka needs a second staff member's approval (PAYOUT_SECOND_APPROVAL_TK). */
  secondApprovalTk: number;
};

type Winning = z.input<typeof WinningTicket>;

/** The claim code of a prize is kept apart from the codes of the player's other prizes. */
const subjectOf = (prizeId: number) => `prize:${prizeId}`;

const winningJson = (r: q.WinningRow, now = Date.now()): Winning => {
  const deadline = claimDeadline(r.drawn_at);
  const held = heldUntil(r.u_contact_changed_at, now);
  return {
    prize: { id: r.prize_id, prize_money: r.prize_money },
    lottery: { id: r.lottery_id, name: r.l_name, name_bn: r.l_name_bn, drawn_at: r.drawn_at },
    ticket: r.ticket,
    transaction_id: r.transaction_id,
    claim_deadline: deadline,
    // While the hold runs the API refuses the claim code and the details (refuseWhileHeld): the pages say why instead.
    can_claim: held === null && r.withheld_reason === null && canClaim(r.c_status, deadline, now),
    held_until: held,
    withheld_reason: r.withheld_reason,
    claim:
      r.c_id === null || r.c_status === null
        ? null
        : {
            id: r.c_id,
            status: r.c_status,
            payment_method: r.c_method,
            account_number: r.c_account_number ?? '',
            account_holder_name: r.c_account_holder_name ?? '',
            bank_name: r.c_bank_name ?? '',
            branch_name: r.c_branch_name ?? '',
            submitted_at: r.c_submitted_at,
            updated_at: r.c_updated_at ?? r.drawn_at,
            transfer_reference: r.c_transfer_reference,
          },
  };
};

const staffJson = (r: q.StaffClaimRow, secondApprovalTk: number, now = Date.now()): z.input<typeof StaffClaim> => ({
  id: r.id,
  status: r.status,
  payment_method: r.payment_method,
  account_number: r.account_number,
  account_holder_name: r.account_holder_name,
  bank_name: r.bank_name,
  branch_name: r.branch_name,
  submitted_at: r.submitted_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
  user: { id: r.user_id, name: r.u_name, phone: r.u_phone, email: r.u_email },
  prize: {
    id: r.prize_id,
    ticket: r.p_ticket,
    prize_money: r.p_prize_money,
    lottery: { id: r.lottery_id, name: r.l_name, name_bn: r.l_name_bn },
  },
  approval_required: needsSecondApproval(r.p_prize_money, secondApprovalTk),
  approved_by: r.transfer_approved_by === null ? null : { id: r.transfer_approved_by, name: r.a_name ?? '' },
  approved_at: r.transfer_approved_at,
  held_until: heldUntil(r.u_contact_changed_at, now),
  contact_changed_by: r.u_contact_changed_by,
  transfer_reference: r.transfer_reference,
  transfer_failure: r.transfer_failure,
  payout:
    r.payout === null
      ? null
      : {
          id: r.payout.id,
          try: r.payout.try,
          invoice: r.payout.invoice,
          amount: Number(r.payout.amount),
          receiver: r.payout.receiver,
          state: r.payout.state,
          trx_id: r.payout.trx_id,
          code: r.payout.code,
          message: r.payout.message,
          pressed_by: { id: Number(r.payout.pressed_by), name: r.payout.pressed_name },
          created_at: r.payout.created_at,
          sent_at: r.payout.sent_at,
          completed_at: r.payout.completed_at,
        },
});

/** A refusal of the payout rules (shared/claims/payout.ts) as the API answers it (shared/claims/refusals.ts). */
export function payoutRefusal(r: PayoutRefusal, thresholdTk: number): Refusal {
  switch (r.reason) {
    case 'held':
      return refusal('transfer_held', { vars: { date: r.until, hours: CONTACT_HOLD_HOURS } });
    case 'own_prize':
      return refusal('transfer_own_prize');
    case 'changed_account':
      return refusal('transfer_changed_account');
    case 'approver_completes':
      return refusal('transfer_approver_completes');
    case 'approval_needed':
      return refusal('transfer_approval_required', { vars: { threshold: thresholdTk } });
    case 'approval_not_needed':
      return refusal('transfer_approval_not_required', { vars: { threshold: thresholdTk } });
  }
}

/** The staff actions on a claim's transfer: the state they lead to and the audit log's name for them. */
const TRANSFER = {
  complete: { to: 'transfer_completed', action: 'claim.transfer_completed' },
  fail: { to: 'transfer_failed', action: 'claim.transfer_failed' },
} as const satisfies Record<string, { to: ClaimStatus; action: AuditAction }>;

export const notFound = () => refusal('claim_not_found');

/** What the audit log keeps of a claim. */
export const claimSnapshot = (c: q.ClaimRow) => ({
  status: c.status,
  prize_id: c.prize_id,
  user_id: c.user_id,
  payment_method: c.payment_method,
  account_number: c.account_number,
  account_holder_name: c.account_holder_name,
  bank_name: c.bank_name,
  branch_name: c.branch_name,
  transfer_approved_by: c.transfer_approved_by,
  transfer_reference: c.transfer_reference,
  transfer_failure: c.transfer_failure,
});

/** The claim locked for a staff action; undefined when it already has the state `to` (nothing to do). */
export async function lockSubmitted(tx: Db, id: number, to: ClaimStatus | null): Promise<q.ClaimRow | undefined> {
  const before = await q.claimForUpdate(tx, id);
  if (!before) throw notFound();
  if (before.status === to) return undefined;
  // The text names the claim's state in the caller's language (`$t(api:claimStatus.…)` in the text itself).
  if (before.status !== 'payment_info_submitted') refuse('transfer_not_ready', { vars: { status: before.status } });
  return before;
}

/** What the payout rules decide on, read under the claim's lock with the winner's row shared-locked. */
export async function payoutFacts(tx: Db, staffId: number, c: q.ClaimRow, thresholdTk: number): Promise<PayoutFacts> {
  const f = await q.payoutFacts(tx, c);
  if (!f) throw notFound();
  return {
    staffId,
    winnerId: c.user_id,
    prizeMoney: f.prize_money,
    thresholdTk,
    contactChangedAt: f.contact_changed_at,
    contactChangedBy: f.contact_changed_by,
    approvedBy: c.transfer_approved_by,
  };
}

/**
 * Prize claims (docs/rules/lotteries-and-sales.md#11-prize-claims): a player claims his own prize with a code sent
 * to him, within the claim period, once (again after a failed transfer); staff complete or fail the transfer.
 */
export class Claims {
  private readonly d: ClaimsDeps;
  constructor(d: ClaimsDeps) {
    this.d = d;
  }

  async mine(caller: AccessClaims, limit: number, offset: number): Promise<{ items: Winning[]; total: number }> {
    const { rows, total } = await q.winningTickets(this.d.db, caller.user_id, limit, offset);
    const now = Date.now();
    return { items: rows.map((r) => winningJson(r, now)), total };
  }

  async one(caller: AccessClaims, prizeId: number): Promise<Winning> {
    return winningJson(await this.owned(caller, prizeId));
  }

  /** Another player's prize, an unknown one and one whose results are not published all answer alike. */
  private async owned(caller: AccessClaims, prizeId: number): Promise<q.WinningRow> {
    const row = await q.winningTicket(this.d.db, caller.user_id, prizeId);
    if (!row) refuse('claim_prize_not_found');
    return row;
  }

  /** Why payout details cannot be sent now, or null when they can. */
  private refusal(row: q.WinningRow): Refusal | null {
    // docs/rules/lotteries-and-sales.md#9-the-draw: a withheld prize is not paid.
    if (row.withheld_reason !== null) return refusal('claim_prize_withheld', { vars: { reason: row.withheld_reason } });
    const deadline = claimDeadline(row.drawn_at);
    if (canClaim(row.c_status, deadline)) return null;
    if (row.c_status === 'payment_info_submitted' || row.c_status === 'transfer_completed') return refusal('claim_already_submitted');
    return refusal('claim_period_over', { vars: { date: deadline } });
  }

  /**
   * Refused while the player's phone, e-mail or (by staff) password changed less than 72 hours ago: whoever changed
   * them may not be the player (docs/rules/lotteries-and-sales.md#11-prize-claims).
   */
  private refuseWhileHeld(row: q.WinningRow): void {
    const until = heldUntil(row.u_contact_changed_at);
    if (until) refuse('claim_held', { vars: { date: until } });
  }

  /**
   * Sends the prize's claim code to the owner's phone (or e-mail), worded in `lng` (the language he asks in); a new one
   * only after the resend wait. Answers the wait before the next.
   */
  async sendCode(caller: AccessClaims, prizeId: number, lng: Language): Promise<{ wait: number }> {
    const userId = caller.user_id;
    await throttle(this.d.db, [[`claim-send:user:${userId}`, LIMITS.codePerIdentifier]]);
    const row = await this.owned(caller, prizeId);
    const refused = this.refusal(row);
    if (refused) throw refused;
    this.refuseWhileHeld(row);
    const subject = subjectOf(prizeId);
    const wait = await this.d.codes.waitBeforeResend(userId, 'claim', subject);
    if (wait > 0) throw throttled(wait);
    const user = await accountById(this.d.db, userId);
    if (!user) refuse('claim_account_gone');
    await q.startClaim(this.d.db, prizeId, userId);
    const code = await this.d.codes.issue(userId, 'claim', subject);
    await deliverCode(this.d.notifier, user, 'claim', code, this.d.texts, lng);
    return { wait: CODE_RULES.claim.resendAfterSec };
  }

  /**
   * The payout details with the claim code. Wrong codes count towards the code's five tries and the player's
   * back-off (docs/rules/limits.md#1-rate-limits); a code works once, so two submits racing store one set of details.
   */
  async submit(caller: AccessClaims, body: z.output<typeof ClaimBody>): Promise<Winning> {
    const userId = caller.user_id;
    const failures = `claim:fail:${userId}`;
    await refuseWhileBackingOff(this.d.db, failures);
    const row = await this.owned(caller, body.prize);
    const refused = this.refusal(row);
    if (refused) throw refused;
    this.refuseWhileHeld(row);
    const result = await this.d.codes.check(userId, 'claim', body.otp, subjectOf(body.prize));
    if (result !== 'ok') {
      await countFailure(this.d.db, failures);
      throw codeRefusal(result);
    }
    const stored = await q.submitPayout(this.d.db, body.prize, userId, {
      payment_method: body.payment_method,
      account_number: body.account_number,
      account_holder_name: body.account_holder_name,
      bank_name: body.bank_name,
      branch_name: body.branch_name,
    });
    if (!stored) {
      // Withheld while the code was checked (the prize's lock decided): told why, as before the check.
      const now = await this.owned(caller, body.prize);
      throw this.refusal(now) ?? refusal('claim_already_submitted');
    }
    return this.one(caller, body.prize);
  }

  /** Staff: every claim, searched (a ticket or phone in another written form matches too) and filtered. */
  async list(query: z.output<typeof StaffClaimsQuery>): Promise<{ items: z.input<typeof StaffClaim>[]; total: number }> {
    const search = query.search;
    const { rows, total } = await q.staffClaims(
      this.d.db,
      {
        search,
        ticket: search ? normaliseTicket(search) : null,
        phone: search ? normalisePhone(search) : null,
        status: query.status,
        method: query.payment_method,
      },
      query.limit,
      query.offset,
    );
    const now = Date.now();
    return { items: rows.map((r) => staffJson(r, this.d.secondApprovalTk, now)), total };
  }

  /** Staff: the summary cards, over every claim. */
  async summary(): Promise<z.input<typeof ClaimsSummary>> {
    const s = await q.claimsSummary(this.d.db);
    const amount = Number(s?.total_prize_amount ?? 0);
    if (!Number.isSafeInteger(amount)) throw new RangeError(`claimed prizes ${s?.total_prize_amount} are beyond exact numbers`);
    return { total_claims: s?.total_claims ?? 0, total_prize_amount: amount, pending_transfers: s?.pending_transfers ?? 0 };
  }

  /**
   * Staff: the transfer of a claim with submitted details is done, or failed; audited. The same again changes nothing.
   * Completing is for transfers made by hand (Nagad, Rocket, a bank), recorded with their reference; a prize to a bKash
   * wallet is paid by bKash (Pay now, server/claims/payouts.ts). It obeys the payout rules (shared/claims/payout.ts):
   * not while the winner's account is held, never by the staff member who last changed it or by the winner himself,
   * and above PAYOUT_SECOND_APPROVAL_TK only after another staff member approved. Failing a transfer pays nothing and
   * is not held; it is refused while a payout by bKash is being sent or its answer was lost, and gives up one waiting
   * for the balance.
   */
  async transfer(
    staff: AccessClaims,
    id: number,
    how: keyof typeof TRANSFER,
    reference: string | null = null,
  ): Promise<z.input<typeof StaffClaim>> {
    const { to, action } = TRANSFER[how];
    await this.d.db.tx(async (tx) => {
      const before = await lockSubmitted(tx, id, to);
      if (!before) return;
      if (how === 'complete') {
        if (before.payment_method === 'bkash') refuse('transfer_by_bkash');
        const refused = refuseCompletion(await payoutFacts(tx, staff.user_id, before, this.d.secondApprovalTk));
        if (refused) throw payoutRefusal(refused, this.d.secondApprovalTk);
      } else {
        // A payout by bKash under way is bKash's to decide; one waiting for the balance is given up.
        const live = await pq.livePayout(tx, id);
        if (live && live.state !== 'waiting') refuse('payout_under_way', { vars: { state: live.state } });
        if (live) await pq.payoutNotSent(tx, live.id, staff.user_id, 'waiting');
      }
      const proof = how === 'complete' && reference !== null ? { reference } : {};
      const after = await q.setClaimStatus(tx, id, to, proof);
      if (!after) throw notFound();
      await recordAudit(tx, {
        actorId: staff.user_id,
        action,
        entity: 'prize_claim',
        entityId: String(id),
        before: claimSnapshot(before),
        after: claimSnapshot(after),
      });
      await tellPayout(tx, id, how === 'complete' ? 'payout_sent' : 'payout_failed', proof);
    });
    return this.staffOne(id);
  }

  /**
   * Staff: a second staff member approves the transfer of a prize above PAYOUT_SECOND_APPROVAL_TK, for the payout details
   * submitted now (new details clear it); audited as `claim.transfer_approved`. An approved claim changes nothing.
   */
  async approve(staff: AccessClaims, id: number): Promise<z.input<typeof StaffClaim>> {
    await this.d.db.tx(async (tx) => {
      const before = await lockSubmitted(tx, id, null);
      if (!before || before.transfer_approved_by !== null) return;
      const refused = refuseApproval(await payoutFacts(tx, staff.user_id, before, this.d.secondApprovalTk));
      if (refused) throw payoutRefusal(refused, this.d.secondApprovalTk);
      const after = await q.approveTransfer(tx, id, staff.user_id);
      if (!after) throw notFound();
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'claim.transfer_approved',
        entity: 'prize_claim',
        entityId: String(id),
        before: claimSnapshot(before),
        after: claimSnapshot(after),
      });
    });
    return this.staffOne(id);
  }

  async staffOne(id: number): Promise<z.input<typeof StaffClaim>> {
    const row = await q.staffClaim(this.d.db, id);
    if (!row) throw notFound();
    return staffJson(row, this.d.secondApprovalTk);
  }
}
