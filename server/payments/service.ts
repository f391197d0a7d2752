import type { z } from 'zod';
import { paths } from '../../shared/paths.ts';
import type {
  CallbackBody,
  CallbackReply,
  CheckoutInfo,
  CheckoutReply,
  RefundReason,
  StaffSendMoneyCheck,
} from '../../shared/payments/schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import { committing, procedure, type Db } from '../db/index.ts';
import { checkPlay } from '../play-safe/service.ts';
import { refuseStaffPlay } from '../play-safe/staff.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { throttle, type Limit } from '../http/rate-limit.ts';
import type { Logger } from '../log.ts';
import { tellRefund } from '../messages/outbox.ts';
import {
  confirmPaidPurchase,
  confirmSentMoney,
  failUnpaidPurchase,
  lockPurchaseForPayment,
  PURCHASE_LIMIT,
  purchaseOfPlayer,
  type PurchaseForPayment,
} from '../purchases/service.ts';
import { stillOnSale } from '../../shared/lotteries/freeze.ts';
import { confirmRun, endRun, lockRunForPayment, runOfPurchase, type RunForPayment } from '../purchases/runs.ts';
import { BkashError, type BkashPayment, type BkashRefund, type BkashTransaction } from './bkash/client.ts';
import * as aq from './agreement-queries.ts';
import * as q from './queries.ts';
import { judgeSendMoney } from './send-money.ts';
import * as sq from './send-money-queries.ts';
import type { PaymentRow, PaymentState } from './queries.ts';

/** How a purchase's TrxID has its check begun in its own statement (docs/decisions/103-a-trx-id-check-begun-with-it.md). */
export { beginCheck, type BegunCheck } from './send-money-queries.ts';

/** What the checkout needs of bKash (server/payments/bkash/client.ts BkashClient; a test may give another). */
export interface Gateway {
  create(p: {
    amount: number;
    payerReference: string;
    callbackURL: string;
    merchantInvoiceNumber: string;
    /** A payment with the player's agreement (mode 0001): his PIN only (docs/rules/bkash.md#7-agreements). */
    agreementID?: string | undefined;
  }): Promise<{ paymentID: string; bkashURL: string }>;
  execute(paymentID: string): Promise<BkashPayment>;
  status(paymentID: string): Promise<BkashPayment>;
  refund(p: { paymentID: string; trxID: string; amount: number; reason: string; sku: string }): Promise<BkashRefund>;
  refundStatus(p: { paymentID: string; trxID: string }): Promise<BkashRefund | null>;
  searchTransaction(trxID: string): Promise<BkashTransaction | null>;
}

export type PaymentsDeps = {
  db: Db;
  gateway: Gateway;
  log: Logger;
  /** PUBLIC_ORIGIN: where bKash sends the player back; without it, the origin the request came to. */
  publicOrigin?: string | undefined;
  /** Work after the answer (the refund bKash is asked for). */
  defer: (task: () => Promise<void>) => void;
  /** How long a callback waits for bKash before it answers with what is known (the rest goes on in the background). */
  callbackWaitMs?: number;
  /** The bKash number players send money to (BKASH_RECEIVER_NUMBER): a Send Money to any other confirms nothing. */
  receiver: string;
};

/** bKash callbacks per address (docs/rules/limits.md#1-rate-limits): a player comes back once per payment. */
const CALLBACK_LIMIT: Limit = { max: 30, windowSec: 60 };

/** What the outcome of one payment was, for the page the player comes back to. */
type Outcome = z.input<typeof CallbackReply>['outcome'];

const OUTCOME: Record<PaymentState, Outcome> = {
  created: 'pending',
  completed: 'confirmed',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'failed',
  refund_due: 'refunded',
  refunded: 'refunded',
};

/** bKash's transactionStatus → the state a payment settles in; undefined: still open ("Initiated" and anything unknown). */
function settledState(bkashStatus: string): PaymentState | undefined {
  switch (bkashStatus) {
    case 'Completed':
      return 'completed';
    case 'Cancelled':
      return 'cancelled';
    case 'Failed':
      return 'failed';
    case 'Expired':
      return 'expired';
    default:
      return undefined;
  }
}

