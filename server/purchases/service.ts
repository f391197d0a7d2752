import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import { availability } from '../../shared/availability.ts';
import { normalisePhone } from '../../shared/identifiers.ts';
import { CLAIM_DAYS } from '../../shared/claims/schemas.ts';
import type {
  MyLotteriesReply,
  PlayerTransaction,
  PurchaseBody,
  PurchaseReply,
  StaffTransaction,
  StaffTransactionsQuery,
  StatusBody,
  TransactionStatus,
  TrxIdBody,
} from '../../shared/purchases/schemas.ts';
import type { CheckoutInfo, SendMoneyCheck, StaffSendMoneyCheck } from '../../shared/payments/schemas.ts';
import type { ReconciliationState } from '../../shared/payments/statement-schemas.ts';
import { UNFINISHED_SHOWN, type MyTransactionFilter } from '../../shared/purchases/states.ts';
import { normaliseTicket } from '../../shared/ticket.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { committing, procedure, uniqueViolation, type Db } from '../db/index.ts';
import { throttle, type Limit } from '../http/rate-limit.ts';
import { recordAudit, type AuditAction } from '../audit/record.ts';
import { tellPurchase } from '../messages/outbox.ts';
import { saleState, shareLotteryForPurchase, type SaleState } from '../lotteries/service.ts';
import { frozenRefusal, refuseIfFrozen, saleAndClosed, type ClosedForChanges } from '../lotteries/freeze.ts';
import { checkPlay, trxIdBreakRefusal } from '../play-safe/service.ts';
import type { BegunCheck } from '../payments/service.ts';
import { refuseStaffPlay } from '../play-safe/staff.ts';
import * as q from './queries.ts';
import { pendingProposalOf } from './approval-queries.ts';
import { confirmRestOfRun, endRunAtClose, endRunWithLead, refuseRunChange, type RunAudit } from './runs.ts';
import * as rq from './run-queries.ts';
import { playerJson } from './player-json.ts';
import { LotteryFactsStore } from './lottery-facts.ts';
import type { PlayerTransactionRow, StaffTransactionRow, TransactionRow } from './queries.ts';

/** Purchases and TrxID entries per player (docs/rules/limits.md#1-rate-limits). */
export const PURCHASE_LIMIT: Limit = { max: 10, windowSec: 60 };

export type PurchasesDeps = {
  db: Db;
  /** The bKash account players pay into (configuration BKASH_RECEIVER_NUMBER). */
  bkashReceiverNumber: string;
  /**
   * The newest bKash checkout of each of these purchases that has one (server/payments/service.ts Payments.checkoutsOf),
   * read through `db` (a database transaction's, where the caller is in one).
   */
  checkoutsOf: (transactionIds: number[], db: Db) => Promise<Map<number, z.input<typeof CheckoutInfo>>>;
  /** Where each of these Send Money purchases stands with the statements (server/payments/statement-service.ts). */
  reconciliationOf: (transactionIds: number[], db: Db) => Promise<Map<number, ReconciliationState>>;
  /**
   * bKash's check of each of these purchases' typed TrxID, with bKash's answer (server/payments/service.ts
   * Payments.trxIdChecksOf).
   */
  trxIdChecksOf: (transactionIds: number[], db: Db) => Promise<Map<number, z.input<typeof StaffSendMoneyCheck>>>;
  /**
   * After the commit of a TrxID the player typed, with its check begun: bKash is asked about it, within the player's
   * wait (server/payments/service.ts Payments.trxIdGiven, docs/rules/payments.md#9-send-money-confirmed-by-bkash).
   */
  trxIdGiven: (check: BegunCheck) => Promise<void>;
};

type Player = z.input<typeof PlayerTransaction>;
type Staff = z.input<typeof StaffTransaction>;

/**
 * The staff actions on a transaction's status (docs/rules/lotteries-and-sales.md#8-transaction-states): from → to →
 * the action's name in the audit log. Anything else (success → failed among them: Remove Approval, then Reject) is refused.
 * pending → success is not one person's act: it is answered with the way of two (server/purchases/approvals.ts).
 */
const TRANSITIONS: Record<TransactionStatus, Partial<Record<TransactionStatus, AuditAction>>> = {
  pending: { success: 'transaction.approve', failed: 'transaction.reject' },
  success: { pending: 'transaction.remove_approval' },
  failed: { pending: 'transaction.move_to_pending' },
};

