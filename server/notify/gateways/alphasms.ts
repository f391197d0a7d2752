/**
 * Alpha SMS (sms.net.bd) (docs/rules/messages.md#7-sms-gateways): the wire format, shared with its stand-in
 * (scripts/sms-gateways/), and the adapter. One SMS is `POST <base>/sendsms` with form fields (UTF-8); the answer is
 * JSON `{error, msg, data}`, `error` 0 with `data.request_id` when the request was taken. Its delivery report is
 * `GET <base>/report/request/<request_id>/?api_key=…`. It has no reference of ours: a repeated try may send twice.
 */
import { z } from 'zod';
import { byHttpStatus, exchange, jsonOf, msisdn, type DeliveryReport, type SendOutcome, type SmsGateway } from './types.ts';

export const ALPHA_SEND_PATH = '/sendsms';
export const alphaReportPath = (requestId: string): string => `/report/request/${encodeURIComponent(requestId)}/`;
export const ALPHA_DEFAULT_URL = 'https://api.sms.net.bd';

/** The form's fields: the API key, the text, the number (`8801XXXXXXXXX`), the approved sender ID if there is one. */
export const AlphaSendRequest = z.object({
  api_key: z.string().min(1),
  msg: z.string().min(1),
  to: z.string().min(1),
  sender_id: z.string().optional(),
});
export type AlphaSendRequest = z.infer<typeof AlphaSendRequest>;

export const AlphaAnswer = z.object({ error: z.coerce.number().int(), msg: z.string().nullish(), data: z.unknown().nullish() });
export type AlphaAnswer = z.infer<typeof AlphaAnswer>;

export const AlphaSendData = z.object({ request_id: z.union([z.number(), z.string()]) });

export const AlphaReportData = z.object({
  request_id: z.union([z.number(), z.string()]).optional(),
  request_status: z.string().optional(),
  request_charge: z.union([z.number(), z.string()]).optional(),
  recipients: z.array(z.object({ number: z.string(), status: z.string(), charge: z.union([z.number(), z.string()]).optional() })),
});
export type AlphaReportData = z.infer<typeof AlphaReportData>;

/** The documented error codes (0: success). */
export const ALPHA_CODES = {
  0: 'success',
  400: 'missing or invalid parameter',
  403: 'permission denied',
  405: 'authorization required',
  410: 'account expired',
  413: 'invalid sender ID',
  414: 'message empty',
  415: 'message too long',
  416: 'no valid number',
  417: 'insufficient balance',
  420: 'content blocked',
  421: 'only registered numbers (account not recharged)',
} as const satisfies Record<number, string>;

/** What an answer of sendsms means: 0 accepted; a documented code refused; any other error not taken (transient). */
export function alphaOutcome(answer: AlphaAnswer): SendOutcome {
  if (answer.error === 0) {
    const data = AlphaSendData.safeParse(answer.data);
    return { kind: 'accepted', ref: data.success ? String(data.data.request_id) : null };
  }
  const meaning = (ALPHA_CODES as Record<number, string>)[answer.error];
  return meaning
    ? { kind: 'refused', reason: `${answer.error} ${meaning}` }
    : { kind: 'transient', reason: `${answer.error} undocumented code` };
}

/** A recipient's status in a report: Delivered; Failed, Undelivered, Rejected, Expired, Blocked; anything else not final. */
export function alphaReport(data: AlphaReportData): DeliveryReport {
  const status = (data.recipients[0]?.status ?? '').trim().toLowerCase();
  if (status === 'delivered') return 'delivered';
  if (['failed', 'undelivered', 'rejected', 'expired', 'blocked'].includes(status)) return 'failed';
  return null;
}

export function alphaSmsGateway(o: { baseUrl: string; apiKey: string; senderId?: string | undefined }): SmsGateway {
  const base = o.baseUrl.replace(/\/+$/, '');
  return {
    name: 'alphasms',
    dedupes: false,
    async send(sms, timeoutMs) {
      const fields: AlphaSendRequest = {
        api_key: o.apiKey,
        msg: sms.text,
        to: msisdn(sms.to),
        ...(o.senderId ? { sender_id: o.senderId } : {}),
      };
      const r = await exchange(
        `${base}${ALPHA_SEND_PATH}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/json' },
          body: new URLSearchParams(fields).toString(),
        },
        timeoutMs,
      );
      if (!r.ok) return r.outcome;
      const answer = AlphaAnswer.safeParse(jsonOf(r.body));
      if (answer.success) return alphaOutcome(answer.data);
      return byHttpStatus(r.status) ?? { kind: 'unknown', reason: `unreadable answer (HTTP ${r.status})` };
    },
    async report(ref, timeoutMs) {
      const r = await exchange(
        `${base}${alphaReportPath(ref)}?${new URLSearchParams({ api_key: o.apiKey })}`,
        { method: 'GET' },
        timeoutMs,
      );
      if (!r.ok) return null;
      const answer = AlphaAnswer.safeParse(jsonOf(r.body));
      if (!answer.success || answer.data.error !== 0) return null;
      const data = AlphaReportData.safeParse(answer.data.data);
      return data.success ? alphaReport(data.data) : null;
    },
  };
}
