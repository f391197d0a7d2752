/**
 * A simulator of bKash's Tokenized Checkout v1.2.0-beta (docs/rules/bkash.md#6-the-simulator), state in memory: the
 * same paths, fields, HTTP statuses and statusCode/statusMessage errors as bKash (server/payments/bkash/wire.ts), and
 * the player's checkout pages (checkout-page.ts); and the B2C payouts of bKash's Checkout API
 * (docs/rules/bkash.md#9-payouts-b2c), paid from an organisation balance it keeps. A development tool, never in the production server's bundle. It accepts bKash's published sandbox values (SANDBOX). A test can make its next call of
 * an operation fail (failNext), or have a success callback arrive twice (callbackTwice); a test in another process
 * does the same through `POST <mount>/_control`, which exists only when the router is made with `{ control: true }`.
 *
 * Mounted at some path P: the API is under P/tokenized/checkout/…, the payouts under P/checkout/token/grant and
 * P/checkout/payment/…, the pages under P/checkout/<paymentID>, and the Send Money page (money a wallet sends to a number, which Search Transaction then finds) at P/send-money.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { request as undiciRequest } from 'undici';
import { z } from 'zod';
import { toAsciiDigits } from '../../shared/dates.ts';
import {
  renderCheckout,
  renderMessage,
  TEXTS,
  wrongCode,
  wrongPin,
  type Bilingual,
  type CheckoutScreen,
  type CheckoutView,
} from './checkout-page.ts';
import {
  ACCOUNT_TYPES,
  AgreementIdRequest,
  API_VERSION,
  B2cPaymentRequest,
  bkashTime,
  CODES,
  CreateRequest,
  GrantRequest,
  IntraAccountTransferRequest,
  MODES,
  OK,
  paisa,
  PATHS,
  PAYOUT_PATHS,
  PaymentIdRequest,
  RefundRequest,
  SearchRequest,
  TRANSACTION_STATUSES,
  TRANSFER_TYPES,
} from '../../server/payments/bkash/wire.ts';
import { renderSendMoney, renderSent, SEND_TEXTS, type SendMoneyForm } from './send-money-page.ts';

/** bKash's published sandbox test values: the one wallet that pays, its verification code and its PIN. */
export const SANDBOX = { wallet: '01770618575', code: '123456', pin: '12121' } as const;

export type SimulatorOptions = {
  appKey: string;
  appSecret: string;
  username: string;
  password: string;
  /** The simulator's clock (tests move it to expire tokens and payments). */
  now?: () => number;
  /** A payment not executed this long after its creation is Expired (default 5 minutes). */
  paymentLifetimeMs?: number;
  /** A token's life in seconds, as `expires_in` says (default 3600). */
  tokenLifetimeS?: number;
  /**
   * The merchant's wallet (BKASH_RECEIVER_NUMBER): the Send Money page's "to" unless the address names another, and the
   * receiver Search Transaction gives for a checkout's payment.
   */
  receiver?: string;
  /** The Disbursement Account's balance at the start and after reset(), in taka (default 1 000 000). */
  disbursementBalance?: number;
  /** The Collection Account's, in taka (default 0); every executed checkout payment adds to it. */
  collectionBalance?: number;
  /**
   * The largest payout, in taka (default 1 000 000): the simulator's; bKash sets a B2C per-transaction limit per merchant.
   */
  payoutLimit?: number;
};

/**
 * Wallets a payout to which bKash refuses, and with what (docs/rules/bkash.md#9-payouts-b2c): no such wallet, not a
 * bKash wallet, a wallet that may not receive.
 */
export const PAYOUT_REFUSING_WALLETS: Readonly<Record<string, { statusCode: string; statusMessage: string }>> = {
  '01300000045': CODES.unknownWallet,
  '01300000057': CODES.notBkashWallet,
  '01300000039': CODES.receiverBlocked,
};

export const SIMULATED_OPS = [
  'grant',
  'create',
  'execute',
  'status',
  'refund',
  'refundStatus',
  'searchTransaction',
  'agreementStatus',
  'agreementCancel',
  'payoutGrant',
  'b2cPayment',
  'organizationBalance',
  'payoutSearch',
  'intraAccountTransfer',
] as const;
/**
 * An API call of the simulator; `refundStatus` is the refund path asked with paymentID and trxID only. `create` and
 * `execute` are those of payments and of agreements alike (one path each, as at bKash). The last five are the Checkout
 * API's payout calls.
 */
export type SimulatedOp = (typeof SIMULATED_OPS)[number];
export const FAILURES = ['refuse', 'timeout', 'lose_answer', 'http500'] as const;
/**
 * refuse: a bKash error (an execute refused this way fails the payment, as bKash's "Insufficient Balance" does);
 * timeout: no answer ever (the connection stays open until the caller gives up);
 * lose_answer: the work is done, then the connection is cut without an answer;
 * http500: HTTP 500, nothing done.
 */
export type Failure = (typeof FAILURES)[number];

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export type SimulatedRefund = Readonly<{ refundTrxID: string; amount: string; sku: string; reason: string; completedAt: number }>;

/** Money a wallet sent to a number (Send Money, or a Payment to a merchant's number), as Search Transaction reports it. */
export type SimulatedTransfer = Readonly<{
  trxID: string;
  transactionType: 'Send Money' | 'Payment';
  from: string;
  to: string;
  /** As typed: "100", "100.50". */
  amount: string;
  reference: string;
  completedAt: number;
}>;

/** A payout made (b2cPayment), as `payouts()` shows it. */
export type SimulatedPayout = Readonly<{
  trxID: string;
  receiver: string;
  /** Taka, as sent: "500". */
  amount: string;
  merchantInvoiceNumber: string;
  completedAt: number;
}>;

/** What a test sends (the control call's `sendMoney`, and `sendMoney()`). */
export type SendMoney = { from: string; to: string; amount: string | number; reference?: string; type?: 'Send Money' | 'Payment' };

/** A read-only view of one simulated agreement (docs/rules/bkash.md#7-agreements). */
export type SimulatedAgreement = Readonly<{
  agreementID: string;
  /** "Completed" (in force) or "Cancelled". */
  status: 'Completed' | 'Cancelled';
  wallet: string;
  payerReference: string;
  /** The paymentID of its creation. */
  paymentID: string;
}>;

/** A read-only view of one simulated payment. */
export type SimulatedPayment = Readonly<{
  paymentID: string;
  /** As bKash's status call reports it now. */
  status: TransactionStatus;
  /** The player confirmed it on the checkout page (it stays Initiated until executed). */
  authorised: boolean;
  amount: string;
  payerReference: string;
  merchantInvoiceNumber: string;
  callbackURL: string;
  createdAt: number;
  /** The wallet the player paid with (once he gave the sandbox one). */
  wallet: string | null;
  trxID: string | null;
  /** Executes that completed it (at most 1), and every execute call that named it. */
  executed: number;
  executeCalls: number;
  /** Why it failed (Failed): bKash's code and message. */
  failure: Readonly<{ statusCode: string; statusMessage: string }> | null;
  refunds: readonly SimulatedRefund[];
  /** `payment` (modes 0011 and 0001) or `agreement` (an agreement's creation, mode 0000). */
  kind: 'payment' | 'agreement';
  /** The agreement that pays it (0001), or the agreement its execute made (0000); null otherwise. */
  agreementID: string | null;
}>;