/** Constraint names of migrations 001 and 003, for turning a race into the answer the check before it gives. */
const TICKET_HELD = 'transactions_ticket_held';
const TRX_ID_UNIQUE = 'transactions_trx_id_key';

const staffJson = (
  r: StaffTransactionRow,
  checkout: z.input<typeof CheckoutInfo> | null,
  statement: ReconciliationState | null,
  bkashCheck: z.input<typeof StaffSendMoneyCheck> | null,
): Staff => ({
  id: r.id,
  transaction_type: r.transaction_type,
  amount: r.amount,
  status: r.status,
  payment_method: r.payment_method,
  payment_number: r.payment_number,
  phone: r.payment_number,
  trx_id: r.trx_id,
  ticket: r.ticket,
  nid: r.nid,
  created_at: r.created_at,
  updated_at: r.updated_at,
  user: { id: r.user_id, name: r.u_name, phone: r.u_phone, email: r.u_email, is_active: r.u_is_active },
  lottery: {
    id: r.lottery_id,
    name: r.l_name,
    name_bn: r.l_name_bn,
    end_date: r.l_end_date,
    total_prize: r.l_total_prize,
    is_result_published: r.l_is_result_published,
    ticket_price: r.l_ticket_price,
  },
  checkout,
  run_paid: r.s_amount === null ? null : { draws: Number(r.s_draws), lines: Number(r.s_lines), amount: Number(r.s_amount) },
  statement,
  bkash_check: bkashCheck,
});

/** What the audit log keeps of a transaction before and after a change: enough to check the payment again. */
export const auditSnapshot = (r: TransactionRow) => ({
  status: r.status,
  user_id: r.user_id,
  lottery_id: r.lottery_id,
  ticket: r.ticket,
  amount: r.amount,
  payment_method: r.payment_method,
  payment_number: r.payment_number,
  trx_id: r.trx_id,
});

/** A purchase's transaction or a retry's (Purchases.create): the retry's transaction id, or the purchase made. */
type PurchaseOutcome = { created: true; row: PlayerTransactionRow } | { created: false; id: number };

/**
 * A purchase's transaction (Purchases.create), run where the database is: on the embedded database its statements do
 * not wait for the app's thread between them (docs/decisions/099-writes-run-on-the-database-thread.md).
 */
export const purchaseTx = procedure(
  'purchase',
  async (
    tx,
    { caller, body, key }: { caller: AccessClaims; body: z.output<typeof PurchaseBody>; key: string | null },
  ): Promise<PurchaseOutcome> => {
    const userId = caller.user_id;
    // The reads are sent with the lock, not after its answer: the connection runs them in turn, so they still see
    // what was committed before the lock was granted, and the embedded database gets both (and the BEGIN) in one
    // message, held one round trip less while every other buyer waits (docs/decisions/089-purchase-reads-sent-with-the-lock.md).
    // The lock is shared with the lottery's other purchases: the last ticket is decided by the insert, under its
    // tally's row (docs/decisions/094-purchases-share-the-lottery.md). No share once its sales ended: the reads,
    // by the same clock, then say why it cannot be bought.
    const [shared, sale] = await Promise.all([
      shareLotteryForPurchase(tx, body.lottery_id),
      q.purchaseReads(tx, { lotteryId: body.lottery_id, ticket: body.ticket, userId, key, sid: caller.sid }),
    ]);
    if (!sale) refuse('purchase_lottery_not_found');
    if (sale.key_id != null)
      return {
        created: false,
        id: sameRequest({ id: sale.key_id, lottery_id: sale.key_lottery_id, ticket: sale.key_ticket }, body),
      };
    if (!sale.published) refuse('purchase_lottery_not_found');
    if (!sale.purchasable || !shared) refuse(reasonError(sale));
    if (body.amount !== sale.ticket_price) refuse('amount_mismatch', { vars: { price: sale.ticket_price } });
    // Self-exclusion and spend limits, under the player's lock held to the end of this transaction (docs/rules/play-safe.md#4-every-purchase-path).
    await checkPlay(tx, caller, sale.ticket_price, { read: sale });
    if (sale.held) refuse('ticket_taken');
    if (body.trx_id && (await q.trxIdHolder(tx, body.trx_id))) refuse('trx_id_taken');
    // The last statement, sent with the COMMIT: the tally's row is let go as soon as the insert has run, not a
    // round trip through this worker later (docs/decisions/095-last-statement-with-its-commit.md).
    const row = await q.insertPurchase(committing(tx), {
      user_id: userId,
      lottery_id: body.lottery_id,
      ticket: body.ticket,
      amount: sale.ticket_price,
      payment_method: body.payment_method,
      payment_number: body.payment_number ?? '',
      trx_id: body.trx_id,
      nid: body.nid,
      idempotency_key: key,
    });
    // Its last ticket was bought by a purchase that committed while this one was checked. The insert was the
    // transaction's only write and its last statement, committed with it: nothing of this purchase was kept.
    if (!row) refuse('purchase_sold_out');
    return { created: true, row };
  },
);

