/**
 * Prizes paid by bKash (docs/rules/lotteries-and-sales.md#11-prize-claims, "Paid by bKash";
 * docs/decisions/081-prizes-paid-by-bkash.md): a claim to a bKash wallet is paid by the server through bKash's B2C
 * payout when a staff member presses "Pay now", under the same four eyes as a transfer by hand, and is
 * transfer_completed only when bKash says the money arrived.
 *
 * Exactly once: each try is written (and committed) as `sending` before bKash is called, under its own invoice
 * number; at most one try of a claim is live (waiting, sending, unknown or completed: the claim's lock, and the unique
 * index behind it). A try whose answer was lost is `unknown` and is never sent again by itself: bKash publishes no
 * query of a payout by its invoice, so staff settle it with the TrxID bKash's merchant portal shows (checked with bKash's
 * Search) or, a second staff member, find it not sent. The reconciliation job turns a try left `sending` by an app that
 * died into `unknown`, sends the waiting ones the balance now covers, and keeps the balance read.
 *
 * The money is there before it is promised: bKash's disbursement balance is read before every payout; one it does not
 * cover (with what is already on its way) waits, nothing is sent, and staff see it on the claims page and the dashboard.
 */
import type { z } from 'zod';
import type { Logger } from '../log.ts';
import type { Db } from '../db/index.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit, type AuditAction } from '../audit/record.ts';
import { tellPayout } from '../messages/outbox.ts';
import { BkashError } from '../payments/bkash/client.ts';
import type { BkashPayouts } from '../payments/bkash/payouts.ts';
import { refuse } from '../../shared/api/refusals.ts';
import {
  balanceCovers,
  payoutInvoice,
  payoutRefusalReason,
  refuseCompletion,
  refuseSettlement,
  type PayoutFacts,
} from '../../shared/claims/payout.ts';
import { CLAIM_DAYS, type BkashBalanceReply, type StaffClaim } from '../../shared/claims/schemas.ts';
import * as q from './queries.ts';
import * as pq from './payout-queries.ts';
import { claimSnapshot, lockSubmitted, notFound, payoutFacts, payoutRefusal, type Claims } from './service.ts';

/** What the server asks of bKash's payout API (server/payments/bkash/payouts.ts). */
export type PayoutGateway = Pick<BkashPayouts, 'b2cPayment' | 'organizationBalance' | 'searchTransaction'>;

export type PayoutsDeps = {
  db: Db;
  log: Logger;
  gateway: PayoutGateway;
  claims: Claims;
  /** PAYOUT_SECOND_APPROVAL_TK. */
  secondApprovalTk: number;
};

/** A try still `sending` this long after it was sent was left by an app that died: bKash's call times out far sooner. */
export const STALE_SENDING_SEC = 120;
/** The job reads the balance again when the last read is older than this. */
export const BALANCE_FRESH_MS = 60_000;
/** A balance read longer ago than this is shown as old (bKash has not answered the job since). */
const BALANCE_SHOWN_FRESH_MS = 5 * 60_000;

/** bKash's disbursement (and collection) balance as read; `fresh`: read now or within a minute, so it covers payouts. */
type Balance = { paisa: number | null; collection: number | null; readAt: string | null; fresh: boolean };

type Outcome =
  | { kind: 'completed'; trxId: string; fee: string | null; completedAt: string | null }
  | { kind: 'refused'; code: string | null; message: string }
  | { kind: 'unknown'; message: string };

const AUDIT: Record<Outcome['kind'], AuditAction> = {
  completed: 'claim.payout_completed',
  refused: 'claim.payout_refused',
  unknown: 'claim.payout_unknown',
};

const payoutSnapshot = (p: pq.PayoutRow) => ({
  invoice: p.invoice,
  try: p.try,
  amount: Number(p.amount),
  receiver: p.receiver,
  state: p.state,
  trx_id: p.trx_id,
  code: p.code,
});

const paisaOf = (text: string | null | undefined): number | null => (text == null ? null : Number(text));

export class PrizePayouts {
  private readonly d: PayoutsDeps;
  constructor(d: PayoutsDeps) {
    this.d = d;
  }

