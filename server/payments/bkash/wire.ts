/**
 * bKash Tokenized Checkout v1.2.0-beta on the wire (docs/rules/bkash.md), and the B2C payout of its Checkout (URL-based)
 * API v1.2.0-beta (docs/rules/bkash.md#9-payouts-b2c): the paths, the bodies we send, the answers we accept, and bKash's
 * status codes. Shared by our client (client.ts) and our simulator (scripts/bkash-simulator/), so that both
 * speak the same format. Amounts travel as strings ("100", "100.00"); our own amounts are whole taka.
 */
import { z } from 'zod';
import { parseWholeTaka } from '../../../shared/money.ts';

export const API_VERSION = '1.2.0-beta';

/** The paths under the base URL (e.g. https://tokenized.sandbox.bka.sh/v1.2.0-beta). */
export const PATHS = {
  grant: '/tokenized/checkout/token/grant',
  create: '/tokenized/checkout/create',
  execute: '/tokenized/checkout/execute',
  status: '/tokenized/checkout/payment/status',
  refund: '/tokenized/checkout/payment/refund',
  searchTransaction: '/tokenized/checkout/general/searchTransaction',
  /** An agreement's state, and its cancellation (docs/rules/bkash.md#7-agreements). */
  agreementStatus: '/tokenized/checkout/agreement/status',
  agreementCancel: '/tokenized/checkout/agreement/cancel',
} as const;

/**
 * The payout (B2C) paths, under the Checkout API's own base URL (e.g. https://checkout.sandbox.bka.sh/v1.2.0-beta),
 * with a token of their own (docs/rules/bkash.md#9-payouts-b2c). `search` is followed by `/<trxID>`; the balance and
 * the search are GETs, the rest POSTs.
 */
export const PAYOUT_PATHS = {
  grant: '/checkout/token/grant',
  b2cPayment: '/checkout/payment/b2cPayment',
  organizationBalance: '/checkout/payment/organizationBalance',
  intraAccountTransfer: '/checkout/payment/intraAccountTransfer',
  search: '/checkout/payment/search',
} as const;

/** The two ways money moves between the organisation's accounts (intraAccountTransfer's `transferType`). */
export const TRANSFER_TYPES = ['Collection2Disbursement', 'Disbursement2Collection'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];
/** The organisation's accounts as organizationBalance names them: payouts are paid from the Disbursement Account. */
export const ACCOUNT_TYPES = { disbursement: 'Disbursement Account', collection: 'Collection Account' } as const;

/**
 * The `mode` of a create (docs/rules/bkash.md#7-agreements): a payment without an agreement (what the checkout always
 * did), an agreement's creation (the player approves it once with his code and PIN), a payment with an agreement (his
 * PIN only).
 */
export const MODES = { payment: '0011', agreement: '0000', agreementPayment: '0001' } as const;

/** statusCode of a successful answer. */
export const OK = '0000';