type Agreement = {
  agreementID: string;
  status: 'Completed' | 'Cancelled';
  wallet: string;
  payerReference: string;
  paymentID: string;
  createdAt: number;
  executedAt: number;
  voidedAt: number | null;
};

type Stage = 'open' | 'authorised' | 'completed' | 'cancelled' | 'failed';
type Step = 'wallet' | 'code' | 'pin';

type Payment = {
  paymentID: string;
  amount: string;
  payerReference: string;
  callbackURL: string;
  merchantInvoiceNumber: string;
  createdAt: number;
  stage: Stage;
  step: Step;
  wallet: string | null;
  wrongCodes: number;
  wrongPins: number;
  notice: Bilingual | null;
  failure: { statusCode: string; statusMessage: string; page: Bilingual } | null;
  trxID: string | null;
  executedAt: number | null;
  executed: number;
  executeCalls: number;
  refunds: SimulatedRefund[];
  kind: 'payment' | 'agreement';
  agreementID: string | null;
};

/** What a player's action on the page led to: the next screen, or back to the merchant. */
type Outcome = { next: 'page' } | { next: 'callback'; status: 'success' | 'failure' | 'cancel'; url: string };

/** A JSON answer: HTTP status and body. */
type Answer = { status: number; body: object };

const TRIES = 3;
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const TRX_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const PAYMENT_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A taka amount as bKash takes it: digits, at most two decimals. */
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
/** A Bangladeshi wallet number as bKash keeps it. */
const WALLET = /^01[3-9]\d{8}$/;

/** What `refuse` answers, per call. */
const REFUSAL: Record<SimulatedOp, { statusCode: string; statusMessage: string }> = {
  grant: CODES.invalidAppKey,
  create: CODES.processFailed,
  execute: CODES.insufficientBalance,
  status: CODES.processFailed,
  refund: CODES.processFailed,
  refundStatus: CODES.processFailed,
  searchTransaction: CODES.processFailed,
  agreementStatus: CODES.processFailed,
  agreementCancel: CODES.processFailed,
  payoutGrant: CODES.processFailed,
  // Refused before anything is sent, as bKash refuses a payout its Disbursement Account cannot pay.
  b2cPayment: CODES.insufficientBalance,
  organizationBalance: CODES.processFailed,
  payoutSearch: CODES.processFailed,
  intraAccountTransfer: CODES.processFailed,
};
const PAYOUT_PATH_SET: ReadonlySet<string> = new Set(Object.values(PAYOUT_PATHS));
/** The Checkout API's calls: they answer without statusCode on success, and errors as errorCode/errorMessage. */
const CHECKOUT_API: ReadonlySet<SimulatedOp> = new Set([
  'payoutGrant',
  'b2cPayment',
  'organizationBalance',
  'payoutSearch',
  'intraAccountTransfer',
]);

const ControlBody = z.strictObject({
  failNext: z.strictObject({ op: z.enum(SIMULATED_OPS), how: z.enum(FAILURES) }).optional(),
  sendMoney: z
    .strictObject({
      from: z.string().max(20),
      to: z.string().max(20),
      amount: z.union([z.string().max(15), z.number()]),
      reference: z.string().max(50).optional(),
    })
    .optional(),
  callbackTwice: z.boolean().optional(),
  reset: z.literal(true).optional(),
  disbursementBalance: z
    .number()
    .refine((taka) => paisa(taka) !== null)
    .optional(),
});

const randomText = (chars: string, n: number): string => Array.from({ length: n }, () => chars[randomInt(chars.length)]).join('');
/** An amount bKash takes (digits, at most two decimals, not zero) in paisa, exactly; null for any other. */
const amountPaisa = (amount: string | undefined): number | null => {
  const v = amount !== undefined && AMOUNT.test(amount) ? paisa(amount) : null;
  return v === 0 ? null : v;
};
/** Paisa as bKash writes a balance: "1000.50". */
const takaText = (p: number): string => `${Math.floor(p / 100)}.${String(p % 100).padStart(2, '0')}`;
/** Taka (an option, a test's) → paisa; throws unless a non-negative amount of at most two decimals. */
const takaToPaisa = (taka: number, what: string): number => {
  const v = paisa(taka);
  if (v === null) throw new RangeError(`simulated bKash: ${what} is a non-negative amount of taka with at most two decimals`);
  return v;
};
/** +8801…, 8801… and spaces or dashes → 01…; Bengali digits read as ASCII. */
const normaliseWallet = (s: string): string =>
  toAsciiDigits(s)
    .replace(/[\s-]/g, '')
    .replace(/^\+?88(?=01)/, '');
const field = (body: unknown, name: string): string => {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? toAsciiDigits(v.trim()) : '';
};

export class BkashSimulator {
  private readonly now: () => number;
  private readonly paymentLifetimeMs: number;
  private readonly tokenLifetimeS: number;
  private payments = new Map<string, Payment>();
  private agreements = new Map<string, Agreement>();
  private transfers = new Map<string, SimulatedTransfer>();
  private payoutsMade = new Map<string, SimulatedPayout>();
  /** The organisation's two accounts, in paisa (docs/rules/bkash.md#9-payouts-b2c). */
  private readonly startingBalances: { disbursement: number; collection: number };
  private disbursement: number;
  private collection: number;
  private readonly payoutLimit: number;
  private tokens = new Map<string, number>();
  private failures = new Map<SimulatedOp, Failure[]>();
  private twice = false;
  private counts = new Map<SimulatedOp, number>();
  /** Answers held open by `timeout`, and duplicate callbacks under way. */
  private readonly hung = new Set<Response>();
  private readonly sending = new Set<Promise<void>>();

  private readonly opts: SimulatorOptions;
  constructor(opts: SimulatorOptions) {
    this.opts = opts;
    this.now = opts.now ?? Date.now;
    this.paymentLifetimeMs = opts.paymentLifetimeMs ?? 5 * 60_000;
    this.tokenLifetimeS = opts.tokenLifetimeS ?? 3600;
    this.startingBalances = {
      disbursement: takaToPaisa(opts.disbursementBalance ?? 1_000_000, 'disbursementBalance'),
      collection: takaToPaisa(opts.collectionBalance ?? 0, 'collectionBalance'),
    };
    this.disbursement = this.startingBalances.disbursement;
    this.collection = this.startingBalances.collection;
    this.payoutLimit = takaToPaisa(opts.payoutLimit ?? 1_000_000, 'payoutLimit');
  }

  // ---- for tests ------------------------------------------------------------------------------------------------------

  /** The next call of `op` fails as `how` (calls queue up: two failNext calls fail the next two calls). */
  failNext(op: SimulatedOp, how: Failure): void {
    const q = this.failures.get(op) ?? [];
    q.push(how);
    this.failures.set(op, q);
  }

  /** On: after each success callback the browser is sent to, the simulator GETs the same address once itself. */
  callbackTwice(on: boolean): void {
    this.twice = on;
  }

  /** How many calls of each operation arrived (failed ones included). */
  calls(op: SimulatedOp): number {
    return this.counts.get(op) ?? 0;
  }

