/**
 * Our client of bKash's B2C payouts (docs/rules/bkash.md#9-payouts-b2c): the Checkout (URL-based) API v1.2.0-beta, on
 * a host of its own (https://checkout.sandbox.bka.sh/v1.2.0-beta, https://checkout.pay.bka.sh/v1.2.0-beta) with a
 * grant and credentials of its own. The token, the timeout, the repeats and the errors are those of the checkout's
 * client (transport.ts): a payout or a transfer without an answer is an 'unknown' BkashError and is never repeated
 * here, since the one answer lost may be the one that paid; the balance and the search are repeated.
 *
 * bKash publishes no query of a payout by our invoice number: a payout whose answer was lost is not asked about by it,
 * nor made again (docs/rules/payments.md).
 */
import { bkashTransaction, type BkashTransaction } from './client.ts';
import { BkashTransport, unlessRefused, type BkashClientOptions } from './transport.ts';
import {
  ACCOUNT_TYPES,
  amountText,
  B2cPaymentAnswer,
  bkashTimeToIso,
  IntraAccountTransferAnswer,
  NOT_FOUND_CODE,
  OrganizationBalanceAnswer,
  paisa,
  PAYOUT_PATHS,
  PayoutGrantAnswer,
  SearchAnswer,
  wholeTaka,
  type TransferType,
} from './wire.ts';

/** A payout as bKash answered it, normalised: empty fields null, the amount whole taka or null, the time UTC ISO 8601. */
export type BkashPayout = {
  trxID: string;
  /** "Completed", or another status as bKash sent it. */
  transactionStatus: string;
  /** Whole taka, or null when bKash's amount is no whole number. */
  amount: number | null;
  receiverMSISDN: string | null;
  merchantInvoiceNumber: string | null;
  /** The fee bKash charged, as bKash wrote it ("0.00"). */
  b2cFee: string | null;
  completedTime: string | null;
};

/** One of the organisation's accounts: its type as bKash names it, its balances in paisa (null: no amount). */
export type BkashBalanceAccount = {
  /** "Disbursement Account", "Collection Account", … as bKash sent it. */
  type: string;
  availablePaisa: number | null;
  currentPaisa: number | null;
  currency: string | null;
  status: string | null;
  updatedAt: string | null;
};

export type BkashBalance = {
  accounts: BkashBalanceAccount[];
  /** The Disbursement Account's available balance in paisa (what payouts are paid from), null when bKash named none. */
  disbursementPaisa: number | null;
  /** The Collection Account's (what checkout payments are paid into), likewise. */
  collectionPaisa: number | null;
};

export class BkashPayouts extends BkashTransport {
  /** `opts`: the Checkout host's base URL and the payout product's credentials (not the tokenized checkout's). */
  constructor(opts: BkashClientOptions) {
    super(opts, { op: 'payoutGrant', path: PAYOUT_PATHS.grant, schema: PayoutGrantAnswer });
  }

  /**
   * Pays `amount` whole taka from the Disbursement Account to a wallet. Never repeated: without an answer it throws an
   * 'unknown' BkashError, and the payout may have been made.
   */
  async b2cPayment(p: { amount: number; receiverMSISDN: string; merchantInvoiceNumber: string }): Promise<BkashPayout> {
    const body = {
      amount: amountText(p.amount),
      currency: 'BDT',
      merchantInvoiceNumber: p.merchantInvoiceNumber,
      receiverMSISDN: p.receiverMSISDN,
    };
    const a = await this.call('b2cPayment', PAYOUT_PATHS.b2cPayment, body, B2cPaymentAnswer);
    return {
      trxID: a.trxID,
      transactionStatus: a.transactionStatus,
      amount: a.amount == null ? null : wholeTaka(a.amount),
      receiverMSISDN: a.receiverMSISDN || null,
      merchantInvoiceNumber: a.merchantInvoiceNumber || null,
      b2cFee: a.b2cFee || null,
      completedTime: bkashTimeToIso(a.completedTime),
    };
  }

  /** The organisation's accounts and their balances now. Only asks: safe to repeat. */
  async organizationBalance(): Promise<BkashBalance> {
    const a = await this.call('organizationBalance', PAYOUT_PATHS.organizationBalance, null, OrganizationBalanceAnswer);
    const accounts = a.organizationBalance.map((x): BkashBalanceAccount => ({
      type: x.accountTypeName,
      availablePaisa: x.availableBalance == null ? null : paisa(x.availableBalance),
      currentPaisa: x.currentBalance == null ? null : paisa(x.currentBalance),
      currency: x.currency || null,
      status: x.accountStatus || null,
      updatedAt: bkashTimeToIso(x.updateTime),
    }));
    const available = (type: string) => accounts.find((x) => x.type.trim().toLowerCase() === type.toLowerCase())?.availablePaisa ?? null;
    return {
      accounts,
      disbursementPaisa: available(ACCOUNT_TYPES.disbursement),
      collectionPaisa: available(ACCOUNT_TYPES.collection),
    };
  }

  /** A transaction of the organisation (a payout among them) by its TrxID (null: bKash knows none, `2033`). Safe to repeat. */
  async searchTransaction(trxID: string): Promise<BkashTransaction | null> {
    if (!trxID) throw new RangeError('a bKash TrxID is not empty');
    const path = `${PAYOUT_PATHS.search}/${encodeURIComponent(trxID)}`;
    const a = await unlessRefused(this.call('payoutSearch', path, null, SearchAnswer), NOT_FOUND_CODE, null);
    return a === null ? null : bkashTransaction(a);
  }

  /**
   * Moves `amount` whole taka between the organisation's Collection and Disbursement accounts. Never repeated: without
   * an answer it throws an 'unknown' BkashError, and the money may have moved (organizationBalance tells).
   */
  async intraAccountTransfer(p: {
    amount: number;
    transferType: TransferType;
  }): Promise<{ trxID: string; transactionStatus: string; amount: number | null }> {
    const body = { amount: amountText(p.amount), currency: 'BDT', transferType: p.transferType };
    const a = await this.call('intraAccountTransfer', PAYOUT_PATHS.intraAccountTransfer, body, IntraAccountTransferAnswer);
    return { trxID: a.trxID, transactionStatus: a.transactionStatus, amount: a.amount == null ? null : wholeTaka(a.amount) };
  }
}