/** The id of the first transaction of an idempotency key, if this request is a retry of the one that made it. */
function sameRequest(first: { id: number; lottery_id: number | null; ticket: string | null }, body: z.output<typeof PurchaseBody>): number {
  if (first.lottery_id !== body.lottery_id || first.ticket !== body.ticket) refuse('idempotency_key_reused');
  return first.id;
}

/**
 * A TrxID given for the caller's own pending purchase (Purchases.setTrxId), run where the database is
 * (docs/decisions/099-writes-run-on-the-database-thread.md): null when it already had it, else whether a check of it is
 * open to ask bKash about (begun with it, docs/decisions/103-a-trx-id-check-begun-with-it.md).
 */
export const setTrxIdTx = procedure(
  'set-trx-id',
  async (
    tx,
    { caller, id, body }: { caller: AccessClaims; id: number; body: z.output<typeof TrxIdBody> },
  ): Promise<{ ask: boolean } | null> => {
    // Another player's transaction answers as one that does not exist.
    const cur = await q.lockTransaction(tx, id, 'shared');
    if (!cur || cur.user_id !== caller.user_id) refuse('transaction_not_found');
    if (cur.trx_id === body.trx_id) return null;
    // What the refusals below read, asked at once and answered in one round trip; refused in this order
    // (docs/decisions/090-a-trx-id-reads-sent-together.md).
    const [slip, frozen, onBreak, holder] = await Promise.all([
      cur.slip_id === null ? undefined : rq.slip(tx, Number(cur.slip_id)),
      frozenRefusal(tx, cur.lottery_id),
      trxIdBreakRefusal(tx, caller.user_id),
      q.trxIdHolder(tx, body.trx_id),
    ]);
    // A run is paid whole, by one checkout or one Send Money of its whole amount given on its first entry
    // (docs/rules/games.md#6-consecutive-draws-and-play-slips).
    if (cur.slip_id !== null && Number(slip?.lead_id) !== cur.id) refuse('trx_id_run');
    // docs/rules/lotteries-and-sales.md#8-transaction-states: from the end of sales no ticket of the lottery changes.
    if (frozen) throw frozen;
    if (onBreak) throw onBreak;
    if (cur.status !== 'pending') refuse('trx_id_not_pending');
    if (cur.trx_id !== null) refuse('trx_id_given');
    if (holder) refuse('trx_id_taken');
    // The last statement, sent with the COMMIT (docs/decisions/095-last-statement-with-its-commit.md); it begins bKash's
    // check of the TrxID too, so that a TrxID is never stored without one.
    return { ask: await q.setTrxId(committing(tx), id, body.trx_id, body.payment_number) };
  },
);

/**
 * Buying a ticket and the transactions that follow (docs/rules/lotteries-and-sales.md#7-buying-a-ticket,
 * #8-transaction-states). Bodies arrive parsed by shared/purchases/schemas.ts (ticket canonical, TrxID upper-case).
 */
export class Purchases {
  private readonly d: PurchasesDeps;
  /** The lotteries' part of My Lotteries' cards, kept by version for every player (server/purchases/lottery-facts.ts). */
  private readonly facts = new LotteryFactsStore();
  constructor(d: PurchasesDeps) {
    this.d = d;
  }