  /**
   * Staff: "Pay now" for a claim to a bKash wallet. The payout rules as for completing a transfer (hold, own prize,
   * who changed the account, second approval above the threshold); one live try per claim. Sent at once when the
   * balance covers it, else it waits. Answers the claim as it is afterwards (its payout completed, refused, unknown or
   * waiting).
   */
  async payNow(staff: AccessClaims, id: number): Promise<z.input<typeof StaffClaim>> {
    // Checked first, without writing: a refused press changes nothing, not even the balance's record.
    await this.d.db.tx((tx) => this.payable(tx, staff, id));
    // The balance read now, outside any lock: a call to bKash never holds a claim's row.
    const balance = await this.currentBalance(true, false);
    const tried = await this.d.db.tx(async (tx) => {
      const { before, facts } = await this.payable(tx, staff, id);
      if (balance.fresh) await pq.recordBalance(tx, balance.paisa, balance.collection);
      // Only a balance read now covers a payout: an old one may be spent.
      const covered = balanceCovers(balance.fresh ? balance.paisa : null, facts.prizeMoney, await pq.outgoingTk(tx));
      const p = await pq.newPayout(tx, {
        claimId: id,
        invoiceOf: (n) => payoutInvoice(id, n),
        amount: facts.prizeMoney,
        receiver: before.account_number,
        state: covered ? 'sending' : 'waiting',
        pressedBy: staff.user_id,
      });
      if (!p) throw notFound();
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: covered ? 'claim.payout_sent' : 'claim.payout_waiting',
        entity: 'prize_claim',
        entityId: String(id),
        before: claimSnapshot(before),
        after: { ...claimSnapshot(before), payout: payoutSnapshot(p) },
      });
      return p;
    });
    if (tried.state === 'sending') await this.send(tried);
    else
      this.d.log.warn(
        { claim: id, amount: Number(tried.amount), balance_paisa: balance.paisa },
        'prize payout waits for the bKash balance',
      );
    return this.d.claims.staffOne(id);
  }

  /**
   * Why this staff member may not press Pay now for this claim (thrown), under the claim's lock: its details in, to a
   * bKash wallet, the rules of completing a transfer, no live try.
   */
  private async payable(tx: Db, staff: AccessClaims, id: number): Promise<{ before: q.ClaimRow; facts: PayoutFacts }> {
    const before = await lockSubmitted(tx, id, null);
    if (!before) throw notFound();
    if (before.payment_method !== 'bkash') refuse('payout_not_bkash', { vars: { method: before.payment_method ?? 'bank' } });
    const facts = await payoutFacts(tx, staff.user_id, before, this.d.secondApprovalTk);
    const refused = refuseCompletion(facts);
    if (refused) throw payoutRefusal(refused, this.d.secondApprovalTk);
    const live = await pq.livePayout(tx, id);
    if (live) refuse('payout_under_way', { vars: { state: live.state } });
    return { before, facts };
  }

  /**
   * Staff: a try whose answer was lost is settled with the TrxID bKash's merchant portal shows for it: bKash's Search
   * must report it completed, for this amount, to this wallet, under this invoice; then the claim is paid.
   */
  async settle(staff: AccessClaims, id: number, trxId: string): Promise<z.input<typeof StaffClaim>> {
    const unknown = await this.unknownTry(id);
    let found;
    try {
      found = await this.d.gateway.searchTransaction(trxId);
    } catch (err) {
      if (err instanceof BkashError) refuse('payout_bkash_unavailable');
      throw err;
    }
    const why = refuseSettlement({
      payout: { amount: Number(unknown.amount), receiver: unknown.receiver, invoice: unknown.invoice, sentAt: unknown.sent_at },
      found: found && {
        transactionStatus: found.transactionStatus,
        amount: found.amount,
        customerMsisdn: found.customerMsisdn,
        transactionReference: found.transactionReference,
        completedTime: found.completedTime,
      },
    });
    if (why) refuse('payout_trx_mismatch', { vars: { trx: trxId, reason: why } });
    await this.d.db.tx(async (tx) => {
      const claim = await q.claimForUpdate(tx, id);
      if (!claim) throw notFound();
      if (claim.user_id === staff.user_id) throw payoutRefusal({ reason: 'own_prize' }, this.d.secondApprovalTk);
      const p = await pq.latestPayout(tx, id);
      if (!p || p.id !== unknown.id || p.state !== 'unknown') refuse('payout_not_unknown', { vars: { state: p?.state ?? 'not_sent' } });
      if (await pq.trxUsed(tx, trxId, p.id)) refuse('payout_trx_used', { vars: { trx: trxId } });
      await this.record(tx, claim, p, { kind: 'completed', trxId, fee: null, completedAt: found?.completedTime ?? null }, staff.user_id);
    });
    return this.d.claims.staffOne(id);
  }

  /**
   * Staff: a try whose answer was lost was not sent (bKash's merchant portal has no payout of its invoice), said by
   * another staff member than the one who pressed Pay now; the claim may then be paid again, under a new invoice.
   */
  async notSent(staff: AccessClaims, id: number): Promise<z.input<typeof StaffClaim>> {
    await this.d.db.tx(async (tx) => {
      const claim = await q.claimForUpdate(tx, id);
      if (!claim) throw notFound();
      if (claim.user_id === staff.user_id) throw payoutRefusal({ reason: 'own_prize' }, this.d.secondApprovalTk);
      const p = await pq.latestPayout(tx, id);
      if (!p || p.state !== 'unknown') refuse('payout_not_unknown', { vars: { state: p?.state ?? 'not_sent' } });
      if (Number(p.pressed_by) === staff.user_id) refuse('payout_same_staff');
      const after = await pq.payoutNotSent(tx, p.id, staff.user_id, 'unknown');
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'claim.payout_not_sent',
        entity: 'prize_claim',
        entityId: String(id),
        before: { ...claimSnapshot(claim), payout: payoutSnapshot(p) },
        after: { ...claimSnapshot(claim), payout: after ? payoutSnapshot(after) : null },
      });
    });
    return this.d.claims.staffOne(id);
  }

  /**
   * Staff: bKash's disbursement balance as last read (by the job every minute, and around every payout: a page never
   * waits for bKash) and what is owed to winners. `fresh`: read within the last five minutes.
   */
  async balance(): Promise<z.input<typeof BkashBalanceReply>> {
    const [last, o] = await Promise.all([pq.lastBalance(this.d.db), pq.owed(this.d.db, CLAIM_DAYS)]);
    return {
      disbursement_paisa: paisaOf(last?.disbursement_paisa),
      read_at: last?.read_at ?? null,
      fresh: last !== undefined && Date.now() - new Date(last.read_at).getTime() < BALANCE_SHOWN_FRESH_MS,
      owed_claimed: Number(o?.claimed ?? 0),
      owed_unclaimed: Number(o?.unclaimed ?? 0),
      waiting: o?.waiting ?? 0,
      waiting_amount: Number(o?.waiting_amount ?? 0),
    };
  }

  /**
   * The reconciliation job's part (server/payments/reconcile.ts): tries an app left `sending` become unknown (told to
   * staff by the claims page and the alert rules); waiting tries are sent, oldest first, as far as the balance covers
   * them and their rules still allow (a hold begun since waits). Returns how many tries it settled or sent.
   */
  async reconcile(): Promise<number> {
    const stale = await this.d.db.tx(async (tx) => {
      const rows = await pq.staleSending(tx, STALE_SENDING_SEC);
      for (const p of rows)
        await recordAudit(tx, {
          actorId: null,
          action: 'claim.payout_unknown',
          entity: 'prize_claim',
          entityId: String(p.claim_id),
          before: { payout: { ...payoutSnapshot(p), state: 'sending' } },
          after: { payout: payoutSnapshot(p) },
        });
      return rows;
    });
    for (const p of stale) this.d.log.error({ claim: p.claim_id, invoice: p.invoice }, 'prize payout left sending: its outcome is unknown');
    const waiting = await pq.waitingPayouts(this.d.db);
    // Read now when a try waits for it; else only when the last read is old (the dashboard's).
    let balance = await this.currentBalance(waiting.length > 0);
    let sent = 0;
    for (const w of waiting) {
      const go = await this.d.db.tx(async (tx) => {
        const claim = await q.claimForUpdate(tx, w.claim_id);
        if (!claim || claim.status !== 'payment_info_submitted') return undefined;
        const facts = await payoutFacts(tx, Number(w.pressed_by), claim, this.d.secondApprovalTk);
        if (refuseCompletion(facts)) return undefined;
        if (!balanceCovers(balance.fresh ? balance.paisa : null, Number(w.amount), await pq.outgoingTk(tx))) return undefined;
        return pq.startSending(tx, w.id);
      });
      if (go) {
        // What the payout left, read after it: the next one is weighed against that.
        balance = await this.send(go);
        sent++;
      }
    }
    return stale.length + sent;
  }

  /** The try goes to bKash, once; what bKash answers (or not) is recorded. Answers the balance bKash has after it. */
  private async send(p: pq.PayoutRow): Promise<Balance> {
    let outcome: Outcome;
    try {
      const a = await this.d.gateway.b2cPayment({ amount: Number(p.amount), receiverMSISDN: p.receiver, merchantInvoiceNumber: p.invoice });
      outcome =
        a.transactionStatus === 'Completed'
          ? { kind: 'completed', trxId: a.trxID, fee: a.b2cFee, completedAt: a.completedTime }
          : { kind: 'unknown', message: `bKash answered ${a.transactionStatus}` };
    } catch (err) {
      if (err instanceof BkashError && err.kind === 'refused') outcome = { kind: 'refused', code: err.code, message: err.message };
      else outcome = { kind: 'unknown', message: err instanceof Error ? err.message : 'no answer' };
    }
    if (outcome.kind === 'unknown')
      this.d.log.error({ claim: p.claim_id, invoice: p.invoice }, 'prize payout without an answer: not sent again');
    await this.d.db.tx(async (tx) => {
      const claim = await q.claimForUpdate(tx, p.claim_id);
      if (!claim) throw notFound();
      await this.record(tx, claim, p, outcome, Number(p.pressed_by));
    });
    // The balance bKash now has, for the next payout and the dashboard.
    return this.currentBalance(true);
  }

  /** A try's outcome and the claim's, audited, and the winner told; under the claim's lock. */
  private async record(tx: Db, claim: q.ClaimRow, p: pq.PayoutRow, o: Outcome, actorId: number): Promise<void> {
    const after =
      o.kind === 'completed'
        ? await pq.completePayout(tx, p.id, {
            trxId: o.trxId,
            fee: o.fee,
            completedAt: o.completedAt,
            settledBy: p.state === 'unknown' ? actorId : null,
          })
        : o.kind === 'refused'
          ? await pq.refusePayout(tx, p.id, o.code, o.message)
          : await pq.payoutUnknown(tx, p.id, o.message);
    if (!after) return; // settled meanwhile (a late answer after a settling): nothing more
    let claimAfter = claim;
    if (o.kind !== 'unknown' && claim.status === 'payment_info_submitted') {
      const set = await q.setClaimStatus(
        tx,
        claim.id,
        o.kind === 'completed' ? 'transfer_completed' : 'transfer_failed',
        o.kind === 'completed' ? { reference: o.trxId } : { failure: o.code ?? 'unknown' },
      );
      if (set) claimAfter = set;
    }
    await recordAudit(tx, {
      actorId,
      action: p.state === 'unknown' && o.kind === 'completed' ? 'claim.payout_settled' : AUDIT[o.kind],
      entity: 'prize_claim',
      entityId: String(claim.id),
      before: { ...claimSnapshot(claim), payout: payoutSnapshot(p) },
      after: { ...claimSnapshot(claimAfter), payout: payoutSnapshot(after) },
    });
    if (o.kind === 'completed') await tellPayout(tx, claim.id, 'payout_sent', { trx_id: o.trxId });
    if (o.kind === 'refused') await tellPayout(tx, claim.id, 'payout_failed', { refusal: payoutRefusalReason(o.code) });
  }

  /** The claim's latest try, which must be unknown. */
  private async unknownTry(id: number): Promise<pq.PayoutRow> {
    if (!(await q.staffClaim(this.d.db, id))) throw notFound();
    const p = await pq.latestPayout(this.d.db, id);
    if (!p || p.state !== 'unknown') refuse('payout_not_unknown', { vars: { state: p?.state ?? 'not_sent' } });
    return p;
  }

  /**
   * bKash's disbursement balance: read from bKash when the last read is older than a minute (or `now`), and recorded
   * (unless `record` is false: the caller records it with its own writes); when bKash does not answer, the last one
   * read (not fresh: it covers no payout), or none.
   */
  private async currentBalance(now = false, record = true): Promise<Balance> {
    const last = await pq.lastBalance(this.d.db);
    const age = last ? Date.now() - new Date(last.read_at).getTime() : Infinity;
    if (!now && last && age < BALANCE_FRESH_MS)
      return { paisa: paisaOf(last.disbursement_paisa), collection: paisaOf(last.collection_paisa), readAt: last.read_at, fresh: true };
    try {
      const b = await this.d.gateway.organizationBalance();
      if (record) await pq.recordBalance(this.d.db, b.disbursementPaisa, b.collectionPaisa);
      return { paisa: b.disbursementPaisa, collection: b.collectionPaisa, readAt: new Date().toISOString(), fresh: true };
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.d.log.warn({ err: err.message }, 'bKash balance not read');
      return { paisa: paisaOf(last?.disbursement_paisa), collection: null, readAt: last?.read_at ?? null, fresh: false };
    }
  }
}
