/**
 * Our client of bKash's Tokenized Checkout API v1.2.0-beta (docs/rules/bkash.md): plain undici, answers parsed with
 * zod (wire.ts), a timeout on every call, one token per instance. The same code talks to bKash (sandbox, live) and to
 * our simulator (simulator.ts); only the base URL differs.
 *
 * Errors (docs/rules/bkash.md#5-what-the-client-reports):
 *   'refused' — bKash answered with a statusCode other than "0000": nothing was done;
 *   'unknown' — no usable answer (timeout, connection lost, HTTP 5xx or another status without a bKash answer, a body
 *               that does not parse): for execute and refund the outcome is NOT known and must be asked again later
 *               (status, refundStatus). The client never repeats execute or refund itself.
 * No secret (app secret, password, token) is ever put in an error message; the client logs nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { z } from 'zod';
import {
  AgreementAnswer,
  AgreementCreateAnswer,
  AnswerStatus,
  amountText,
  CODES,
  CreateAnswer,
  ExecuteAnswer,
  GrantAnswer,
  MODES,
  NO_REFUND_CODE,
  NOT_FOUND_CODE,
  OK,
  PATHS,
  RefundAnswer,
  SearchAnswer,
  StatusAnswer,
  bkashTimeToIso,
  wholeTaka,
} from './wire.ts';

export type BkashCredentials = { baseUrl: string; appKey: string; appSecret: string; username: string; password: string };
export type BkashClientOptions = BkashCredentials & {
  /** Per call, for the answer's headers and its whole body alike (default 10 000). */
  timeoutMs?: number;
  /** Further tries of a call that is safe to repeat (grant, create, status, refundStatus) after no usable answer (default 2). */
  retries?: number;
  /** The pause before the first repeat, doubled for each further one (default 200 ms). */
  retryDelayMs?: number;
  /** The clock of the token's lifetime (tests move it). */
  now?: () => number;
};

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

export type BkashOperation =
  | 'grant'
  | 'create'
  | 'execute'
  | 'status'
  | 'refund'
  | 'refundStatus'
  | 'searchTransaction'
  | 'createAgreement'
  | 'executeAgreement'
  | 'agreementStatus'
  | 'agreementCancel';

