/**
 * Our client of bKash's Tokenized Checkout API v1.2.0-beta (docs/rules/bkash.md): plain undici, answers parsed with
 * zod (wire.ts), a timeout on every call, one token per instance (the token, the exchange and the repeats are
 * transport.ts's, shared with the payouts' client, payouts.ts). The same code talks to bKash (sandbox, live) and to
 * our simulator (simulator.ts); only the base URL differs.
 *
 * Errors (docs/rules/bkash.md#5-what-the-client-reports):
 *   'refused' — bKash answered with a statusCode other than "0000": nothing was done;
 *   'unknown' — no usable answer (timeout, connection lost, HTTP 5xx or another status without a bKash answer, a body
 *               that does not parse): for execute and refund the outcome is NOT known and must be asked again later
 *               (status, refundStatus). The client never repeats execute or refund itself.
 * No secret (app secret, password, token) is ever put in an error message; the client logs nothing.
 */
import type { z } from 'zod';
import { BkashTransport, unlessRefused, type BkashClientOptions } from './transport.ts';
import {
  AgreementAnswer,
  AgreementCreateAnswer,
  amountText,
  CODES,
  CreateAnswer,
  ExecuteAnswer,
  GrantAnswer,
  MODES,
  NO_REFUND_CODE,
  NOT_FOUND_CODE,
  PATHS,
  RefundAnswer,
  SearchAnswer,
  StatusAnswer,
  bkashTimeToIso,
  wholeTaka,
} from './wire.ts';

// The app imports these from here; they are transport.ts's, which both our bKash clients share.
export { BkashError, type BkashClientOptions, type BkashCredentials, type BkashOperation } from './transport.ts';

/** What bKash says about a payment (execute and status answers, normalised). */
export type BkashPayment = {
  paymentID: string;
  /** "Initiated" | "Completed" | "Cancelled" | "Failed" | "Expired", or another status as bKash sent it. */
  transactionStatus: string;
  trxID: string | null;
  /** Whole taka when bKash's string is a whole number ("100" or "100.00"), else null. */
  amount: number | null;
  /** `merchantInvoiceNumber` (execute) or `merchantInvoice` (status). */
  merchantInvoiceNumber: string | null;
  payerReference: string | null;
  customerMsisdn: string | null;
};

/** An agreement (docs/rules/bkash.md#7-agreements): its ID, its state ("Completed": in force, "Cancelled"), its wallet. */
export type BkashAgreement = {
  agreementID: string;
  agreementStatus: string;
  customerMsisdn: string | null;
  payerReference: string | null;
};

export type BkashRefund = { refundTrxID: string; originalTrxID: string; amount: number | null; transactionStatus: string };

/**
 * A transaction of the merchant's wallet as Search Transaction reports it (docs/rules/bkash.md#1-the-calls), normalised:
 * empty fields null, the amount whole taka or null, times UTC ISO 8601 or null.
 */
export type BkashTransaction = {
  trxID: string;
  /** "Completed", or another status as bKash sent it. */
  transactionStatus: string;
  /** "Send Money", "Payment", … as bKash sent it. */
  transactionType: string | null;
  amount: number | null;
  currency: string | null;
  /** The wallet the money came from. */
  customerMsisdn: string | null;
  /** The wallet it went to (`organizationShortCode`). */
  receiver: string | null;
  /** The reference the sender typed. */
  transactionReference: string | null;
  completedTime: string | null;
  initiationTime: string | null;
};

export class BkashClient extends BkashTransport {
  constructor(opts: BkashClientOptions) {
    super(opts, { op: 'grant', path: PATHS.grant, schema: GrantAnswer });
  }

  /**
   * Creates a payment for the player to pay on `bkashURL`: with his wallet, code and PIN, or, with an `agreementID`
   * (mode 0001), with the agreement's wallet and his PIN only.
   */
  async create(p: {
    amount: number;
    payerReference: string;
    callbackURL: string;
    merchantInvoiceNumber: string;
    agreementID?: string | undefined;
  }): Promise<{ paymentID: string; bkashURL: string }> {
    const body = {
      mode: p.agreementID === undefined ? MODES.payment : MODES.agreementPayment,
      payerReference: p.payerReference,
      callbackURL: p.callbackURL,
      amount: amountText(p.amount),
      currency: 'BDT',
      intent: 'sale',
      merchantInvoiceNumber: p.merchantInvoiceNumber,
      ...(p.agreementID === undefined ? {} : { agreementID: p.agreementID }),
    };
    const a = await this.call('create', PATHS.create, body, CreateAnswer);
    return { paymentID: a.paymentID, bkashURL: a.bkashURL };
  }

  /** Creates an agreement (mode 0000) for the player to approve on `bkashURL` with his wallet, code and PIN. */
  async createAgreement(p: { payerReference: string; callbackURL: string }): Promise<{ paymentID: string; bkashURL: string }> {
    const body = { mode: MODES.agreement, payerReference: p.payerReference, callbackURL: p.callbackURL };
    const a = await this.call('createAgreement', PATHS.create, body, AgreementCreateAnswer);
    return { paymentID: a.paymentID, bkashURL: a.bkashURL };
  }

