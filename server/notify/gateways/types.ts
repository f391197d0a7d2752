/**
 * What an SMS gateway is to the live notifier (docs/rules/messages.md#7-sms-gateways): one send, answered as accepted
 * (with the gateway's reference), refused for good, not taken for now (transient: it may go to the fallback gateway),
 * or unknown (the request went out and no usable answer came back: it may have been sent).
 */
import { request } from 'undici';

export const SMS_GATEWAYS = ['generic', 'sslwireless', 'alphasms'] as const;
export type SmsGatewayName = (typeof SMS_GATEWAYS)[number];

export type SendOutcome = { kind: 'accepted'; ref: string | null } | { kind: 'refused' | 'transient' | 'unknown'; reason: string };

/** One SMS: the phone as stored (`01` and 9 digits), the text, and our reference for it (at most 20 letters and digits). */
export type Sms = { to: string; text: string; reference: string };

/** A delivery report: delivered, failed, or null while the gateway has no final word. */
export type DeliveryReport = 'delivered' | 'failed' | null;

export interface SmsGateway {
  readonly name: SmsGatewayName;
  /** The gateway refuses a reference it has already taken, so a repeated try with it cannot send the SMS twice. */
  readonly dedupes: boolean;
  send(sms: Sms, timeoutMs: number): Promise<SendOutcome>;
  /** Its delivery report by its own reference; absent where the gateway offers none. */
  report?(ref: string, timeoutMs: number): Promise<DeliveryReport>;
}

/** A phone as stored (`01XXXXXXXXX`) in the international form without `+` (`8801XXXXXXXXX`); anything else as it is. */
export const msisdn = (phone: string): string => (/^01\d{9}$/.test(phone) ? `88${phone}` : phone);

/** A connection that failed with one of these never reached the gateway: nothing was sent. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

const codeOf = (err: unknown): string | undefined => {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
};

export type Exchanged = { ok: true; status: number; body: string } | { ok: false; outcome: SendOutcome };

/**
 * One HTTP exchange with a gateway within `timeoutMs`: its status and body, or what its failure means. A connection
 * refused (or a name not found) reached nothing: transient. A timeout or a connection closed without an answer came
 * after the request may have been written: unknown.
 */
export async function exchange(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<Exchanged> {
  try {
    const res = await request(url, {
      method: init.method,
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { ok: true, status: res.statusCode, body: await res.body.text() };
  } catch (err) {
    const code = codeOf(err);
    if (code && NOT_REACHED.has(code)) return { ok: false, outcome: { kind: 'transient', reason: `not reached (${code})` } };
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return {
      ok: false,
      outcome: { kind: 'unknown', reason: timedOut ? `no answer within ${timeoutMs} ms` : `no answer (${code ?? 'closed'})` },
    };
  }
}

/**
 * What an HTTP status alone says, for an answer whose body is not the gateway's own: 429 and 503 are "not now"
 * (transient), any other 5xx may come after the message was taken (unknown), any other non-2xx is a refusal; null
 * for a 2xx (its body decides).
 */
export function byHttpStatus(status: number): SendOutcome | null {
  if (status >= 200 && status < 300) return null;
  if (status === 429 || status === 503) return { kind: 'transient', reason: `HTTP ${status}` };
  if (status >= 500) return { kind: 'unknown', reason: `HTTP ${status}` };
  return { kind: 'refused', reason: `HTTP ${status}` };
}

/** A body as JSON, or undefined when it is not JSON. */
export function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