/** A call to bKash that failed, logged: its kind, code and message only (never a secret, docs/rules/bkash.md). */
export function warnOfBkash(log: Logger, err: BkashError, about: Record<string, string | number>): void {
  log.warn({ err: { kind: err.kind, code: err.code, message: err.message }, ...about }, `bKash ${err.op} failed`);
}

/**
 * One TrxID check ended on bKash's answer (Payments.settleTrxId), run where the database is
 * (docs/decisions/099-writes-run-on-the-database-thread.md); `receiver` is the number players send money to.
 */
export const settleTrxIdTx = procedure(
  'settle-trx-id',
  async (
    tx,
    { transactionId, trxId, bk, receiver }: { transactionId: number; trxId: string; bk: BkashTransaction | null; receiver: string },
  ): Promise<void> => {
    const purchase = await lockPurchaseForPayment(tx, transactionId);
    // A run's lead: its other draws' lotteries and entries too, before the check's own lock; its TrxID pays the whole.
    const run = purchase?.tx.slip_id != null ? await lockRunForPayment(tx, Number(purchase.tx.slip_id), purchase.tx.id) : undefined;
    // The check's lock, and whether another purchase holds the TrxID, asked at once (docs/decisions/090-a-trx-id-reads-sent-together.md).
    const [row, trxIdUsed] = await Promise.all([sq.checkForUpdate(tx, transactionId), sq.trxIdUsed(tx, trxId, transactionId)]);
    if (!purchase || !row || row.state !== 'checking' || row.trx_id !== trxId) return;
    const { tx: txn, sale } = purchase;
    const closed = purchase.closed !== undefined || run?.closed === true;
    if (txn.status !== 'pending' || txn.transaction_type !== 'payment' || txn.trx_id !== trxId)
      return void (await sq.endCheck(committing(tx), transactionId, { state: 'left', reason: 'changed_meanwhile', answer: bk }));
    const verdict = judgeSendMoney(
      bk,
      {
        amount: run ? Number(run.slip.amount) : txn.amount,
        createdAt: txn.created_at,
        salesCloseAt: sale.end_date,
        trxIdUsed,
      },
      receiver,
    );
    // A check that ends without confirming is the transaction's last statement, sent with its COMMIT
    // (docs/decisions/095-last-statement-with-its-commit.md); a confirmation's writes are asked with it (097).
    if (!verdict.ok)
      return void (await sq.endCheck(committing(tx), transactionId, { state: 'refused', reason: verdict.reason, answer: bk }));
    // Paid in time, but bKash answered after the close (it was unreachable): staff and the statement decide.
    if (closed) return void (await sq.endCheck(committing(tx), transactionId, { state: 'left', reason: 'sales_closed', answer: bk }));
    await Promise.all([
      sq.endCheck(tx, transactionId, { state: 'confirmed', reason: null, answer: bk }),
      confirmSentMoney(tx, txn, bk as BkashTransaction),
    ]);
    if (run && run.slip.status === 'pending')
      await confirmRun(tx, run, trxId, { actorId: null, action: 'transaction.confirmed_by_bkash', proof: { bkash_answer: bk } });
  },
);

/**
 * Paying with bKash's Tokenized Checkout (docs/rules/payments.md): a pending purchase's checkout starts here, bKash's
 * callback and the reconciliation job settle each payment exactly once, and money that could not become a ticket is
 * refunded. Every change of a purchase goes through server/purchases/service.ts.
 */
export class Payments {
  private readonly d: PaymentsDeps;
  constructor(d: PaymentsDeps) {
    this.d = d;
  }