  /**
   * A purchase: a pending transaction of the caller for the lottery's own price. With an idempotency key the caller
   * already used, the transaction made then is returned (created: false) and nothing else happens.
   */
  async create(
    caller: AccessClaims,
    body: z.output<typeof PurchaseBody>,
    key: string | null,
  ): Promise<{ created: boolean; reply: z.input<typeof PurchaseReply> }> {
    const userId = caller.user_id;
    // docs/decisions/012-purchases.md: the buyer is the caller; a user_id naming someone else is refused.
    if (body.user_id !== undefined && body.user_id !== userId) refuse('permission_denied');
    refuseStaffPlay(caller);
    await throttle(this.d.db, [[`purchase:user:${userId}`, PURCHASE_LIMIT]]);
    // A new purchase is answered from its insert; a retry, with the transaction its key made (and its checkout).
    let outcome: PurchaseOutcome;
    try {
      outcome = await this.d.db.run(purchaseTx, { caller, body, key });
    } catch (err) {
      const c = uniqueViolation(err);
      if (c === null) throw err;
      // A request that raced another: the same key (a retry sent twice at once) answers as a retry does, whichever
      // index stopped it (the retry's combination is the first request's too, and it may be found held first).
      const first = key ? await q.byIdempotencyKey(this.d.db, userId, key) : undefined;
      if (first) outcome = { created: false, id: sameRequest(first, body) };
      else if (c === TICKET_HELD) refuse('ticket_taken');
      else if (c === TRX_ID_UNIQUE) refuse('trx_id_taken');
      else throw err;
    }
    if (outcome.created && outcome.row.trx_id !== null) {
      // A TrxID typed with the purchase: its check was begun by the insert; bKash is asked, and the answer is the purchase
      // as that left it.
      await this.d.trxIdGiven({ transaction_id: outcome.row.id, trx_id: outcome.row.trx_id });
      return { created: true, reply: await this.purchaseReply(userId, outcome.row.id) };
    }
    // A purchase just made has no checkout yet (one is started for it later): nothing to look up.
    if (outcome.created) return { created: true, reply: this.replyOf(playerJson(outcome.row), null, null) };
    return { created: false, reply: await this.purchaseReply(userId, outcome.id) };
  }

  /** One of the caller's own transactions, with the receiver number and the amount to pay (the payment page). */
  one(caller: AccessClaims, id: number): Promise<z.input<typeof PurchaseReply>> {
    return this.purchaseReply(caller.user_id, id);
  }

  /** The caller's transaction `id` as a purchase's answer, with its newest bKash checkout if one was started. */
  private async purchaseReply(userId: number, id: number): Promise<z.input<typeof PurchaseReply>> {
    const tx = await this.own(userId, id);
    const [checkouts, checks, slip] = await Promise.all([
      this.d.checkoutsOf([id], this.d.db),
      this.d.trxIdChecksOf([id], this.d.db),
      tx.slip_id === null ? Promise.resolve(undefined) : rq.slip(this.d.db, tx.slip_id),
    ]);
    const check = checks.get(id);
    // The player is told where bKash's check stands, not what bKash answered (that is for staff).
    const shown = check
      ? { trx_id: check.trx_id, state: check.state, reason: check.reason, checks: check.checks, updated_at: check.updated_at }
      : null;
    return this.replyOf(tx, checkouts.get(id) ?? null, shown, slip);
  }

  private replyOf(
    tx: Player,
    checkout: z.input<typeof CheckoutInfo> | null,
    bkashCheck: z.input<typeof SendMoneyCheck> | null,
    slip?: rq.SlipRow,
  ): z.input<typeof PurchaseReply> {
    const run = slip
      ? {
          id: Number(slip.id),
          draws: slip.draws,
          draws_asked: slip.draws_asked,
          lines: slip.lines,
          amount: Number(slip.amount),
          status: slip.status,
          lead_id: Number(slip.lead_id),
        }
      : null;
    // A run's lead pays the whole slip (docs/rules/games.md#6-consecutive-draws-and-play-slips).
    const amount = run && run.lead_id === tx.id ? run.amount : tx.amount;
    return { ...tx, bkash_receiver_number: this.d.bkashReceiverNumber, amount_to_pay: amount, checkout, bkash_check: bkashCheck, run };
  }

  private async own(userId: number, id: number): Promise<Player> {
    const row = await q.playerTransaction(this.d.db, userId, id);
    if (!row) refuse('transaction_not_found');
    return playerJson(row);
  }

