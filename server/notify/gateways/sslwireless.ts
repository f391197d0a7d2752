/**
 * SSL Wireless's ISMS Plus API v3 (docs/rules/messages.md#7-sms-gateways): the wire format, shared with its stand-in
 * (scripts/sms-gateways/), and the adapter. One SMS is `POST <base>/api/v3/send-sms` with a JSON body; the answer is
 * JSON with a top-level status code and, per number, an `smsinfo` entry. The gateway refuses a `csms_id` it has taken
 * the same day (4023), so a repeated try with the same reference never sends the SMS twice. It has no delivery report
 * in its API.
 */
import { z } from 'zod';
import { byHttpStatus, exchange, jsonOf, msisdn, type SendOutcome, type SmsGateway } from './types.ts';

export const SSL_SEND_PATH = '/api/v3/send-sms';
export const SSL_DEFAULT_URL = 'https://smsplus.sslwireless.com';

/** The request: the API token, the sender (SID), the number as `8801XXXXXXXXX`, the text (UTF-8), our reference. */
export const SslSendRequest = z.object({
  api_token: z.string().min(1).max(50),
  sid: z.string().min(1).max(20),
  msisdn: z.string().max(16),
  sms: z.string().min(1),
  csms_id: z.string().min(1).max(20),
});
export type SslSendRequest = z.infer<typeof SslSendRequest>;

/** One number's verdict: `sms_status` SUCCESS, or INVALID, DUPLICATE, BLOCKED …; `sms_type` EN or BN (Unicode). */
export const SslSmsInfo = z.object({
  sms_status: z.string(),
  status_message: z.string().optional(),
  msisdn: z.string().optional(),
  sms_type: z.string().optional(),
  sms_body: z.string().optional(),
  csms_id: z.string().optional(),
  reference_id: z.union([z.string(), z.number()]).optional(),
});

export const SslAnswer = z.object({
  status: z.string(),
  status_code: z.coerce.number().int(),
  error_message: z.string().nullish(),
  smsinfo: z.array(SslSmsInfo).nullish(),
});
export type SslAnswer = z.infer<typeof SslAnswer>;

/** The documented top-level codes: 200 is the request processed; every other is FAILED with its reason. */
export const SSL_CODES = {
  200: 'success',
  4001: 'unauthorized (API token)',
  4002: 'SID not permitted',
  4003: 'IP not allowed',
  4004: 'endpoint not found',
  4005: 'invalid request format',
  4020: 'invalid csms_id',
  4022: 'required parameter missing',
  4023: 'duplicate csms_id',
  4025: 'invalid MSISDN',
  4026: 'blocked MSISDN',
  4027: 'message too long',
  4028: 'invalid message data',
  4029: 'too many requests',
  4030: 'too many MSISDNs in one request',
  4031: 'TPS exceeded',
  5000: 'unknown error',
} as const satisfies Record<number, string>;

/** Codes that say "not now": the message was not taken and may go elsewhere. */
const TRANSIENT = new Set([4029, 4031]);
/** The gateway's own "unknown error": it may have taken the message. */
const UNKNOWN = new Set([5000]);
const DUPLICATE = 4023;

const reasonOf = (code: number): string => `${code} ${(SSL_CODES as Record<number, string>)[code] ?? 'undocumented code'}`;

/**
 * What an answer of send-sms means for the SMS of `csmsId`. A duplicate csms_id (4023, or DUPLICATE in its smsinfo)
 * means an earlier try with this reference was taken: accepted, without the gateway's reference.
 */
export function sslOutcome(answer: SslAnswer, csmsId: string): SendOutcome {
  const code = answer.status_code;
  if (code === DUPLICATE) return { kind: 'accepted', ref: null };
  if (code !== 200) {
    if (TRANSIENT.has(code)) return { kind: 'transient', reason: reasonOf(code) };
    if (UNKNOWN.has(code)) return { kind: 'unknown', reason: reasonOf(code) };
    return { kind: 'refused', reason: reasonOf(code) };
  }
  const info = answer.smsinfo?.find((i) => i.csms_id === undefined || i.csms_id === csmsId) ?? answer.smsinfo?.[0];
  if (!info) return answer.status === 'SUCCESS' ? { kind: 'accepted', ref: null } : { kind: 'unknown', reason: 'no smsinfo' };
  const status = info.sms_status.toUpperCase();
  if (status === 'SUCCESS') return { kind: 'accepted', ref: info.reference_id === undefined ? null : String(info.reference_id) };
  if (status === 'DUPLICATE' && /csms/i.test(info.status_message ?? '')) return { kind: 'accepted', ref: null };
  return { kind: 'refused', reason: `sms_status ${status}` };
}

export function sslWirelessGateway(o: { baseUrl: string; apiToken: string; sid: string }): SmsGateway {
  const url = `${o.baseUrl.replace(/\/+$/, '')}${SSL_SEND_PATH}`;
  return {
    name: 'sslwireless',
    dedupes: true,
    async send(sms, timeoutMs) {
      const body: SslSendRequest = { api_token: o.apiToken, sid: o.sid, msisdn: msisdn(sms.to), sms: sms.text, csms_id: sms.reference };
      const r = await exchange(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) },
        timeoutMs,
      );
      if (!r.ok) return r.outcome;
      const answer = SslAnswer.safeParse(jsonOf(r.body));
      if (answer.success) return sslOutcome(answer.data, sms.reference);
      return byHttpStatus(r.status) ?? { kind: 'unknown', reason: `unreadable answer (HTTP ${r.status})` };
    },
  };
}