  /**
   * What the player does on the checkout page, without a browser: wallet, code, PIN (the sandbox values unless
   * given), then Confirm. Returns the callback address the browser would be sent to (success, or failure for
   * another wallet, an expired payment, or a third wrong code or PIN); a first or second wrong code or PIN, or a
   * wallet that is no phone number, throws, as the page would ask again. A payment that already ended gives the
   * address its page would send the browser back to. Throws for an unknown payment.
   */
  async pay(paymentID: string, p: { wallet?: string; code?: string; pin?: string } = {}): Promise<string> {
    const pay = this.openPayment(paymentID);
    const steps: [Step, string][] = [
      ['wallet', p.wallet ?? SANDBOX.wallet],
      ['code', p.code ?? SANDBOX.code],
      ['pin', p.pin ?? SANDBOX.pin],
    ];
    for (const [step, value] of steps) {
      if (pay.step !== step) continue;
      const out = this.act(pay, step, value);
      if (out.next === 'callback') return out.url;
      if (pay.step === step) throw new Error(`simulated checkout: ${pay.notice?.en ?? 'asked again'}`);
    }
    throw new Error('simulated checkout: not finished');
  }

  /** The player presses Cancel: returns the cancel callback address. */
  async cancel(paymentID: string): Promise<string> {
    const out = this.act(this.openPayment(paymentID), 'cancel', '');
    if (out.next !== 'callback') throw new Error('simulated checkout: not cancelled');
    return out.url;
  }

  payment(paymentID: string): SimulatedPayment | undefined {
    const p = this.payments.get(paymentID);
    if (!p) return undefined;
    return {
      paymentID: p.paymentID,
      status: this.statusOf(p),
      authorised: p.stage === 'authorised' || p.stage === 'completed',
      amount: p.amount,
      payerReference: p.payerReference,
      merchantInvoiceNumber: p.merchantInvoiceNumber,
      callbackURL: p.callbackURL,
      createdAt: p.createdAt,
      wallet: p.wallet,
      trxID: p.trxID,
      executed: p.executed,
      executeCalls: p.executeCalls,
      failure: p.failure ? { statusCode: p.failure.statusCode, statusMessage: p.failure.statusMessage } : null,
      refunds: [...p.refunds],
      kind: p.kind,
      agreementID: p.agreementID,
    };
  }

  /** A read-only view of an agreement (undefined: no such agreement). */
  agreement(agreementID: string): SimulatedAgreement | undefined {
    const a = this.agreements.get(agreementID);
    return a
      ? { agreementID: a.agreementID, status: a.status, wallet: a.wallet, payerReference: a.payerReference, paymentID: a.paymentID }
      : undefined;
  }

  /** The player ends an agreement from bKash's own app: the merchant is not told. Throws for an unknown agreement. */
  cancelAgreementInApp(agreementID: string): void {
    const a = this.agreements.get(agreementID);
    if (!a) throw new Error(`simulated bKash: no agreement ${agreementID}`);
    a.status = 'Cancelled';
    a.voidedAt = this.now();
  }

  /**
   * Money sent from a wallet to a number, completed at once (no PIN or balance asked: a test's shortcut of the Send
   * Money page). Returns its TrxID. Throws for a wallet or number that is no phone number, the same wallet on both
   * sides, or an amount that is not a positive amount of at most two decimals.
   */
  sendMoney(m: SendMoney): string {
    const checked = checkTransfer({ from: m.from, to: m.to, amount: String(m.amount), reference: m.reference ?? '' });
    if ('notice' in checked) throw new Error(`simulated Send Money: ${checked.notice.en}`);
    return this.transfer(checked, m.type ?? 'Send Money');
  }

  /** A read-only view of money sent (undefined: no such TrxID). */
  transferOf(trxID: string): SimulatedTransfer | undefined {
    return this.transfers.get(trxID);
  }

  /** The payouts made (b2cPayment), oldest first. */
  payouts(): readonly SimulatedPayout[] {
    return [...this.payoutsMade.values()];
  }

  /** The payouts made with this merchant invoice number (a second is refused, so at most one). */
  payoutsOf(merchantInvoiceNumber: string): readonly SimulatedPayout[] {
    return this.payouts().filter((x) => x.merchantInvoiceNumber === merchantInvoiceNumber);
  }

  /** The Disbursement Account's available balance, in paisa. */
  disbursementBalance(): number {
    return this.disbursement;
  }

  /** Sets the Disbursement Account's balance (taka, at most two decimals; throws RangeError for another). */
  setDisbursementBalance(taka: number): void {
    this.disbursement = takaToPaisa(taka, 'the disbursement balance');
  }

  /**
   * Forgets every payment, transfer, payout, token, planned failure and count, and restores the starting balances; ends
   * answers held open.
   */
  reset(): void {
    this.payments = new Map();
    this.agreements = new Map();
    this.transfers = new Map();
    this.payoutsMade = new Map();
    this.disbursement = this.startingBalances.disbursement;
    this.collection = this.startingBalances.collection;
    this.tokens = new Map();
    this.failures = new Map();
    this.counts = new Map();
    this.twice = false;
    for (const res of this.hung) res.socket?.destroy();
    this.hung.clear();
  }