  /**
   * Starts the checkout of the caller's own pending purchase: bKash makes a payment for its amount, and the player is
   * sent to bKash's page (`bkash_url`). A purchase that already has a TrxID (Send Money) or is no longer pending is
   * refused, and so is one whose lottery is no longer on sale: no money is taken for a ticket that cannot be sold.
   */
  async startCheckout(
    caller: AccessClaims,
    transactionId: number,
    origin: string,
    /** `skip`: not with the player's remembered bKash account, if he has one (he pays from another wallet). */
    agreement: 'use' | 'skip' = 'use',
  ): Promise<z.input<typeof CheckoutReply>> {
    refuseStaffPlay(caller);
    await throttle(this.d.db, [[`purchase:user:${caller.user_id}`, PURCHASE_LIMIT]]);
    const p = await purchaseOfPlayer(this.d.db, caller.user_id, transactionId);
    if (!p) refuse('checkout_purchase_not_found');
    if (p.tx.status !== 'pending') refuse('checkout_not_pending');
    if (p.tx.trx_id !== null) refuse('checkout_trx_id_given');
    if (!stillOnSale(p.sale, Date.now())) refuse('checkout_sales_closed');
    // One entry of a run: the run is paid whole, through its lead, while every one of its draws is still on sale
    // (docs/rules/games.md#6-consecutive-draws-and-play-slips).
    const run = await runOfPurchase(this.d.db, p.tx);
    if (run && Number(run.slip.lead_id) !== p.tx.id) refuse('checkout_run_entry');
    if (run && run.slip.status !== 'pending') refuse('checkout_not_pending');
    if (run && !run.onSale) refuse('checkout_sales_closed');
    const amount = run ? Number(run.slip.amount) : p.tx.amount;
    // Paying is play: a self-excluded player pays nothing, and the purchase must still fit his limits as if made now
    // (docs/rules/play-safe.md#4-every-purchase-path).
    await this.d.db.tx((tx) => checkPlay(tx, caller, amount, run ? { exceptSlip: Number(run.slip.id) } : { except: p.tx.id }));
    // With his remembered bKash account, his PIN only (docs/rules/payments.md#11-remembered-bkash-agreements).
    const remembered = agreement === 'use' ? await aq.activeOf(this.d.db, caller.user_id) : undefined;
    const payment = {
      amount,
      payerReference: caller.phone ?? String(caller.user_id),
      callbackURL: `${this.d.publicOrigin ?? origin}${paths.bkashCallback}`,
      merchantInvoiceNumber: String(p.tx.id),
    };
    let created: { paymentID: string; bkashURL: string };
    let agreementId = remembered?.agreement_id ?? undefined;
    try {
      try {
        created = await this.d.gateway.create({ ...payment, agreementID: agreementId });
      } catch (err) {
        // The player ended the agreement in bKash's app (2053), or bKash no longer knows it (2051): forgotten here too,
        // and this payment is made without it.
        if (!(
          remembered &&
          agreementId &&
          err instanceof BkashError &&
          err.kind === 'refused' &&
          ['2051', '2053'].includes(err.code ?? '')
        ))
          throw err;
        await this.forgetAgreement(remembered);
        agreementId = undefined;
        created = await this.d.gateway.create(payment);
      }
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { transaction: p.tx.id });
      refuse('bkash_unavailable');
    }
    await q.insertPayment(this.d.db, { paymentId: created.paymentID, transactionId: p.tx.id, amount, agreementId: agreementId ?? null });
    return { payment_id: created.paymentID, bkash_url: created.bkashURL, transaction_id: p.tx.id };
  }

  /**
   * bKash's callback, as the player's browser brings it back (and, when bKash sends it twice, again), from anyone who
   * has the paymentID (docs/rules/payments.md#3-paying-with-bkash-checkout): a payment the player confirmed is
   * executed; one he cancelled or that failed is asked about, and ends only when bKash's own status says it ended (the
   * callback's word alone never ends a purchase). A payment already settled is not asked about again. Only the
   * purchase's owner is told which purchase it is and what became of it; anyone else learns nothing he did not send.
   */
  async callback(
    body: z.output<typeof CallbackBody>,
    caller: { ip: string; user: AccessClaims | undefined },
  ): Promise<z.input<typeof CallbackReply>> {
    await throttle(this.d.db, [[`bkash-callback:ip:${caller.ip}`, CALLBACK_LIMIT]]);
    const known = await q.payment(this.d.db, body.paymentID);
    if (!known) refuse('payment_not_found');
    if (known.state === 'created') {
      const work = body.status === 'success' ? this.execute(known) : this.check(known);
      await this.atMost(work, this.d.callbackWaitMs ?? 6_000);
    }
    const owner = await q.ownerOfPayment(this.d.db, body.paymentID);
    if (!caller.user || owner?.user_id !== caller.user.user_id) return { transaction_id: null, outcome: null, checkout: null };
    const now = await q.payment(this.d.db, body.paymentID);
    return this.reply(now ?? known);
  }

  /** An agreement bKash says is no more: ended here (by bKash), audited. */
  private async forgetAgreement(a: aq.AgreementRow): Promise<void> {
    await this.d.db.tx(async (tx) => {
      await aq.end(tx, Number(a.id), 'bkash');
      await recordAudit(tx, {
        actorId: null,
        action: 'bkash_agreement.cancel',
        entity: 'user',
        entityId: String(a.user_id),
        before: { agreement: a.id, state: 'active' },
        after: { agreement: a.id, state: 'cancelled', ended_by: 'bkash' },
      });
    });
  }

  /** The checkout of purchases as their pages show it: the newest payment of each that has one. */
  async checkoutsOf(transactionIds: number[], db: Db = this.d.db): Promise<Map<number, z.input<typeof CheckoutInfo>>> {
    if (!transactionIds.length) return new Map();
    const rows = await q.latestOfTransactions(db, transactionIds);
    return new Map(rows.map((p) => [p.transaction_id, checkoutInfo(p)]));
  }

  /**
   * A player typed a TrxID for his purchase (docs/rules/payments.md#9-send-money-confirmed-by-bkash), and the statement
   * that stored it began its check: after the commit, bKash is asked about it, and the player waits for the answer as
   * long as for a checkout's callback; what bKash has not answered by then goes on in the background, and the
   * reconciliation job asks again if bKash never answers.
   */
  async trxIdGiven(check: sq.BegunCheck): Promise<void> {
    await this.atMost(this.askAboutTrxId(check), this.d.callbackWaitMs ?? 6_000);
  }

  /** bKash's check of these purchases' typed TrxIDs, with bKash's answers (what staff see; the player sees less). */
  async trxIdChecksOf(transactionIds: number[], db: Db = this.d.db): Promise<Map<number, z.input<typeof StaffSendMoneyCheck>>> {
    if (!transactionIds.length) return new Map();
    const rows = await sq.checksOf(db, transactionIds);
    return new Map(
      rows.map((r) => [
        r.transaction_id,
        { trx_id: r.trx_id, state: r.state, reason: r.reason, checks: r.checks, updated_at: r.updated_at, answer: r.answer },
      ]),
    );
  }

  /** Search Transaction for one open check; no answer leaves it open for the job. */
  private async askAboutTrxId(row: sq.BegunCheck): Promise<void> {
    let answer: BkashTransaction | null;
    try {
      answer = await this.d.gateway.searchTransaction(row.trx_id);
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { transaction: row.transaction_id });
      await sq.noteUnanswered(this.d.db, row.transaction_id);
      return;
    }
    await this.settleTrxId(row.transaction_id, row.trx_id, answer);
  }

  /**
   * Ends one check on bKash's answer, exactly once (docs/rules/payments.md#9-send-money-confirmed-by-bkash): under the
   * lottery's lock, then the purchase's, then the check's, and only while the check is open. The purchase is confirmed
   * only while it is still a pending payment carrying that TrxID and its lottery is on sale, and the answer passes
   * judgeSendMoney; a refusal keeps bKash's answer and the reason.
   */
  private async settleTrxId(transactionId: number, trxId: string, bk: BkashTransaction | null): Promise<void> {
    await this.d.db.run(settleTrxIdTx, { transactionId, trxId, bk, receiver: this.d.receiver });
  }

  private warn(err: BkashError, about: Record<string, string | number>): void {
    warnOfBkash(this.d.log, err, about);
  }

  /** Waits for `work` at most `ms`; work that takes longer goes on, and its failure is logged, not thrown. */
  private async atMost(work: Promise<void>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    const logged = work.catch((err: unknown) => this.d.log.error({ err }, 'bKash callback failed'));
    // Tracked with the app's background work, so that closing the app waits for it.
    this.d.defer(() => logged);
    try {
      await Promise.race([logged, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private reply(p: PaymentRow): z.input<typeof CallbackReply> {
    return { transaction_id: p.transaction_id, outcome: OUTCOME[p.state], checkout: checkoutInfo(p) };
  }

  /** Execute after a success callback; when its answer is lost or refused, bKash is asked what became of the payment. */
  private async execute(p: PaymentRow): Promise<void> {
    let answer: BkashPayment;
    try {
      answer = await this.d.gateway.execute(p.payment_id);
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { payment: p.payment_id });
      await this.check(p);
      return;
    }
    await this.settle(p.payment_id, answer);
  }

  /**
   * Asks bKash what became of a payment and settles it when bKash says it ended (Completed, Cancelled, Failed,
   * Expired); one bKash still reports as only begun stays open for the reconciliation job.
   */
  async check(p: PaymentRow): Promise<void> {
    let answer: BkashPayment;
    try {
      answer = await this.d.gateway.status(p.payment_id);
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { payment: p.payment_id });
      await q.noteChecked(this.d.db, p.payment_id, null);
      return;
    }
    if (settledState(answer.transactionStatus) === undefined) {
      await q.noteChecked(this.d.db, p.payment_id, answer.transactionStatus);
      return;
    }
    await this.settle(p.payment_id, answer);
  }

  /**
   * Settles one payment on what bKash said, exactly once (docs/rules/payments.md#4-settling-a-payment): under the
   * lottery's, the purchase's and the payment's locks, and only while the payment is still `created`. Money taken for
   * a purchase that can no longer be confirmed (sales closed, already paid, no longer pending, a different amount or
   * invoice) becomes a refund, made after the commit.
   */
  private async settle(paymentId: string, bk: BkashPayment): Promise<void> {
    const state = settledState(bk.transactionStatus);
    if (state === undefined) return;
    const after = await this.d.db.tx(async (tx) => {
      const known = await q.payment(tx, paymentId);
      if (!known) return null;
      const purchase = await lockPurchaseForPayment(tx, known.transaction_id);
      // A run's lead: its other draws' lotteries and entries too, before the payment's own lock.
      const run = purchase?.tx.slip_id != null ? await lockRunForPayment(tx, Number(purchase.tx.slip_id), purchase.tx.id) : undefined;
      const p = await q.paymentForUpdate(tx, paymentId);
      if (!p || !purchase || p.state !== 'created') return null;
      const { tx: txn, closed } = purchase;
      if (state !== 'completed') {
        await q.settlePayment(tx, paymentId, { state, bkashStatus: bk.transactionStatus, trxId: null, reason: state });
        await endIfUnpaid(tx, txn, paymentId, state, run);
        return { state, refund: null as string | null, txn };
      }
      const reason = refundReason(p, bk, txn, closed, run);
      if (reason === null) {
        await q.settlePayment(tx, paymentId, { state: 'completed', bkashStatus: bk.transactionStatus, trxId: bk.trxID, reason: null });
        await confirmPaidPurchase(tx, txn, bk.trxID as string, paymentId);
        if (run)
          await confirmRun(tx, run, bk.trxID as string, {
            actorId: null,
            action: 'transaction.confirmed_by_bkash',
            proof: { bkash_payment_id: paymentId },
          });
        return { state: 'completed' as const, refund: null, txn };
      }
      await q.settlePayment(tx, paymentId, { state: 'refund_due', bkashStatus: bk.transactionStatus, trxId: bk.trxID, reason });
      await recordAudit(tx, {
        actorId: null,
        action: 'payment.refund_due',
        entity: 'payment',
        entityId: paymentId,
        before: null,
        after: { transaction_id: txn.id, amount: bk.amount, trx_id: bk.trxID, reason },
      });
      // Money for a purchase that is still pending but can never be confirmed (sales closed, a wrong amount) ends it.
      await endIfUnpaid(tx, txn, paymentId, reason, run);
      return { state: 'refund_due' as const, refund: reason, txn };
    });
    if (!after) return;
    if (after.state === 'refund_due') this.d.defer(() => this.refund(paymentId));
  }

  /**
   * Gives back the money of a payment in `refund_due` (docs/rules/payments.md#6-refunds). bKash is first asked whether
   * an earlier try already went through (its answer may have been lost), so that no refund is ever made twice.
   */
  async refund(paymentId: string): Promise<void> {
    const p = await q.payment(this.d.db, paymentId);
    if (!p || p.state !== 'refund_due' || !p.trx_id) return;
    let done: BkashRefund | null;
    try {
      done = await this.d.gateway.refundStatus({ paymentID: p.payment_id, trxID: p.trx_id });
      done ??= await this.d.gateway.refund({
        paymentID: p.payment_id,
        trxID: p.trx_id,
        amount: p.amount,
        reason: `Bhagya ${p.reason ?? 'refund'}`.slice(0, 255),
        sku: `T${p.transaction_id}`,
      });
    } catch (err) {
      if (!(err instanceof BkashError)) throw err;
      this.warn(err, { payment: p.payment_id });
      await q.noteChecked(this.d.db, p.payment_id, null);
      return;
    }
    await this.d.db.tx(async (tx) => {
      const row = await q.markRefunded(tx, p.payment_id, done.refundTrxID);
      if (!row) return;
      await recordAudit(tx, {
        actorId: null,
        action: 'payment.refunded',
        entity: 'payment',
        entityId: p.payment_id,
        before: { state: 'refund_due', trx_id: p.trx_id, amount: p.amount, reason: p.reason },
        after: { state: 'refunded', refund_trx_id: done.refundTrxID, amount: done.amount ?? p.amount },
      });
      // The player's message, sent with the others (docs/rules/messages.md).
      await tellRefund(tx, p.transaction_id, p.payment_id, done.refundTrxID, p.amount);
    });
  }

  /**
   * One run of the reconciliation job (docs/rules/payments.md#5-reconciliation): every payment whose outcome has been
   * open longer than `olderThanSec` is asked about, every refund still due is made. Safe on several instances at once:
   * rows are leased, and a payment is settled only from `created`.
   */
  async reconcile(olderThanSec: number, limit = 50): Promise<number> {
    const rows = await q.leaseOpen(this.d.db, olderThanSec, 120, limit);
    for (const p of rows) {
      if (p.state === 'created') await this.check(p);
      else await this.refund(p.payment_id);
    }
    // TrxIDs players typed that bKash did not answer about (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
    const checks = await sq.leaseOpenChecks(this.d.db, olderThanSec, 120, limit);
    for (const c of checks) await this.askAboutTrxId(c);
    return rows.length + checks.length;
  }
}

/**
 * A payment ended without a ticket: its purchase fails (freeing its numbers) while it is still pending, has no TrxID,
 * and no other payment of it may still bring the money (docs/rules/payments.md#2-the-states-of-a-checkout-payment).
 */
async function endIfUnpaid(tx: Db, txn: PurchaseForPayment['tx'], paymentId: string, reason: string, run?: RunForPayment): Promise<void> {
  if (txn.status === 'pending' && txn.trx_id === null && !(await q.otherLivePayment(tx, txn.id, paymentId))) {
    await failUnpaidPurchase(tx, txn, paymentId, reason);
    // A run's lead: its other entries end with it (docs/rules/games.md#6-consecutive-draws-and-play-slips).
    if (run) await endRun(tx, run, reason);
  }
}

/** Why money taken for this purchase cannot confirm it, or null when it can (docs/rules/payments.md#4-settling-a-payment). */
function refundReason(
  p: PaymentRow,
  bk: BkashPayment,
  txn: PurchaseForPayment['tx'],
  closed: PurchaseForPayment['closed'],
  run?: RunForPayment,
): RefundReason | null {
  if (!bk.trxID) return 'no_trx_id';
  // A run's lead is paid the slip's whole amount (docs/rules/games.md#6-consecutive-draws-and-play-slips).
  const due = run ? Number(run.slip.amount) : txn.amount;
  if (bk.amount === null || bk.amount !== p.amount || p.amount !== due) return 'amount_mismatch';
  if (bk.merchantInvoiceNumber !== null && bk.merchantInvoiceNumber !== String(txn.id)) return 'invoice_mismatch';
  if (txn.status === 'success' || run?.slip.status === 'paid') return 'already_paid';
  // After the close first: a ticket the freeze rejected was pending until then (docs/rules/payments.md#4-settling-a-payment).
  if (closed || run?.closed) return 'sales_closed';
  if (txn.status !== 'pending' || txn.trx_id !== null) return 'not_pending';
  // Every entry of a run, or none.
  if (run && (run.slip.status !== 'pending' || run.siblings.some((e) => e.status !== 'pending'))) return 'not_pending';
  return null;
}

const checkoutInfo = (p: PaymentRow): z.input<typeof CheckoutInfo> => ({
  payment_id: p.payment_id,
  state: p.state,
  trx_id: p.trx_id,
  reason: p.reason,
  refund_trx_id: p.refund_trx_id,
  created_at: p.created_at,
});