export class BkashError extends Error {
  override readonly name = 'BkashError';
  constructor(
    /** 'refused': bKash answered with a statusCode other than "0000"; 'unknown': no usable answer. */
    readonly kind: 'refused' | 'unknown',
    /** The call that failed. */
    readonly op: BkashOperation,
    /** bKash's statusCode (refused), else null. */
    readonly code: string | null,
    message: string,
    /** The HTTP status of the answer, null without one. */
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/** Calls bKash may repeat without harm (docs/rules/bkash.md#5-what-the-client-reports). */
const REPEATABLE: ReadonlySet<BkashOperation> = new Set([
  'grant',
  'create',
  'status',
  'refundStatus',
  'searchTransaction',
  'createAgreement',
  'agreementStatus',
  // A second cancel of a cancelled agreement is bKash's 2053, which cancelAgreement reads as done.
  'agreementCancel',
]);
/** A token is granted anew when less than this is left of its life. */
const TOKEN_MARGIN_MS = 5 * 60_000;

type Token = { value: string; expiresAt: number };
/** One HTTP exchange: its status and the parsed JSON body (undefined when it was no JSON). */
type Exchange = { status: number; body: unknown };

export class BkashClient {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly now: () => number;
  private readonly agent: Agent;
  private token: Token | null = null;
  private granting: Promise<Token> | null = null;

  constructor(private readonly opts: BkashClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.retries = opts.retries ?? 2;
    this.retryDelayMs = opts.retryDelayMs ?? 200;
    this.now = opts.now ?? Date.now;
    this.agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: this.timeoutMs } });
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
    try {
      return agreement(await this.call('agreementCancel', PATHS.agreementCancel, { agreementID }, AgreementAnswer));
    } catch (err) {
      if (err instanceof BkashError && err.kind === 'refused' && err.code === CODES.agreementCancelled.statusCode)
        return { agreementID, agreementStatus: 'Cancelled', customerMsisdn: null, payerReference: null };
      throw err;
    }
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
    try {
      return refund(await this.call('refundStatus', PATHS.refund, { paymentID: p.paymentID, trxID: p.trxID }, RefundAnswer));
    } catch (err) {
      if (err instanceof BkashError && err.kind === 'refused' && err.code === NO_REFUND_CODE) return null;
      throw err;
    }
  }

  /**
   * A transaction of the merchant's wallet by its TrxID (null: bKash knows none, `2033`). Only asks: safe to repeat.
   */
  async searchTransaction(trxID: string): Promise<BkashTransaction | null> {
    try {
      return transaction(await this.call('searchTransaction', PATHS.searchTransaction, { trxID }, SearchAnswer));
    } catch (err) {
      if (err instanceof BkashError && err.kind === 'refused' && err.code === NOT_FOUND_CODE) return null;
      throw err;
    }
  }

  /** Ends the client's connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  // ---- the token ------------------------------------------------------------------------------------------------------

  /** The instance's token: granted on first use and anew when < 5 minutes of its life are left; one grant at a time. */
  private async currentToken(): Promise<Token> {
    if (this.token && this.token.expiresAt - this.now() > TOKEN_MARGIN_MS) return this.token;
    this.granting ??= this.grant().finally(() => (this.granting = null));
    return this.granting;
  }

  private async grant(): Promise<Token> {
    const started = this.now();
    const a = await this.repeatable('grant', () =>
      this.exchange(
        'grant',
        PATHS.grant,
        { app_key: this.opts.appKey, app_secret: this.opts.appSecret },
        { username: this.opts.username, password: this.opts.password },
      ).then((x) => parseAnswer('grant', x, GrantAnswer)),
    );
    this.token = { value: a.id_token, expiresAt: started + a.expires_in * 1000 };
    return this.token;
  }

  // ---- calls ----------------------------------------------------------------------------------------------------------

  /** A call with the token: repeated when safe; answered HTTP 401 (token expired or unknown), granted anew and tried once more. */
  private async call<S extends z.ZodType>(
    op: Exclude<BkashOperation, 'grant'>,
    path: string,
    body: object,
    schema: S,
  ): Promise<z.output<S>> {
    const once = async (): Promise<z.output<S>> => {
      let token = await this.currentToken();
      let x = await this.exchange(op, path, body, { authorization: token.value, 'x-app-key': this.opts.appKey });
      if (x.status === 401) {
        // Only the token that failed is dropped: a concurrent caller may already have granted a new one.
        if (this.token === token) this.token = null;
        token = await this.currentToken();
        x = await this.exchange(op, path, body, { authorization: token.value, 'x-app-key': this.opts.appKey });
      }
      return parseAnswer(op, x, schema);
    };
    return REPEATABLE.has(op) ? this.repeatable(op, once) : once();
  }

  /** Repeats `fn` after 'unknown' failures, `retries` times at most, with a short, growing pause. */
  private async repeatable<T>(op: BkashOperation, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        // A grant that failed inside another call was already repeated by the grant itself.
        if (!(err instanceof BkashError) || err.kind !== 'unknown' || err.op !== op || attempt >= this.retries) throw err;
        await sleep(this.retryDelayMs * 2 ** attempt);
      }
    }
  }

  /** One POST: its status and JSON body; no answer at all (timeout, connection lost) is an 'unknown' BkashError. */
  private async exchange(op: BkashOperation, path: string, body: object, headers: Record<string, string>): Promise<Exchange> {
    const t = this.timeoutMs;
    try {
      const res = await request(`${this.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify(body),
        dispatcher: this.agent,
        headersTimeout: t,
        bodyTimeout: t,
        signal: AbortSignal.timeout(t),
      });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, body: json };
    } catch (err) {
      // The cause's name only: undici's errors carry no header, but nothing of the request is repeated here at all.
      // (Read by shape: an abort's DOMException may come from another realm than this module's Error.)
      const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; code?: unknown };
      const name = typeof e.code === 'string' && e.name === 'Error' ? e.code : typeof e.name === 'string' ? e.name : 'error';
      const what = /timeout|abort/i.test(name) ? `no answer within ${t} ms` : `no answer (${name})`;
      throw new BkashError('unknown', op, null, `bKash ${op}: ${what}`);
    }
  }
}

/**
 * An answer → the success schema's value; a bKash error (statusCode other than "0000") → 'refused'; anything else
 * (HTTP 5xx, 401 after a fresh token, a body that is no bKash answer) → 'unknown'.
 */
function parseAnswer<S extends z.ZodType>(op: BkashOperation, x: Exchange, schema: S): z.output<S> {
  const st = AnswerStatus.safeParse(x.body);
  if (st.success && x.status < 500 && x.status !== 401) {
    const code = st.data.statusCode ?? st.data.errorCode;
    if (code !== undefined && code !== OK) {
      const message = st.data.statusMessage ?? st.data.errorMessage ?? '';
      throw new BkashError('refused', op, code, `bKash ${op} refused: ${code} ${message}`.trim(), x.status);
    }
  }
  if (x.status < 200 || x.status >= 300) throw new BkashError('unknown', op, null, `bKash ${op}: HTTP ${x.status}`, x.status);
  const parsed = schema.safeParse(x.body);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(body)'))].slice(0, 5).join(', ');
    throw new BkashError('unknown', op, null, `bKash ${op}: an answer that does not parse (${fields})`, x.status);
  }
  return parsed.data;
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

function transaction(a: z.output<typeof SearchAnswer>): BkashTransaction {
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