  /**
   * The TrxID of the caller's own pending purchase, given once: changing one already given is for support (it is
   * what staff check the payment against). Sending the TrxID it already has again changes nothing.
   */
  async setTrxId(caller: AccessClaims, id: number, body: z.output<typeof TrxIdBody>): Promise<Player> {
    refuseStaffPlay(caller);
    await throttle(this.d.db, [[`purchase:user:${caller.user_id}`, PURCHASE_LIMIT]]);
    let given: { ask: boolean } | null;
    try {
      given = await this.d.db.run(setTrxIdTx, { caller, id, body });
    } catch (err) {
      if (uniqueViolation(err) === TRX_ID_UNIQUE) refuse('trx_id_taken');
      throw err;
    }
    if (given?.ask) await this.d.trxIdGiven({ transaction_id: id, trx_id: body.trx_id });
    return this.own(caller.user_id, id);
  }

  /** The caller's own transactions, newest first: all of them, or `only` his tickets or his purchases awaiting payment. */
  async mine(
    caller: AccessClaims,
    limit: number,
    offset: number,
    only: MyTransactionFilter | null | undefined,
  ): Promise<{ items: Player[]; total: number }> {
    const { rows, total } = await q.playerTransactions(this.d.db, caller.user_id, limit, offset, only ?? 'all');
    return { items: rows.map(playerJson), total };
  }

  /**
   * My Lotteries (`GET /api/v1/my-lotteries/`): a page of the caller's tickets with their total, and on the first page
   * his purchases awaiting payment (docs/rules/lotteries-and-sales.md#7-buying-a-ticket, "The pages"), in one statement.
   */
  async myLotteries(caller: AccessClaims, limit: number, offset: number): Promise<z.input<typeof MyLotteriesReply>> {
    const r = await q.playerLotteries(this.d.db, caller.user_id, limit, offset, offset === 0 ? UNFINISHED_SHOWN : 0, this.facts);
    // A run is one item, its lead: the slips' summaries are read only when the page has one.
    const slips = [...new Set([...r.tickets, ...r.unfinished].flatMap((x) => (x.slip_id === null ? [] : [Number(x.slip_id)])))];
    const runs = slips.length ? await rq.runSummaries(this.d.db, caller.user_id, slips, CLAIM_DAYS) : [];
    return {
      tickets: r.tickets.map(playerJson),
      total: r.total,
      unfinished: r.unfinished.map(playerJson),
      runs: runs.map((x) => ({
        id: Number(x.id),
        game_name: x.g_name,
        game_name_bn: x.g_name_bn,
        draws: x.draws,
        lines: x.lines,
        amount: Number(x.amount),
        status: x.status,
        tickets: x.tickets,
        drawn: x.drawn,
        won: Number(x.won),
        to_claim: x.to_claim,
        first_draw_at: x.first_draw_at,
        last_draw_at: x.last_draw_at,
        next_draw_at: x.next_draw_at,
      })),
    };
  }

  /** Staff: every transaction, searched and filtered, newest first. */
  async list(query: z.output<typeof StaffTransactionsQuery>): Promise<{ items: Staff[]; total: number }> {
    const search = query.search;
    const { rows, total } = await q.staffTransactions(
      this.d.db,
      {
        search,
        ticket: search ? normaliseTicket(search) : null,
        phone: search ? normalisePhone(search) : null,
        status: query.status,
        lotteryId: query.lottery_id,
      },
      query.limit,
      query.offset,
    );
    return { items: await this.staffItems(rows, this.d.db), total };
  }

  /** Whether bKash confirmed this purchase: its checkout completed, or its typed TrxID was confirmed by bKash. */
  private async confirmedByBkash(id: number, tx: Db, slipId: number | null = null): Promise<boolean> {
    // An entry of a run paid by its lead's checkout was confirmed on bKash's word with it
    // (docs/rules/games.md#6-consecutive-draws-and-play-slips): its own row has no payment.
    if (slipId !== null && (await rq.slip(tx, slipId))?.status === 'paid') return true;
    const [checkouts, checks] = await Promise.all([this.d.checkoutsOf([id], tx), this.d.trxIdChecksOf([id], tx)]);
    return checkouts.get(id)?.state === 'completed' || checks.get(id)?.state === 'confirmed';
  }