  /** Waits for the duplicate callbacks under way (startSimulator's close). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  // ---- the router -----------------------------------------------------------------------------------------------------

  /**
   * The API and the pages. `publicUrl`: the simulator's address as the browser reaches it (startSimulator); without
   * it, bkashURL is the origin of the payment's callbackURL + the mount path (the app mounts the simulator in its
   * own process and calls it on 127.0.0.1, while the browser knows the app by its public address).
   */
  router(o: { control?: boolean; publicUrl?: string } = {}): express.Router {
    const r = express.Router();
    const json = express.json({ limit: '16kb' });
    const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });

    r.post(PATHS.grant, json, (req, res) => this.api('grant', req, res, () => this.grant(req)));
    // The payouts, before the pages: /checkout/<paymentID>/… must not take /checkout/payment/….
    r.post(PAYOUT_PATHS.grant, json, (req, res) => this.api('payoutGrant', req, res, () => this.grant(req)));
    r.post(PAYOUT_PATHS.b2cPayment, json, (req, res) =>
      this.api('b2cPayment', req, res, () => this.tokenized(req, B2cPaymentRequest, (b) => this.b2cPayment(b))),
    );
    r.get(PAYOUT_PATHS.organizationBalance, (req, res) =>
      this.api('organizationBalance', req, res, () => this.unauthorised(req) ?? this.organizationBalance()),
    );
    r.post(PAYOUT_PATHS.intraAccountTransfer, json, (req, res) =>
      this.api('intraAccountTransfer', req, res, () =>
        this.tokenized(req, IntraAccountTransferRequest, (b) => this.intraAccountTransfer(b)),
      ),
    );
    r.get(`${PAYOUT_PATHS.search}/:trxID`, (req, res) =>
      this.api('payoutSearch', req, res, () => this.unauthorised(req) ?? this.search({ trxID: String(req.params.trxID) })),
    );
    r.post(PATHS.create, json, (req, res) =>
      this.api('create', req, res, () => this.tokenized(req, CreateRequest, (b) => this.create(req, b, o.publicUrl))),
    );
    r.post(PATHS.execute, json, (req, res) =>
      this.api('execute', req, res, () => this.tokenized(req, PaymentIdRequest, (b) => this.paying(b.paymentID, (p) => this.execute(p)))),
    );
    r.post(PATHS.status, json, (req, res) =>
      this.api('status', req, res, () => this.tokenized(req, PaymentIdRequest, (b) => this.paying(b.paymentID, (p) => this.status(p)))),
    );
    r.post(PATHS.searchTransaction, json, (req, res) =>
      this.api('searchTransaction', req, res, () => this.tokenized(req, SearchRequest, (b) => this.search(b))),
    );
    r.post(PATHS.agreementStatus, json, (req, res) =>
      this.api('agreementStatus', req, res, () =>
        this.tokenized(req, AgreementIdRequest, (b) => this.agreeing(b.agreementID, (a) => ok(agreementBody(a)))),
      ),
    );
    r.post(PATHS.agreementCancel, json, (req, res) =>
      this.api('agreementCancel', req, res, () =>
        this.tokenized(req, AgreementIdRequest, (b) => this.agreeing(b.agreementID, (a) => this.cancelAgreement(a))),
      ),
    );
    r.post(PATHS.refund, json, (req, res) => {
      const op = typeof (req.body as { amount?: unknown } | undefined)?.amount === 'undefined' ? 'refundStatus' : 'refund';
      this.api(op, req, res, () =>
        this.tokenized(req, RefundRequest, (b) =>
          op === 'refund' ? this.refund(b) : this.paying(b.paymentID, (p) => this.refundStatus(p, b)),
        ),
      );
    });

    r.get('/assets/:file', (req, res) => {
      const asset = Object.hasOwn(ASSETS, String(req.params.file)) ? ASSETS[String(req.params.file)] : undefined;
      const body = asset?.file() ?? null;
      if (!asset || body === null) return void res.status(404).type('text/plain').send('not found');
      res.type(asset.type).set('cache-control', 'public, max-age=300').send(body);
    });
    r.get('/checkout/:paymentID', (req, res) => this.page(req, res));
    r.get('/send-money', (req, res) => this.sendMoneyPage(req, res));
    r.post('/send-money', form, (req, res) => this.sendMoneySubmit(req, res));
    r.get('/send-money/:trxID', (req, res) => this.sentPage(req, res));
    for (const step of ['wallet', 'code', 'pin', 'cancel'] as const)
      r.post(`/checkout/:paymentID/${step}`, form, (req, res) => this.submit(req, res, step));

    r.post('/_control', json, (req, res, next) => {
      if (!o.control) return next();
      const c = ControlBody.safeParse(req.body);
      const expected =
        'expected { failNext?: { op, how }, callbackTwice?: boolean, reset?: true, sendMoney?: { from, to, amount, reference? }, disbursementBalance?: number }';
      if (!c.success) return void res.status(400).json({ error: expected });
      let trxID: string | undefined;
      if (c.data.sendMoney) {
        const checked = checkTransfer({
          ...c.data.sendMoney,
          amount: String(c.data.sendMoney.amount),
          reference: c.data.sendMoney.reference ?? '',
        });
        if ('notice' in checked) return void res.status(400).json({ error: checked.notice.en });
        if (c.data.reset) this.reset();
        trxID = this.transfer(checked, 'Send Money');
      } else if (c.data.reset) this.reset();
      if (c.data.disbursementBalance !== undefined) this.setDisbursementBalance(c.data.disbursementBalance);
      if (c.data.failNext) this.failNext(c.data.failNext.op, c.data.failNext.how);
      if (c.data.callbackTwice !== undefined) this.callbackTwice(c.data.callbackTwice);
      res.json(trxID === undefined ? { ok: true } : { ok: true, trxID });
    });

    // A body that does not parse: bKash's error on the API, a plain page elsewhere.
    r.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
      if (res.headersSent) return next(err);
      const status = (err as { status?: number }).status;
      if (typeof status !== 'number' || status < 400 || status >= 500) return next(err);
      if (req.path.startsWith('/tokenized/')) return void res.status(400).json(CODES.invalidBody);
      if (PAYOUT_PATH_SET.has(req.path)) return void res.status(400).json(checkoutApiBody(CODES.invalidBody));
      res.status(400).type('html').send(renderMessage(req.baseUrl, TEXTS.badRequest));
    });
    return r;
  }

  // ---- the API --------------------------------------------------------------------------------------------------------

  /** Counts the call, applies a planned failure, else answers with `work`'s answer. */
  private api(op: SimulatedOp, req: Request, res: Response, work: () => Answer): void {
    this.counts.set(op, this.calls(op) + 1);
    const how = this.failures.get(op)?.shift();
    if (how === 'timeout') {
      this.hung.add(res);
      res.on('close', () => this.hung.delete(res));
      return;
    }
    if (how === 'http500') return void res.status(500).json({ message: 'Internal server error' });
    // The Checkout API (payouts) words the same answers its own way.
    const style = (body: object): object => (CHECKOUT_API.has(op) ? checkoutApiBody(body) : body);
    if (how === 'refuse') {
      if (op === 'execute') this.refuseExecute(req);
      return void res.status(200).json(style(REFUSAL[op]));
    }
    const answer = work();
    if (how === 'lose_answer') return void req.socket.destroy();
    res.status(answer.status).json(style(answer.body));
  }

  private grant(req: Request): Answer {
    const b = GrantRequest.safeParse(req.body);
    if (!b.success) return bkashError(CODES.missingField);
    if (b.data.app_key !== this.opts.appKey) return bkashError(CODES.invalidAppKey);
    if (
      b.data.app_secret !== this.opts.appSecret ||
      req.get('username') !== this.opts.username ||
      req.get('password') !== this.opts.password
    )
      return bkashError(CODES.wrongCredentials);
    const now = this.now();
    for (const [t, until] of this.tokens) if (until <= now) this.tokens.delete(t);
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, now + this.tokenLifetimeS * 1000);
    return {
      status: 200,
      body: {
        statusCode: OK,
        statusMessage: 'Successful',
        id_token: token,
        token_type: 'Bearer',
        expires_in: this.tokenLifetimeS,
        refresh_token: randomBytes(32).toString('base64url'),
      },
    };
  }

  /** A call without a valid token is refused as bKash's gateway does: HTTP 401; a wrong app key is bKash's 2001. */
  private unauthorised(req: Request): Answer | null {
    const token = req.get('authorization');
    const until = token === undefined ? undefined : this.tokens.get(token);
    if (until === undefined) return { status: 401, body: { message: 'Unauthorized' } };
    if (until <= this.now()) return { status: 401, body: { message: 'The incoming token has expired' } };
    if (req.get('x-app-key') !== this.opts.appKey) return bkashError(CODES.invalidAppKey);
    return null;
  }

  /** A call past the token check whose body `schema` reads; one it does not read is bKash's missing field. */
  private tokenized<S extends z.ZodType>(req: Request, schema: S, work: (body: z.output<S>) => Answer): Answer {
    const denied = this.unauthorised(req);
    if (denied) return denied;
    const b = schema.safeParse(req.body);
    return b.success ? work(b.data) : bkashError(CODES.missingField);
  }

  /** The payment a call names, or bKash's invalid payment ID. */
  private paying(paymentID: string, work: (p: Payment) => Answer): Answer {
    const p = this.payments.get(paymentID);
    return p ? work(p) : bkashError(CODES.invalidPaymentId);
  }

  /**
   * A create: an agreement's creation (0000), a payment (0011), or a payment with an agreement in force (0001), whose
   * page asks only for the PIN of the agreement's wallet.
   */
  private create(req: Request, c: z.output<typeof CreateRequest>, publicUrl: string | undefined): Answer {
    if (c.mode !== MODES.payment && c.mode !== MODES.agreement && c.mode !== MODES.agreementPayment) return bkashError(CODES.invalidMode);
    if (!c.payerReference || c.payerReference.length > 255) return bkashError(CODES.invalidPayerReference);
    let callback: URL;
    try {
      callback = new URL(c.callbackURL);
    } catch {
      return bkashError(CODES.invalidCallbackUrl);
    }
    if (!['http:', 'https:'].includes(callback.protocol) || c.callbackURL.length > 1000) return bkashError(CODES.invalidCallbackUrl);
    const pages = publicUrl ? publicUrl.replace(/\/+$/, '') : `${callback.origin}${req.baseUrl}`;
    if (c.mode === MODES.agreement) return this.createAgreement(c, pages);

    let agreement: Agreement | undefined;
    if (c.mode === MODES.agreementPayment) {
      agreement = c.agreementID === undefined ? undefined : this.agreements.get(c.agreementID);
      if (!agreement) return bkashError(CODES.invalidAgreementId);
      if (agreement.status === 'Cancelled') return bkashError(CODES.agreementCancelled);
    }
    if (c.currency !== 'BDT') return bkashError(CODES.invalidCurrency);
    if (c.intent !== 'sale') return bkashError(CODES.invalidIntent);
    if (amountPaisa(c.amount) === null) return bkashError(CODES.invalidAmount);
    if (!c.merchantInvoiceNumber || c.merchantInvoiceNumber.length > 255) return bkashError(CODES.missingField);

    const p = this.newPayment(c.mode, c, agreement);
    return ok({
      paymentID: p.paymentID,
      ...this.addresses(p, pages),
      amount: c.amount,
      intent: 'sale',
      currency: 'BDT',
      paymentCreateTime: bkashTime(p.createdAt),
      transactionStatus: 'Initiated',
      merchantInvoiceNumber: c.merchantInvoiceNumber,
    });
  }

  /** Where the player goes: its page, and the callbacks it comes back to. */
  private addresses(p: Payment, pages: string) {
    return {
      bkashURL: `${pages}/checkout/${p.paymentID}`,
      callbackURL: p.callbackURL,
      successCallbackURL: this.callbackUrl(p, 'success'),
      failureCallbackURL: this.callbackUrl(p, 'failure'),
      cancelledCallbackURL: this.callbackUrl(p, 'cancel'),
    };
  }

  /** An agreement's creation (0000): the player approves it on its page with his wallet, code and PIN. */
  private createAgreement(c: z.output<typeof CreateRequest>, pages: string): Answer {
    const p = this.newPayment(MODES.agreement, c, undefined);
    return ok({
      paymentID: p.paymentID,
      ...this.addresses(p, pages),
      payerReference: c.payerReference,
      agreementStatus: 'Initiated',
      agreementCreateTime: bkashTime(p.createdAt),
    });
  }

  /** A payment or an agreement's creation, open; one paid with an agreement starts at the PIN of its wallet. */
  private newPayment(mode: string, c: z.output<typeof CreateRequest>, agreement: Agreement | undefined): Payment {
    const now = this.now();
    const paymentID = `TR${mode}${randomText(ID_CHARS, 7)}${now}`;
    const p: Payment = {
      paymentID,
      amount: mode === MODES.agreement ? '' : (c.amount ?? ''),
      payerReference: c.payerReference,
      callbackURL: c.callbackURL,
      merchantInvoiceNumber: mode === MODES.agreement ? '' : (c.merchantInvoiceNumber ?? ''),
      createdAt: now,
      stage: 'open',
      step: agreement ? 'pin' : 'wallet',
      wallet: agreement?.wallet ?? null,
      wrongCodes: 0,
      wrongPins: 0,
      notice: null,
      failure: null,
      trxID: null,
      executedAt: null,
      executed: 0,
      executeCalls: 0,
      refunds: [],
      kind: mode === MODES.agreement ? 'agreement' : 'payment',
      agreementID: agreement?.agreementID ?? null,
    };
    this.payments.set(paymentID, p);
    return p;
  }

  private execute(p: Payment): Answer {
    p.executeCalls++;
    if (p.stage === 'completed') return bkashError(CODES.alreadyCompleted);
    if (p.stage === 'failed' && p.failure) return bkashError(p.failure);
    if (p.stage !== 'authorised' || this.expired(p)) return bkashError(CODES.invalidPaymentState);
    // The payment's agreement was cancelled meanwhile (in bKash's app): nothing is taken.
    const paying = p.agreementID === null || p.kind === 'agreement' ? undefined : this.agreements.get(p.agreementID);
    if (paying?.status === 'Cancelled') {
      this.fail(p, { ...CODES.agreementCancelled, page: TEXTS.failed });
      return bkashError(CODES.agreementCancelled);
    }
    if (p.kind === 'agreement') return this.executeAgreement(p);
    const now = this.now();
    p.stage = 'completed';
    p.trxID = randomText(TRX_CHARS, 10);
    p.executedAt = now;
    p.executed++;
    this.collection += paisa(p.amount) ?? 0;
    return ok({
      paymentID: p.paymentID,
      payerReference: p.payerReference,
      customerMsisdn: p.wallet,
      trxID: p.trxID,
      amount: p.amount,
      transactionStatus: 'Completed',
      paymentExecuteTime: bkashTime(now),
      currency: 'BDT',
      intent: 'sale',
      merchantInvoiceNumber: p.merchantInvoiceNumber,
    });
  }

  /** An agreement's creation the player approved becomes an agreement in force on his wallet. */
  private executeAgreement(p: Payment): Answer {
    const now = this.now();
    let agreementID: string;
    do agreementID = `TokenizedMerchant01${randomText(TRX_CHARS, 12)}`;
    while (this.agreements.has(agreementID));
    const a: Agreement = {
      agreementID,
      status: 'Completed',
      wallet: p.wallet ?? '',
      payerReference: p.payerReference,
      paymentID: p.paymentID,
      createdAt: p.createdAt,
      executedAt: now,
      voidedAt: null,
    };
    this.agreements.set(agreementID, a);
    p.stage = 'completed';
    p.executedAt = now;
    p.executed++;
    p.agreementID = agreementID;
    return ok({ paymentID: p.paymentID, ...agreementBody(a) });
  }

  /** The agreement a call names, or bKash's invalid agreement ID. */
  private agreeing(agreementID: string, work: (a: Agreement) => Answer): Answer {
    const a = this.agreements.get(agreementID);
    return a ? work(a) : bkashError(CODES.invalidAgreementId);
  }

  private cancelAgreement(a: Agreement): Answer {
    if (a.status === 'Cancelled') return bkashError(CODES.agreementCancelled);
    a.status = 'Cancelled';
    a.voidedAt = this.now();
    return ok(agreementBody(a));
  }

  /** failNext('execute', 'refuse'): bKash refuses with Insufficient Balance, and the payment has failed. */
  private refuseExecute(req: Request): void {
    const id = field(req.body, 'paymentID');
    const p = this.payments.get(id);
    if (!p) return;
    p.executeCalls++;
    if (p.stage === 'open' || p.stage === 'authorised')
      this.fail(p, {
        statusCode: REFUSAL.execute.statusCode,
        statusMessage: REFUSAL.execute.statusMessage,
        page: TEXTS.insufficientBalance,
      });
  }

  private status(p: Payment): Answer {
    const status = this.statusOf(p);
    return ok({
      paymentID: p.paymentID,
      mode: p.kind === 'agreement' ? MODES.agreement : p.agreementID === null ? MODES.payment : MODES.agreementPayment,
      paymentCreateTime: bkashTime(p.createdAt),
      ...(p.executedAt !== null ? { paymentExecuteTime: bkashTime(p.executedAt) } : {}),
      amount: p.amount,
      currency: 'BDT',
      intent: 'sale',
      merchantInvoice: p.merchantInvoiceNumber,
      ...(p.trxID !== null ? { trxID: p.trxID } : {}),
      transactionStatus: status,
      ...(status === 'Completed' ? { verificationStatus: 'Complete' } : {}),
      payerReference: p.payerReference,
    });
  }

  /**
   * Search Transaction (and the payouts' search): money sent to a number (Send Money page, `sendMoney`), a checkout's
   * completed payment, or a payout, by its TrxID; any other TrxID is bKash's 2033.
   */
  private search(b: z.output<typeof SearchRequest>): Answer {
    if (!b.trxID) return bkashError(CODES.missingField);
    const t = this.transfers.get(b.trxID);
    if (t) return ok(searchBody({ ...t, type: t.transactionType, initiatedAt: t.completedAt }));
    const payout = this.payoutsMade.get(b.trxID);
    if (payout)
      return ok(
        searchBody({
          ...payout,
          type: 'B2C Payment',
          // bKash's field names the customer: for a payout, the wallet paid; the organisation is the other side.
          from: payout.receiver,
          to: this.opts.receiver ?? '',
          reference: payout.merchantInvoiceNumber,
          initiatedAt: payout.completedAt,
        }),
      );
    const p = [...this.payments.values()].find((x) => x.trxID === b.trxID && x.executedAt !== null);
    if (!p || p.executedAt === null || p.trxID === null) return bkashError(CODES.transactionNotFound);
    return ok(
      searchBody({
        trxID: p.trxID,
        type: 'Payment',
        amount: p.amount,
        from: p.wallet ?? '',
        to: this.opts.receiver ?? '',
        reference: p.merchantInvoiceNumber,
        initiatedAt: p.createdAt,
        completedAt: p.executedAt,
      }),
    );
  }

  // ---- the payouts (docs/rules/bkash.md#9-payouts-b2c) ----------------------------------------------------------------

  /**
   * A payout from the Disbursement Account: the body checked as bKash does, a refusing wallet refused with its code,
   * then (the simulator's choices) an invoice number already paid 2029, above the payout limit 2074, above the
   * balance 2023; else paid at once, Completed.
   */
  private b2cPayment(b: z.output<typeof B2cPaymentRequest>): Answer {
    const { amount, currency, merchantInvoiceNumber, receiverMSISDN } = b;
    if (!amount || !currency || !merchantInvoiceNumber || !receiverMSISDN || merchantInvoiceNumber.length > 255)
      return bkashError(CODES.missingField);
    const value = amountPaisa(amount);
    if (value === null) return bkashError(CODES.invalidAmount);
    if (currency !== 'BDT') return bkashError(CODES.invalidCurrency);
    if (!WALLET.test(receiverMSISDN)) return bkashError(CODES.invalidReceiver);
    const refusing = Object.hasOwn(PAYOUT_REFUSING_WALLETS, receiverMSISDN) ? PAYOUT_REFUSING_WALLETS[receiverMSISDN] : undefined;
    if (refusing) return bkashError(refusing);
    if (this.payoutsOf(merchantInvoiceNumber).length > 0) return bkashError(CODES.duplicate);
    if (value > this.payoutLimit) return bkashError(CODES.limitExceeded);
    if (value > this.disbursement) return bkashError(CODES.insufficientBalance);
    let trxID: string;
    do trxID = randomText(TRX_CHARS, 10);
    while (this.payoutsMade.has(trxID));
    const payout: SimulatedPayout = { trxID, receiver: receiverMSISDN, amount, merchantInvoiceNumber, completedAt: this.now() };
    this.disbursement -= value;
    this.payoutsMade.set(trxID, payout);
    return ok({
      completedTime: bkashTime(payout.completedAt),
      trxID,
      transactionStatus: 'Completed',
      amount,
      currency: 'BDT',
      receiverMSISDN,
      merchantInvoiceNumber,
      b2cFee: '0.00',
    });
  }

  /** The organisation's two accounts, as bKash lists them. */
  private organizationBalance(): Answer {
    const updateTime = bkashTime(this.now());
    const account = (accountTypeName: string, balance: number) => ({
      accountHolderName: 'Bhagya',
      accountStatus: 'Active',
      accountTypeName,
      availableBalance: takaText(balance),
      currency: 'BDT',
      currentBalance: takaText(balance),
      organizationShortCode: this.opts.receiver ?? '',
      updateTime,
    });
    return ok({
      organizationBalance: [account(ACCOUNT_TYPES.disbursement, this.disbursement), account(ACCOUNT_TYPES.collection, this.collection)],
    });
  }

  /** Money between the two accounts: 2032 for another transfer type, 2023 when the account it leaves lacks it. */
  private intraAccountTransfer(b: z.output<typeof IntraAccountTransferRequest>): Answer {
    const { amount, currency, transferType } = b;
    if (!amount || !currency || !transferType) return bkashError(CODES.missingField);
    const value = amountPaisa(amount);
    if (value === null) return bkashError(CODES.invalidAmount);
    if (currency !== 'BDT') return bkashError(CODES.invalidCurrency);
    if (!(TRANSFER_TYPES as readonly string[]).includes(transferType)) return bkashError(CODES.invalidTransferType);
    const toDisbursement = transferType === 'Collection2Disbursement';
    if (value > (toDisbursement ? this.collection : this.disbursement)) return bkashError(CODES.insufficientBalance);
    this.collection += toDisbursement ? -value : value;
    this.disbursement += toDisbursement ? value : -value;
    return ok({
      completedTime: bkashTime(this.now()),
      trxID: randomText(TRX_CHARS, 10),
      transactionStatus: 'Completed',
      amount,
      currency: 'BDT',
      transferType,
    });
  }

  private transfer(
    t: Omit<SimulatedTransfer, 'trxID' | 'transactionType' | 'completedAt'>,
    type: SimulatedTransfer['transactionType'],
  ): string {
    let trxID: string;
    do trxID = randomText(TRX_CHARS, 10);
    while (this.transfers.has(trxID));
    this.transfers.set(trxID, { ...t, trxID, transactionType: type, completedAt: this.now() });
    return trxID;
  }

  private refund(b: z.output<typeof RefundRequest>): Answer {
    const { paymentID, trxID, amount, sku, reason } = b;
    if (!amount || !sku || !reason) return bkashError(CODES.missingField);
    return this.paying(paymentID, (p) => {
      if (p.stage !== 'completed') return bkashError(CODES.invalidPaymentState);
      if (p.trxID !== trxID) return bkashError(CODES.transactionNotFound);
      if (p.refunds.length > 0) return bkashError(CODES.alreadyRefunded);
      const refunded = amountPaisa(amount);
      if (refunded === null || sku.length > 255 || reason.length > 255) return bkashError(CODES.invalidAmount);
      if (refunded > (paisa(p.amount) ?? 0)) return bkashError(CODES.refundTooLarge);
      const r: SimulatedRefund = { refundTrxID: randomText(TRX_CHARS, 10), amount, sku, reason, completedAt: this.now() };
      p.refunds.push(r);
      return { status: 200, body: refundBody(p, r) };
    });
  }

  private refundStatus(p: Payment, b: z.output<typeof RefundRequest>): Answer {
    const r = p.trxID === b.trxID ? p.refunds[0] : undefined;
    if (!r) return bkashError(CODES.transactionNotFound);
    return { status: 200, body: refundBody(p, r) };
  }

  // ---- the player's pages ---------------------------------------------------------------------------------------------

  /** The Send Money form; `?to=`, `?amount=` and `?reference=` fill it in (the receiver's number unless `to` is given). */
  private sendMoneyPage(req: Request, res: Response): void {
    res.set('cache-control', 'no-store');
    const q = (name: string): string => (typeof req.query[name] === 'string' ? String(req.query[name]).slice(0, 50) : '');
    const form: SendMoneyForm = {
      from: '',
      to: q('to') || (this.opts.receiver ?? ''),
      amount: q('amount'),
      reference: q('reference'),
      notice: null,
    };
    res.type('html').send(renderSendMoney(req.baseUrl, form, SANDBOX));
  }

  /**
   * Money sent from the page: the sandbox wallet and PIN send it (another wallet has no balance, as on the checkout),
   * and the browser is sent to its TrxID (303); anything else shows the form again with why.
   */
  private sendMoneySubmit(req: Request, res: Response): void {
    res.set('cache-control', 'no-store');
    const typed = {
      from: field(req.body, 'from'),
      to: field(req.body, 'to'),
      amount: field(req.body, 'amount'),
      reference: field(req.body, 'reference'),
    };
    const again = (n: SendMoneyForm['notice']) =>
      void res
        .status(400)
        .type('html')
        .send(renderSendMoney(req.baseUrl, { ...typed, notice: n }, SANDBOX));
    const checked = checkTransfer(typed);
    if ('notice' in checked) return again(checked.notice);
    if (checked.from !== SANDBOX.wallet) return again(SEND_TEXTS.insufficientBalance);
    if (field(req.body, 'pin') !== SANDBOX.pin) return again(SEND_TEXTS.pinWrong);
    const trxID = this.transfer(checked, 'Send Money');
    res.redirect(303, `${req.baseUrl}/send-money/${encodeURIComponent(trxID)}`);
  }

  private sentPage(req: Request, res: Response): void {
    res.set('cache-control', 'no-store');
    const id: unknown = req.params.trxID;
    const t = typeof id === 'string' ? this.transfers.get(id) : undefined;
    if (!t) return void res.status(404).type('html').send(renderMessage(req.baseUrl, SEND_TEXTS.notFound));
    res.type('html').send(renderSent(req.baseUrl, t));
  }

  private page(req: Request, res: Response): void {
    res.set('cache-control', 'no-store');
    const id = paramOf(req);
    const p = PAYMENT_ID.test(id) ? this.payments.get(id) : undefined;
    if (!p) return void res.status(404).type('html').send(renderMessage(req.baseUrl, TEXTS.notFound));
    const view: CheckoutView = {
      base: req.baseUrl,
      paymentID: p.paymentID,
      amount: p.amount,
      invoice: p.merchantInvoiceNumber,
      screen: this.screen(p),
      agreement: p.kind === 'agreement' ? { kind: 'create' } : p.agreementID !== null ? { kind: 'pay', wallet: p.wallet ?? '' } : null,
    };
    res.type('html').send(renderCheckout(view, SANDBOX));
  }

  private submit(req: Request, res: Response, step: Step | 'cancel'): void {
    const id = paramOf(req);
    const p = PAYMENT_ID.test(id) ? this.payments.get(id) : undefined;
    if (!p) return void res.status(404).type('html').send(renderMessage(req.baseUrl, TEXTS.notFound));
    const out = this.act(p, step, step === 'cancel' ? '' : field(req.body, step));
    if (out.next === 'callback' && out.status !== 'failure') {
      res.redirect(303, out.url);
      return;
    }
    // Asked again, or failed: the page says why (a failure then sends the browser back by itself).
    res.redirect(303, `${req.baseUrl}/checkout/${encodeURIComponent(p.paymentID)}`);
  }

  /** The screen a payment's page shows now. */
  private screen(p: Payment): CheckoutScreen {
    if (p.stage === 'completed' || (p.stage === 'authorised' && !this.expired(p)))
      return {
        kind: 'done',
        outcome: 'success',
        notice: p.kind === 'agreement' ? TEXTS.agreed : TEXTS.paid,
        returnUrl: this.callbackUrl(p, 'success'),
      };
    if (p.stage === 'cancelled')
      return { kind: 'done', outcome: 'cancel', notice: TEXTS.cancelled, returnUrl: this.callbackUrl(p, 'cancel') };
    if (p.stage === 'failed')
      return { kind: 'done', outcome: 'failure', notice: p.failure?.page ?? TEXTS.failed, returnUrl: this.callbackUrl(p, 'failure') };
    if (this.expired(p)) return { kind: 'done', outcome: 'failure', notice: TEXTS.expired, returnUrl: this.callbackUrl(p, 'failure') };
    if (p.step === 'code') return { kind: 'code', wallet: p.wallet ?? '', notice: p.notice };
    return { kind: p.step, notice: p.notice };
  }

  /**
   * One action of the player (docs/rules/bkash.md#6-the-simulator): the sandbox wallet goes on to the code, another
   * valid wallet fails with Insufficient Balance; a wrong code or PIN is asked again, the third fails; the right PIN
   * authorises the payment (Initiated until executed); Cancel cancels. An expired or ended payment goes back as it is.
   */
  private act(p: Payment, step: Step | 'cancel', value: string): Outcome {
    if (p.stage !== 'open' || this.expired(p)) {
      const screen = this.screen(p);
      return screen.kind === 'done' ? { next: 'callback', status: screen.outcome, url: screen.returnUrl } : { next: 'page' };
    }
    if (step === 'cancel') {
      p.stage = 'cancelled';
      return this.back(p, 'cancel');
    }
    if (step !== p.step) return { next: 'page' }; // an old form posted again: show the step the payment is at
    p.notice = null;
    if (step === 'wallet') {
      const wallet = normaliseWallet(value);
      if (!WALLET.test(wallet)) {
        p.notice = TEXTS.walletInvalid;
        return { next: 'page' };
      }
      p.wallet = wallet;
      if (wallet !== SANDBOX.wallet) {
        this.fail(p, { ...CODES.insufficientBalance, page: TEXTS.insufficientBalance });
        return this.back(p, 'failure');
      }
      p.step = 'code';
      p.notice = null;
      return { next: 'page' };
    }
    if (step === 'code') {
      if (value === SANDBOX.code) {
        p.step = 'pin';
        return { next: 'page' };
      }
      p.wrongCodes++;
      if (p.wrongCodes >= TRIES) {
        this.fail(p, { ...CODES.wrongCodeLimit, page: TEXTS.codeLimit });
        return this.back(p, 'failure');
      }
      p.notice = wrongCode(TRIES - p.wrongCodes);
      return { next: 'page' };
    }
    if (value === SANDBOX.pin) {
      p.stage = 'authorised';
      return this.back(p, 'success');
    }
    p.wrongPins++;
    if (p.wrongPins >= TRIES) {
      this.fail(p, { ...CODES.wrongPinLimit, page: TEXTS.pinLimit });
      return this.back(p, 'failure');
    }
    p.notice = wrongPin(TRIES - p.wrongPins);
    return { next: 'page' };
  }

  private back(p: Payment, status: 'success' | 'failure' | 'cancel'): Outcome {
    const url = this.callbackUrl(p, status);
    if (status === 'success' && this.twice) this.duplicate(url);
    return { next: 'callback', status, url };
  }

  private fail(p: Payment, failure: Payment['failure']): void {
    p.stage = 'failed';
    p.failure = failure;
  }

  /** callbackTwice: the success callback once more, from the server side, as a duplicated callback arrives. */
  private duplicate(url: string): void {
    const sent: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => undiciRequest(url, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 }))
      .then((res) => res.body.dump())
      .catch(() => undefined)
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private callbackUrl(p: Payment, status: 'success' | 'failure' | 'cancel'): string {
    const u = new URL(p.callbackURL);
    u.searchParams.set('paymentID', p.paymentID);
    u.searchParams.set('status', status);
    // An opaque signature, as bKash adds one; the merchant learns the outcome from execute and status, never from it.
    u.searchParams.set(
      'signature',
      createHmac('sha256', this.opts.appSecret).update(`${p.paymentID}:${status}`).digest('base64url').slice(0, 32),
    );
    u.searchParams.set('apiVersion', API_VERSION);
    return u.toString();
  }

  private openPayment(paymentID: string): Payment {
    const p = this.payments.get(paymentID);
    if (!p) throw new Error(`simulated checkout: no payment ${paymentID}`);
    return p;
  }

  private expired(p: Payment): boolean {
    return (p.stage === 'open' || p.stage === 'authorised') && this.now() - p.createdAt >= this.paymentLifetimeMs;
  }

  private statusOf(p: Payment): TransactionStatus {
    if (p.stage === 'completed') return 'Completed';
    if (p.stage === 'cancelled') return 'Cancelled';
    if (p.stage === 'failed') return 'Failed';
    return this.expired(p) ? 'Expired' : 'Initiated';
  }
}