/** The bKash status codes we send (simulator) or act on (client); docs/rules/bkash.md#4-status-codes. */
export const CODES = {
  invalidAppKey: { statusCode: '2001', statusMessage: 'Invalid App Key' },
  invalidPaymentId: { statusCode: '2002', statusMessage: 'Invalid Payment ID' },
  processFailed: { statusCode: '2003', statusMessage: 'Process failed' },
  invalidAmount: { statusCode: '2006', statusMessage: 'Invalid amount' },
  invalidCurrency: { statusCode: '2007', statusMessage: 'Invalid currency' },
  invalidIntent: { statusCode: '2008', statusMessage: 'Invalid intent' },
  wrongPinLimit: { statusCode: '2015', statusMessage: 'Wrong PIN count exceeded' },
  wrongCodeLimit: { statusCode: '2017', statusMessage: 'Wrong verification limit exceeded' },
  insufficientBalance: { statusCode: '2023', statusMessage: 'Insufficient Balance' },
  invalidBody: { statusCode: '2025', statusMessage: 'Invalid request body' },
  refundTooLarge: { statusCode: '2026', statusMessage: 'The reversal amount cannot be greater than the original transaction amount' },
  transactionNotFound: { statusCode: '2033', statusMessage: 'Transaction not found' },
  alreadyRefunded: {
    statusCode: '2034',
    statusMessage: 'The transaction cannot be reversed because the original transaction has been reversed',
  },
  wrongCredentials: { statusCode: '2043', statusMessage: 'The security credential of the subscriber is incorrect.' },
  invalidPayerReference: { statusCode: '2048', statusMessage: 'Invalid Payer Reference' },
  invalidCallbackUrl: { statusCode: '2049', statusMessage: 'Invalid Merchant Callback URL' },
  agreementExists: { statusCode: '2050', statusMessage: 'Agreement already exists between payer and merchant' },
  invalidAgreementId: { statusCode: '2051', statusMessage: 'Invalid Agreement ID' },
  agreementCancelled: { statusCode: '2053', statusMessage: 'Agreement has already been cancelled' },
  invalidPaymentState: { statusCode: '2056', statusMessage: 'Invalid Payment State' },
  alreadyCompleted: { statusCode: '2062', statusMessage: 'The payment has already been completed' },
  invalidMode: { statusCode: '2063', statusMessage: 'Mode is not valid as per request data' },
  missingField: { statusCode: '2065', statusMessage: 'Mendatory field missing' },
  // Payouts (B2C, docs/rules/bkash.md#9-payouts-b2c).
  invalidReceiver: { statusCode: '2012', statusMessage: 'Invalid Receiver MSISDN' },
  duplicate: { statusCode: '2029', statusMessage: 'Duplicate for all transactions' },
  invalidTransferType: { statusCode: '2032', statusMessage: 'Invalid transfer type' },
  receiverBlocked: {
    statusCode: '2039',
    statusMessage: 'The account of the credit party is in a state which prohibits execution of this transaction',
  },
  unknownWallet: { statusCode: '2045', statusMessage: 'The MSISDN of the customer does not exist' },
  notBkashWallet: { statusCode: '2057', statusMessage: 'Not a bKash Wallet' },
  limitExceeded: { statusCode: '2074', statusMessage: 'Exceeds the maximum limit of the transaction' },
} as const satisfies Record<string, { statusCode: string; statusMessage: string }>;

/**
 * The refund-status answer for a payment that has no refund (docs/rules/bkash.md#3-refunds): the client reads it as
 * "no refund made" (null), not as an error.
 */
export const NO_REFUND_CODE = CODES.transactionNotFound.statusCode;
/** Search Transaction's answer for a TrxID bKash does not know (or not of the merchant's wallet): the client's null. */
export const NOT_FOUND_CODE = CODES.transactionNotFound.statusCode;

/**
 * An amount as bKash writes it → whole taka, exactly (no floating point): "100" and "100.00" → 100; "100.5", "-1",
 * "1e3", "" → null. A JSON number is read the same way (100 → 100, 100.5 → null).
 */
export function wholeTaka(amount: string | number): number | null {
  if (typeof amount === 'string' && !/^\s*\d+(\.\d+)?\s*$/.test(amount)) return null;
  const v = parseWholeTaka(amount);
  return v !== null && v >= 0 ? v : null;
}

/**
 * An amount as bKash writes it → paisa, exactly (no floating point), for balances, which need not be whole taka:
 * "1000.50" → 100050, "1000" → 100000, "0.5" → 50; "1.505", "-1", "1e3", "1,000", "" → null. A JSON number is read
 * as it prints (1000.5 → 100050, 0.1 + 0.2 → null); beyond Number.MAX_SAFE_INTEGER paisa → null.
 */
export function paisa(amount: string | number): number | null {
  if (typeof amount === 'number' && !Number.isFinite(amount)) return null;
  const m = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(String(amount));
  if (!m) return null;
  // Exact while it is a safe integer: a whole part too large for that makes the product unsafe too.
  const v = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(v) ? v : null;
}

/** Our whole-taka amount as we send it: "100". Throws RangeError unless a positive safe integer. */
export function amountText(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('a bKash amount is a positive whole number of taka');
  return String(amount);
}

// ---- requests -------------------------------------------------------------------------------------------------------

export const GrantRequest = z.object({ app_key: z.string(), app_secret: z.string() });

/**
 * A create: a payment (`0011`, or `0001` with `agreementID`) has every field; an agreement's creation (`0000`) only
 * `mode`, `payerReference` and `callbackURL`.
 */
export const CreateRequest = z.object({
  mode: z.string(),
  payerReference: z.string(),
  callbackURL: z.string(),
  amount: z.string().optional(),
  currency: z.string().optional(),
  intent: z.string().optional(),
  merchantInvoiceNumber: z.string().optional(),
  agreementID: z.string().optional(),
});

/** An agreement's status, and its cancellation. */
export const AgreementIdRequest = z.object({ agreementID: z.string() });