  /** Staff's view of these rows: each with its checkout and its place in the statements. */
  private async staffItems(rows: StaffTransactionRow[], db: Db): Promise<Staff[]> {
    const ids = rows.map((r) => r.id);
    const [checkouts, statements, checks] = await Promise.all([
      this.d.checkoutsOf(ids, db),
      this.d.reconciliationOf(ids, db),
      this.d.trxIdChecksOf(ids, db),
    ]);
    return rows.map((r) => staffJson(r, checkouts.get(r.id) ?? null, statements.get(r.id) ?? null, checks.get(r.id) ?? null));
  }

  /**
   * Staff change a transaction's status (docs/rules/lotteries-and-sales.md#8-transaction-states), audited in the same
   * database transaction. Asking for the status it already has changes nothing and records nothing. Approval needs the
   * TrxID the payment is checked against.
   */
  async setStatus(staff: AccessClaims, id: number, body: z.output<typeof StatusBody>): Promise<Staff> {
    const { status } = body;
    // The specification's back office sends the transaction's id too (docs/rules/api.md#1-conventions).
    if (body.id !== undefined && body.id !== id) refuse('transaction_id_mismatch', { vars: { id } });
    try {
      await this.d.db.tx(async (tx) => {
        const before = await q.lockTransaction(tx, id);
        if (!before) refuse('transaction_not_found');
        if (before.status === status) return;
        // docs/rules/lotteries-and-sales.md#8-transaction-states: from the end of sales no ticket of the lottery changes.
        await refuseIfFrozen(tx, before.lottery_id);
        // An activated generated ticket was paid offline and proved by its secret: it is not a payment staff check.
        if (before.transaction_type === 'activation') refuse('transaction_activation_final');
        // A ticket bKash confirmed was paid, on bKash's word: no one person takes it back (docs/rules/payments.md#1-who-may-do-what).
        if (before.status === 'success' && (await this.confirmedByBkash(id, tx, before.slip_id))) refuse('transaction_confirmed_by_bkash');
        await refuseRunChange(tx, before, status);
        const action = TRANSITIONS[before.status][status];
        // The text names both statuses in the caller's words (api:status.<status>).
        if (!action) refuse('status_change_refused', { vars: { from: before.status, to: status } });
        // Approving a payment by hand is two people's act (docs/rules/payments.md#1-who-may-do-what): proposed, then approved.
        if (action === 'transaction.approve') {
          const open = await pendingProposalOf(tx, id);
          refuse('second_person_needed', { extra: { proposal_id: open ?? null } });
        }
        const sale = await saleState(tx, before.lottery_id);
        if (!sale) refuse('transaction_not_found');
        // After the draw the sales are what the draw saw; only an unpaid (pending) ticket may still be rejected.
        if (sale.is_result_published && action !== 'transaction.reject') refuse('transaction_results_published');
        if (before.status === 'failed') {
          if (await q.holderOf(tx, before.lottery_id, before.ticket)) refuse('combination_taken_meanwhile');
          if (sale.tickets_sold >= sale.total_tickets) refuse('purchase_sold_out');
        }
        const after = await q.setStatus(tx, id, status);
        if (!after) refuse('transaction_not_found');
        await recordAudit(tx, {
          actorId: staff.user_id,
          action,
          entity: 'transaction',
          entityId: String(id),
          before: auditSnapshot(before),
          after: auditSnapshot(after),
        });
        // The player hears of it (docs/rules/messages.md): why a ticket was rejected is whether it named a payment.
        if (action === 'transaction.reject') {
          await tellPurchase(tx, id, { kind: 'ticket_rejected', reason: before.trx_id === null ? 'unpaid' : 'payment_not_found' });
          // A run's lead rejected: the whole run is released.
          await endRunWithLead(tx, before);
        }
      });
    } catch (err) {
      if (uniqueViolation(err) === TICKET_HELD) refuse('combination_taken_meanwhile');
      throw err;
    }
    const row = await q.staffTransaction(this.d.db, id);
    if (!row) refuse('transaction_not_found');
    const [item] = await this.staffItems([row], this.d.db);
    if (!item) refuse('transaction_not_found');
    return item;
  }
}

