/**
 * The generic gateway (docs/rules/messages.md#7-sms-gateways): `POST {to, message}` as JSON to SMS_GATEWAY_URL with
 * SMS_GATEWAY_KEY as a bearer token, for a gateway put behind that contract. A 2xx is accepted; it gives no reference
 * and no delivery report.
 */
import { byHttpStatus, exchange, type SmsGateway } from './types.ts';

export function genericGateway(url: string, key: string | undefined): SmsGateway {
  return {
    name: 'generic',
    dedupes: false,
    async send(sms, timeoutMs) {
      const r = await exchange(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body: JSON.stringify({ to: sms.to, message: sms.text }),
        },
        timeoutMs,
      );
      if (!r.ok) return r.outcome;
      return byHttpStatus(r.status) ?? { kind: 'accepted', ref: null };
    },
  };
}