export const PaymentIdRequest = z.object({ paymentID: z.string() });

/** Search Transaction: one transaction of the merchant's wallet by its TrxID (docs/rules/bkash.md#1-the-calls). */
export const SearchRequest = z.object({ trxID: z.string() });

/** A refund: all five fields; the refund's status: paymentID and trxID only. */
export const RefundRequest = z.object({
  paymentID: z.string(),
  trxID: z.string(),
  amount: z.string().optional(),
  sku: z.string().optional(),
  reason: z.string().optional(),
});

/** A payout to a wallet (B2C): the amount as we send it ("500"), `BDT`, our invoice, the wallet (01…). */
export const B2cPaymentRequest = z.object({
  amount: z.string(),
  currency: z.string(),
  merchantInvoiceNumber: z.string(),
  receiverMSISDN: z.string(),
});

/** Money between the organisation's Collection and Disbursement accounts; `transferType` says which way. */
export const IntraAccountTransferRequest = z.object({ amount: z.string(), currency: z.string(), transferType: z.string() });

// ---- answers --------------------------------------------------------------------------------------------------------

/** Any answer's status, as far as it has one: statusCode/statusMessage (and errorCode/errorMessage of older APIs). */
export const AnswerStatus = z.object({
  statusCode: z.string().optional(),
  statusMessage: z.string().optional(),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
});

/** An amount field: a string as bKash sends it (a number is taken too, and written as a string). */
const Amount = z.union([z.string(), z.number()]).transform(String);
const optionalText = z.string().nullish();
/** The status of an answer that may leave it out on success: the refund's, and every answer of the Checkout API. */
const optionalOk = { statusCode: z.literal(OK).optional(), statusMessage: z.string().optional() };

export const GrantAnswer = z.object({
  statusCode: z.literal(OK),
  statusMessage: z.string(),
  id_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.coerce.number().int().positive(),
  refresh_token: z.string(),
});

export const CreateAnswer = z.object({
  statusCode: z.literal(OK),
  statusMessage: z.string(),
  paymentID: z.string().min(1),
  bkashURL: z.string().min(1),
  callbackURL: z.string(),
  successCallbackURL: z.string(),
  failureCallbackURL: z.string(),
  cancelledCallbackURL: z.string(),
  amount: Amount,
  intent: z.string(),
  currency: z.string(),
  paymentCreateTime: z.string(),
  transactionStatus: z.string(),
  merchantInvoiceNumber: z.string(),
});

/** The creation of an agreement (`0000`): the page where the player approves it. */
export const AgreementCreateAnswer = z.object({
  statusCode: z.literal(OK),
  statusMessage: z.string(),
  paymentID: z.string().min(1),
  bkashURL: z.string().min(1),
  callbackURL: optionalText,
  payerReference: optionalText,
  agreementStatus: z.string().min(1),
  agreementCreateTime: optionalText,
});

/**
 * An agreement as execute (of its creation's paymentID), status and cancel answer it: its ID, its state (`Completed`:
 * in force; `Cancelled`), and the wallet it pays from.
 */
export const AgreementAnswer = z.object({
  statusCode: z.literal(OK),
  statusMessage: z.string(),
  agreementID: z.string().min(1),
  agreementStatus: z.string().min(1),
  paymentID: optionalText,
  payerReference: optionalText,
  customerMsisdn: optionalText,
  agreementCreateTime: optionalText,
  agreementExecuteTime: optionalText,
  agreementVoidTime: optionalText,
});

export const ExecuteAnswer = z.object({
  statusCode: z.literal(OK),
  statusMessage: z.string(),
  paymentID: z.string().min(1),
  payerReference: optionalText,
  customerMsisdn: optionalText,
  trxID: optionalText,
  amount: Amount.nullish(),
  transactionStatus: z.string().min(1),
  paymentExecuteTime: optionalText,
  currency: optionalText,
  intent: optionalText,
  merchantInvoiceNumber: optionalText,
});

export const StatusAnswer = z.object({
  statusCode: z.literal(OK),
  statusMessage: z.string(),
  paymentID: z.string().min(1),
  mode: optionalText,
  paymentCreateTime: optionalText,
  paymentExecuteTime: optionalText,
  amount: Amount.nullish(),
  currency: optionalText,
  intent: optionalText,
  merchantInvoice: optionalText,
  trxID: optionalText,
  transactionStatus: z.string().min(1),
  verificationStatus: optionalText,
  payerReference: optionalText,
  customerMsisdn: optionalText,
});