/**
 * Why a lottery cannot be bought now, in the words the pages use (docs/rules/lotteries-and-sales.md#5-reasons-shown-when-a-lottery-cannot-be-bought): the refusal
 * whose text is the page's `lottery:reason.<why>`.
 */
function reasonError(sale: SaleState): 'purchase_lottery_ended' | 'purchase_sold_out' | 'purchase_not_on_sale' {
  const reason = availability({ ...sale, purchasable: false }, Date.now());
  return reason === 'ended' ? 'purchase_lottery_ended' : reason === 'soldOut' ? 'purchase_sold_out' : 'purchase_not_on_sale';
}

// The checkout (server/payments) ------------------------------------------------------------------------------------

/**
 * A purchase as the bKash checkout sees it: the transaction, locked, and the sale of its lottery at that moment;
 * `closed`: why it can no longer be confirmed (saleAndClosed, docs/rules/lotteries-and-sales.md#8-transaction-states),
 * read under the lock.
 */
export type PurchaseForPayment = { tx: TransactionRow; sale: SaleState; closed?: ClosedForChanges };

/**
 * Locks a purchase for the checkout's change, in the caller's database transaction: the lottery first, then the
 * transaction (the order every purchase and every staff change takes). Undefined when there is no such transaction.
 */
export async function lockPurchaseForPayment(tx: Db, id: number): Promise<PurchaseForPayment | undefined> {
  const row = await q.lockTransaction(tx, id);
  const s = row && (await saleAndClosed(tx, row.lottery_id));
  return row && s ? { tx: row, ...s } : undefined;
}

/**
 * bKash took the money for this pending purchase: it becomes `success` with bKash's TrxID, no staff involved
 * (docs/rules/payments.md#3-paying-with-bkash-checkout). Audited with no actor: the system did it on bKash's word.
 */
export async function confirmPaidPurchase(tx: Db, before: TransactionRow, trxId: string, paymentId: string): Promise<void> {
  await q.setTrxId(tx, before.id, trxId, null);
  await confirmOnBkashWord(tx, before, { bkash_payment_id: paymentId });
}

/**
 * bKash's Search Transaction shows the money of this pending Send Money purchase arrived
 * (docs/rules/payments.md#9-send-money-confirmed-by-bkash): it becomes `success`, its TrxID as the player typed it,
 * audited with no actor and bKash's answer.
 */
export async function confirmSentMoney(tx: Db, before: TransactionRow, bkashAnswer: object): Promise<void> {
  await confirmOnBkashWord(tx, before, { bkash_answer: bkashAnswer });
}

const confirmOnBkashWord = (tx: Db, before: TransactionRow, proof: Record<string, unknown>): Promise<void> =>
  confirmPurchase(tx, before, { actorId: null, action: 'transaction.confirmed_by_bkash', proof });

/**
 * A pending purchase becomes `success`: its status and then its audit record (the purchase before and after, with
 * `proof` beside it), and the player's message, asked together, each waiting only for what it needs
 * (docs/decisions/097-writes-asked-together.md). Every confirmation goes through it: bKash's word, two staff members,
 * the statement.
 */
export async function confirmPurchase(tx: Db, before: TransactionRow, audit: RunAudit): Promise<void> {
  await Promise.all([
    q.setStatus(tx, before.id, 'success').then((after) =>
      recordAudit(tx, {
        actorId: audit.actorId,
        action: audit.action,
        entity: 'transaction',
        entityId: String(before.id),
        before: auditSnapshot(before),
        after: after ? { ...auditSnapshot(after), ...audit.proof } : null,
      }),
    ),
    tellPurchase(tx, before.id, { kind: 'ticket_confirmed' }),
  ]);
}

/** The system (no actor) fails a purchase, audited as `action` with `why` beside the transaction after it. */
async function failBySystem(tx: Db, before: TransactionRow, action: AuditAction, why: Record<string, string>): Promise<void> {
  const after = await q.setStatus(tx, before.id, 'failed');
  await recordAudit(tx, {
    actorId: null,
    action,
    entity: 'transaction',
    entityId: String(before.id),
    before: auditSnapshot(before),
    after: after ? { ...auditSnapshot(after), ...why } : null,
  });
}