  /** Makes the agreement the player approved (its creation's paymentID). Never repeated. */
  async executeAgreement(paymentID: string): Promise<BkashAgreement> {
    return agreement(await this.call('executeAgreement', PATHS.execute, { paymentID }, AgreementAnswer));
  }

  /** An agreement's state now. */
  async agreementStatus(agreementID: string): Promise<BkashAgreement> {
    return agreement(await this.call('agreementStatus', PATHS.agreementStatus, { agreementID }, AgreementAnswer));
  }

  /** Ends an agreement; one bKash says was already cancelled (2053) is answered as cancelled. */
  async cancelAgreement(agreementID: string): Promise<BkashAgreement> {
    const cancelled: BkashAgreement = { agreementID, agreementStatus: 'Cancelled', customerMsisdn: null, payerReference: null };
    const a = await unlessRefused(
      this.call('agreementCancel', PATHS.agreementCancel, { agreementID }, AgreementAnswer),
      CODES.agreementCancelled.statusCode,
      null,
    );
    return a === null ? cancelled : agreement(a);
  }

  /** Takes the money of a payment the player confirmed. Never repeated: without an answer, ask `status` later. */
  async execute(paymentID: string): Promise<BkashPayment> {
    const a = await this.call('execute', PATHS.execute, { paymentID }, ExecuteAnswer);
    return payment({ ...a, merchantInvoiceNumber: a.merchantInvoiceNumber ?? null });
  }

  /** What became of a payment. */
  async status(paymentID: string): Promise<BkashPayment> {
    const a = await this.call('status', PATHS.status, { paymentID }, StatusAnswer);
    return payment({ ...a, merchantInvoiceNumber: a.merchantInvoice ?? null });
  }

  /** Gives back (part of) a completed payment. Never repeated: without an answer, ask `refundStatus` later. */
  async refund(p: { paymentID: string; trxID: string; amount: number; reason: string; sku: string }): Promise<BkashRefund> {
    const body = { paymentID: p.paymentID, amount: amountText(p.amount), trxID: p.trxID, sku: p.sku, reason: p.reason };
    return refund(await this.call('refund', PATHS.refund, body, RefundAnswer));
  }

  /** The refund of a payment, if one was made (null: none). */
  async refundStatus(p: { paymentID: string; trxID: string }): Promise<BkashRefund | null> {
    const a = await unlessRefused(
      this.call('refundStatus', PATHS.refund, { paymentID: p.paymentID, trxID: p.trxID }, RefundAnswer),
      NO_REFUND_CODE,
      null,
    );
    return a === null ? null : refund(a);
  }

  /**
   * A transaction of the merchant's wallet by its TrxID (null: bKash knows none, `2033`). Only asks: safe to repeat.
   */
  async searchTransaction(trxID: string): Promise<BkashTransaction | null> {
    const a = await unlessRefused(this.call('searchTransaction', PATHS.searchTransaction, { trxID }, SearchAnswer), NOT_FOUND_CODE, null);
    return a === null ? null : bkashTransaction(a);
  }
}

type PaymentAnswer = {
  paymentID: string;
  transactionStatus: string;
  trxID?: string | null;
  amount?: string | null;
  merchantInvoiceNumber: string | null;
  payerReference?: string | null;
  customerMsisdn?: string | null;
};

function payment(a: PaymentAnswer): BkashPayment {
  return {
    paymentID: a.paymentID,
    transactionStatus: a.transactionStatus,
    trxID: a.trxID || null,
    amount: a.amount == null ? null : wholeTaka(a.amount),
    merchantInvoiceNumber: a.merchantInvoiceNumber || null,
    payerReference: a.payerReference || null,
    customerMsisdn: a.customerMsisdn || null,
  };
}

function agreement(a: z.output<typeof AgreementAnswer>): BkashAgreement {
  return {
    agreementID: a.agreementID,
    agreementStatus: a.agreementStatus,
    customerMsisdn: a.customerMsisdn || null,
    payerReference: a.payerReference || null,
  };
}

function refund(a: z.output<typeof RefundAnswer>): BkashRefund {
  return {
    refundTrxID: a.refundTrxID,
    originalTrxID: a.originalTrxID,
    amount: a.amount == null ? null : wholeTaka(a.amount),
    transactionStatus: a.transactionStatus,
  };
}

/** Search Transaction's answer, normalised (the payouts' search answers the same: payouts.ts). */
export function bkashTransaction(a: z.output<typeof SearchAnswer>): BkashTransaction {
  return {
    trxID: a.trxID,
    transactionStatus: a.transactionStatus,
    transactionType: a.transactionType || null,
    amount: a.amount == null || a.amount === '' ? null : wholeTaka(a.amount),
    currency: a.currency || null,
    customerMsisdn: a.customerMsisdn || null,
    receiver: a.organizationShortCode || null,
    transactionReference: a.transactionReference || null,
    completedTime: bkashTimeToIso(a.completedTime),
    initiationTime: bkashTimeToIso(a.initiationTime),
  };
}