/** A refund, and the refund's status: statusCode may be absent on success. */
export const RefundAnswer = z.object({
  ...optionalOk,
  completedTime: optionalText,
  transactionStatus: z.string().min(1),
  originalTrxID: z.string().min(1),
  refundTrxID: z.string().min(1),
  amount: Amount.nullish(),
  currency: optionalText,
  charge: Amount.nullish(),
});

/**
 * Search Transaction's answer: a transaction of the merchant's wallet (a Send Money or Payment to it, a checkout's
 * payment). Every field but the TrxID and its status may be missing or empty.
 */
export const SearchAnswer = z.object({
  ...optionalOk,
  trxID: z.string().min(1),
  transactionStatus: z.string().min(1),
  transactionType: optionalText,
  amount: Amount.nullish(),
  currency: optionalText,
  customerMsisdn: optionalText,
  organizationShortCode: optionalText,
  transactionReference: optionalText,
  completedTime: optionalText,
  initiationTime: optionalText,
});

/**
 * The Checkout API's grant (payouts): the same fields as the tokenized grant's, but it may answer without statusCode.
 */
export const PayoutGrantAnswer = GrantAnswer.extend(optionalOk);

/** Money the Checkout API moved (a payout, a transfer between accounts): its TrxID, status, amount and time. */
const MoneyMovedAnswer = z.object({
  ...optionalOk,
  completedTime: optionalText,
  trxID: z.string().min(1),
  transactionStatus: z.string().min(1),
  amount: Amount.nullish(),
  currency: optionalText,
});

/** A payout made. */
export const B2cPaymentAnswer = MoneyMovedAnswer.extend({
  receiverMSISDN: optionalText,
  merchantInvoiceNumber: optionalText,
  b2cFee: Amount.nullish(),
});

/**
 * The organisation's accounts and their balances: "Disbursement Account" (what payouts are paid from), "Collection
 * Account" (what checkout payments are paid into), or another type bKash names.
 */
export const OrganizationBalanceAnswer = z.object({
  ...optionalOk,
  organizationBalance: z.array(
    z.object({
      accountHolderName: optionalText,
      accountStatus: optionalText,
      accountTypeName: z.string().min(1),
      availableBalance: Amount.nullish(),
      currency: optionalText,
      currentBalance: Amount.nullish(),
      organizationShortCode: optionalText,
      updateTime: optionalText,
    }),
  ),
});

export const IntraAccountTransferAnswer = MoneyMovedAnswer.extend({ transferType: optionalText });

/** The statuses a payment can have (`transactionStatus`); bKash may send others, which we keep as they are. */
export const TRANSACTION_STATUSES = ['Initiated', 'Completed', 'Cancelled', 'Failed', 'Expired'] as const;

/** bKash's time format, in Dhaka time: `2025-12-09T16:12:43:828 GMT+0600`. */
export function bkashTime(ms: number): string {
  const iso = new Date(ms + 6 * 3600_000).toISOString(); // 2025-12-09T16:12:43.828Z, shifted to Dhaka
  return `${iso.slice(0, 19)}:${iso.slice(20, 23)} GMT+0600`;
}

/**
 * A time as bKash writes it → UTC ISO 8601, or null when it is no time: bKash's own `2025-12-09T16:12:43:828 GMT+0600`
 * (milliseconds after a colon, the offset after GMT), and ISO 8601 with an offset (`2025-12-09T10:12:43Z`,
 * `…+06:00`). A time without an offset is Dhaka time, as bKash's are.
 */
export function bkashTimeToIso(text: string | null | undefined): string | null {
  if (!text) return null;
  const m =
    /^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.:](\d{1,3}))?\s*(?:(Z)|(?:GMT|UTC)?\s*([+-])(\d{2}):?(\d{2}))?\s*$/i.exec(
      text,
    );
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms = '0', z, sign, oh, om] = m;
  const offsetMin = z ? 0 : sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 6 * 60;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
  const date = new Date(local - offsetMin * 60_000);
  // A date that does not exist (31 February, hour 25) is no time.
  const back = new Date(local);
  if (
    Number.isNaN(date.getTime()) ||
    back.getUTCFullYear() !== Number(y) ||
    back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d) ||
    back.getUTCHours() !== Number(h) ||
    back.getUTCMinutes() !== Number(mi) ||
    back.getUTCSeconds() !== Number(s)
  )
    return null;
  return date.toISOString();
}