/** The checkout of this pending purchase ended without money: it becomes `failed`, which releases its combination. */
export const failUnpaidPurchase = (tx: Db, before: TransactionRow, paymentId: string, reason: string): Promise<void> =>
  failBySystem(tx, before, 'transaction.checkout_failed', { bkash_payment_id: paymentId, reason });

/**
 * The tickets still `pending` when their lottery's tickets froze (docs/rules/lotteries-and-sales.md#8-transaction-states):
 * each becomes `failed`, audited as a rejection with no actor and the reason `sales_closed`, and its player is told
 * why. Called by the freeze (server/draws/freeze.ts) under the lottery's lock; answers the transactions rejected.
 */
export async function rejectPendingAtClose(tx: Db, lotteryId: number): Promise<number[]> {
  const pending = await q.pendingForUpdate(tx, lotteryId);
  for (const before of pending) {
    await failBySystem(tx, before, 'transaction.reject', { reason: 'sales_closed' });
    await tellPurchase(tx, before.id, { kind: 'ticket_rejected', reason: 'sales_closed' });
    // An unpaid run's first draw closed: the run can no longer be paid, and its later draws' entries are released.
    await endRunAtClose(tx, before);
  }
  return pending.map((p) => p.id);
}

/** One of the player's own purchases with its lottery's sale (no lock): what starting a checkout checks. */
export async function purchaseOfPlayer(db: Db, userId: number, id: number): Promise<PurchaseForPayment | undefined> {
  const row = await q.transactionById(db, id);
  if (!row || row.user_id !== userId) return undefined;
  const sale = await saleState(db, row.lottery_id);
  return sale ? { tx: row, sale } : undefined;
}

// The bKash statement (server/payments/statement-service.ts) ---------------------------------------------------------

/** Why a statement could not approve a purchase (docs/rules/payments.md#84-confirming-or-discarding-an-upload). */
export type StatementApproval =
  | { ok: true }
  | { ok: false; reason: 'not_found' | 'changed_meanwhile' | 'own_purchase' }
  | { ok: false; reason: ClosedForChanges['code']; closed: ClosedForChanges };

/**
 * A row of an uploaded bKash statement (or a staff member's resolution of one) approves this pending Send Money
 * purchase, in the caller's database transaction, when a second staff member (`staffId`) confirms what the first
 * (`proposedBy`: the uploader, or the one who proposed the resolution) put forward: the lottery is locked, then the
 * purchase (as setStatus does); it must still be a pending payment carrying this TrxID, neither staff member's own,
 * its lottery still on sale. Audited `transaction.approve` with the confirmer as actor, the first staff member and the
 * statement in `after` (docs/rules/payments.md#84-confirming-or-discarding-an-upload).
 */
export async function approveFromStatement(
  tx: Db,
  a: { transactionId: number; trxId: string; staffId: number; proposedBy: number; statementId: number; line: number; note?: string },
): Promise<StatementApproval> {
  const locked = await lockPurchaseForPayment(tx, a.transactionId);
  if (!locked) return { ok: false, reason: 'not_found' };
  // docs/rules/lotteries-and-sales.md#8-transaction-states: from the end of sales no ticket of the lottery changes.
  const { tx: before, closed } = locked;
  if (closed) return { ok: false, reason: closed.code, closed };
  if (before.status !== 'pending' || before.transaction_type !== 'payment' || before.trx_id !== a.trxId)
    return { ok: false, reason: 'changed_meanwhile' };
  // Staff never approve their own payment (docs/rules/payments.md#86-resolving-a-row).
  if (before.user_id === a.staffId || before.user_id === a.proposedBy) return { ok: false, reason: 'own_purchase' };
  await confirmPurchase(tx, before, {
    actorId: a.staffId,
    action: 'transaction.approve',
    proof: {
      statement_id: a.statementId,
      statement_line: a.line,
      proposed_by: a.proposedBy,
      confirmed_by: a.staffId,
      ...(a.note !== undefined ? { note: a.note } : {}),
    },
  });
  // A run's lead: its other entries with it (docs/rules/games.md#6-consecutive-draws-and-play-slips).
  await confirmRestOfRun(tx, before, a.trxId, {
    actorId: a.staffId,
    action: 'transaction.approve',
    proof: { statement_id: a.statementId, statement_line: a.line, proposed_by: a.proposedBy },
  });
  return { ok: true };
}