/** Money to send, checked as bKash's app checks it: two wallet numbers (not the same), an amount, a short reference. */
function checkTransfer(t: {
  from: string;
  to: string;
  amount: string;
  reference: string;
}): { from: string; to: string; amount: string; reference: string } | { notice: Bilingual } {
  const from = normaliseWallet(t.from);
  const to = normaliseWallet(t.to);
  const amount = toAsciiDigits(t.amount.trim());
  const reference = t.reference.trim();
  if (!WALLET.test(from)) return { notice: SEND_TEXTS.fromInvalid };
  if (!WALLET.test(to)) return { notice: SEND_TEXTS.toInvalid };
  if (from === to) return { notice: SEND_TEXTS.sameWallet };
  if (amountPaisa(amount) === null) return { notice: SEND_TEXTS.amountInvalid };
  if (!/^[\p{L}\p{N} ]{0,50}$/u.test(reference)) return { notice: SEND_TEXTS.referenceInvalid };
  return { from, to, amount, reference };
}

function paramOf(req: Request): string {
  const v: unknown = req.params.paymentID;
  return typeof v === 'string' ? v : '';
}

function ok(body: object): Answer {
  return { status: 200, body: { statusCode: OK, statusMessage: 'Successful', ...body } };
}

/**
 * A transaction as Search Transaction answers it: `from` is bKash's customer (the sender; for a payout, the wallet
 * paid), `to` the organisation's number.
 */
