/**
 * What our two bKash clients share (docs/rules/bkash.md#2-the-token, #5-what-the-client-reports): the token, one HTTP
 * exchange with its timeout, the repeats of the calls that are safe to repeat, and the reading of an answer into a
 * value or a BkashError. BkashClient (client.ts, the Tokenized Checkout) and BkashPayouts (payouts.ts, the Checkout
 * API's B2C payouts) are this with their own grant and calls: plain undici, answers parsed with zod (wire.ts).
 *
 * Errors:
 *   'refused' — bKash answered with a statusCode (or errorCode) other than "0000": nothing was done;
 *   'unknown' — no usable answer (timeout, connection lost, HTTP 5xx or another status without a bKash answer, a body
 *               that does not parse): for a call that moves money the outcome is NOT known and must be asked again
 *               later. Such a call is never repeated here.
 * No secret (app secret, password, token) is ever put in an error message; nothing is logged.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { z } from 'zod';
import { AnswerStatus, OK } from './wire.ts';

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
  | 'agreementCancel'
  // Payouts (docs/rules/bkash.md#9-payouts-b2c).
  | 'payoutGrant'
  | 'b2cPayment'
  | 'organizationBalance'
  | 'payoutSearch'
  | 'intraAccountTransfer';

export class BkashError extends Error {
  override readonly name = 'BkashError';
  readonly kind: 'refused' | 'unknown';
  readonly op: BkashOperation;
  readonly code: string | null;
  readonly httpStatus: number | null;
  constructor(
    /** 'refused': bKash answered with a statusCode other than "0000"; 'unknown': no usable answer. */
    kind: 'refused' | 'unknown',
    /** The call that failed. */
    op: BkashOperation,
    /** bKash's statusCode (refused), else null. */
    code: string | null,
    message: string,
    /** The HTTP status of the answer, null without one. */
    httpStatus: number | null = null,
  ) {
    super(message);
    this.kind = kind;
    this.op = op;
    this.code = code;
    this.httpStatus = httpStatus;
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
  // Payouts: only the grant and what only reads; a payout or a transfer is never repeated.
  'payoutGrant',
  'organizationBalance',
  'payoutSearch',
]);
/** A token is granted anew when less than this is left of its life. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/** The grant of one API: its operation, its path, and the answer it accepts (at least a token and its life). */
export type BkashGrant = {
  op: 'grant' | 'payoutGrant';
  path: string;
  schema: z.ZodType<{ id_token: string; expires_in: number }>;
};
/** Every call but the grants. */
export type BkashCall = Exclude<BkashOperation, BkashGrant['op']>;

type Token = { value: string; expiresAt: number };
/** One HTTP exchange: its status and the parsed JSON body (undefined when it was no JSON). */
type Exchange = { status: number; body: unknown };

export abstract class BkashTransport {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly now: () => number;
  private readonly agent: Agent;
  private token: Token | null = null;
  private granting: Promise<Token> | null = null;

  private readonly opts: BkashClientOptions;
  private readonly grantBy: BkashGrant;
  protected constructor(opts: BkashClientOptions, grantBy: BkashGrant) {
    this.opts = opts;
    this.grantBy = grantBy;
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.retries = opts.retries ?? 2;
    this.retryDelayMs = opts.retryDelayMs ?? 200;
    this.now = opts.now ?? Date.now;
    this.agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: this.timeoutMs } });
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
    const { op, path, schema } = this.grantBy;
    const a = await this.repeatable(op, () =>
      this.exchange(
        op,
        path,
        { app_key: this.opts.appKey, app_secret: this.opts.appSecret },
        { username: this.opts.username, password: this.opts.password },
      ).then((x) => parseAnswer(op, x, schema)),
    );
    this.token = { value: a.id_token, expiresAt: started + a.expires_in * 1000 };
    return this.token;
  }

  // ---- calls ----------------------------------------------------------------------------------------------------------

  /**
   * A call with the token, a POST of `body` (a GET when it is null): repeated when safe; answered HTTP 401 (token
   * expired or unknown), granted anew and tried once more.
   */
  protected async call<S extends z.ZodType>(op: BkashCall, path: string, body: object | null, schema: S): Promise<z.output<S>> {
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

  /**
   * One POST of `body` (a GET when it is null): its status and JSON body; no answer at all (timeout, connection lost)
   * is an 'unknown' BkashError.
   */
  private async exchange(op: BkashOperation, path: string, body: object | null, headers: Record<string, string>): Promise<Exchange> {
    const t = this.timeoutMs;
    try {
      const res = await request(`${this.base}${path}`, {
        ...(body === null
          ? { method: 'GET', headers: { accept: 'application/json', ...headers } }
          : {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
              body: JSON.stringify(body),
            }),
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
 * `p`'s value, or `instead` when bKash refused it with `code`: an answer that means "none" or "already so" (a search's
 * 2033, a second cancel's 2053), not an error.
 */
export async function unlessRefused<T, U>(p: Promise<T>, code: string, instead: U): Promise<T | U> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof BkashError && err.kind === 'refused' && err.code === code) return instead;
    throw err;
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