function searchBody(t: {
  trxID: string;
  type: string;
  amount: string;
  from: string;
  to: string;
  reference: string;
  initiatedAt: number;
  completedAt: number;
}): object {
  return {
    trxID: t.trxID,
    transactionStatus: 'Completed',
    transactionType: t.type,
    amount: t.amount,
    currency: 'BDT',
    customerMsisdn: t.from,
    organizationShortCode: t.to,
    transactionReference: t.reference,
    initiationTime: bkashTime(t.initiatedAt),
    completedTime: bkashTime(t.completedAt),
  };
}

/**
 * An answer as the Checkout API (payouts) words it: a success without statusCode and statusMessage, an error as
 * errorCode and errorMessage; any other body as it is.
 */
function checkoutApiBody(body: object): object {
  if (!('statusCode' in body)) return body;
  const { statusCode, statusMessage, ...rest } = body as { statusCode: unknown; statusMessage?: unknown };
  return statusCode === OK ? rest : { errorCode: statusCode, errorMessage: statusMessage };
}

/** bKash's error: HTTP 200 with statusCode and statusMessage. */
function bkashError(e: { statusCode: string; statusMessage: string }): Answer {
  return { status: 200, body: { statusCode: e.statusCode, statusMessage: e.statusMessage } };
}

/** An agreement as execute, status and cancel answer it. */
function agreementBody(a: Agreement): object {
  return {
    agreementID: a.agreementID,
    agreementStatus: a.status,
    payerReference: a.payerReference,
    customerMsisdn: a.wallet,
    agreementCreateTime: bkashTime(a.createdAt),
    agreementExecuteTime: bkashTime(a.executedAt),
    ...(a.voidedAt === null ? {} : { agreementVoidTime: bkashTime(a.voidedAt) }),
  };
}

function refundBody(p: Payment, r: SimulatedRefund): object {
  return {
    completedTime: bkashTime(r.completedAt),
    transactionStatus: 'Completed',
    originalTrxID: p.trxID,
    refundTrxID: r.refundTrxID,
    amount: r.amount,
    currency: 'BDT',
    charge: '0.00',
  };
}

/**
 * A file of the project, read once: next to this file in the sources, else found in `relative` under a folder above
 * it (the built server in dist/ runs from the project, whose sources are there). null when it is nowhere.
 */
function projectFile(relative: string): () => Buffer | null {
  let read: Buffer | null | undefined;
  return () => {
    if (read !== undefined) return read;
    const candidates = [path.join(import.meta.dirname, path.basename(relative))];
    for (let dir = import.meta.dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) candidates.push(path.join(dir, relative));
    const found = candidates.find((c) => existsSync(c));
    read = found ? readFileSync(found) : null;
    return read;
  };
}
/** The pages' stylesheet, and the Bengali font it names (relative to itself, so found wherever the router is mounted). */
const ASSETS: Record<string, { type: string; file: () => Buffer | null }> = {
  'checkout.css': { type: 'text/css; charset=utf-8', file: projectFile('scripts/bkash-simulator/checkout.css') },
  'bengali.woff2': { type: 'font/woff2', file: projectFile('public/fonts/noto-sans-bengali-400.woff2') },
};

/** A simulator of its own on 127.0.0.1 and a free port (tests; several app instances sharing one bKash). */
export async function startSimulator(
  opts: SimulatorOptions,
  listen: { port?: number; control?: boolean } = {},
): Promise<{ baseUrl: string; sim: BkashSimulator; close(): Promise<void> }> {
  const sim = new BkashSimulator(opts);
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  app.use(sim.router({ control: listen.control ?? true, publicUrl: baseUrl }));
  return {
    baseUrl,
    sim,
    async close() {
      sim.reset();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, sim.settled()]);
    },
  };
}
