/** The SMS gateways the configuration names (docs/rules/messages.md#7-sms-gateways), built once per instance. */
import type { Config } from '../../config.ts';
import { alphaSmsGateway } from './alphasms.ts';
import { genericGateway } from './generic.ts';
import { sslWirelessGateway } from './sslwireless.ts';
import type { SmsGateway, SmsGatewayName } from './types.ts';

export type { SmsGateway, SmsGatewayName } from './types.ts';

type GatewayConfig = Pick<
  Config,
  | 'SMS_GATEWAY_URL'
  | 'SMS_GATEWAY_KEY'
  | 'SSLWIRELESS_URL'
  | 'SSLWIRELESS_API_TOKEN'
  | 'SSLWIRELESS_SID'
  | 'ALPHASMS_URL'
  | 'ALPHASMS_API_KEY'
  | 'ALPHASMS_SENDER_ID'
>;

/** One gateway with its settings (config.ts has checked that NOTIFY_TRANSPORT=live has each one it names). */
export function gatewayOf(name: SmsGatewayName, c: GatewayConfig): SmsGateway {
  switch (name) {
    case 'generic':
      return genericGateway(c.SMS_GATEWAY_URL as string, c.SMS_GATEWAY_KEY);
    case 'sslwireless':
      return sslWirelessGateway({
        baseUrl: c.SSLWIRELESS_URL,
        apiToken: c.SSLWIRELESS_API_TOKEN as string,
        sid: c.SSLWIRELESS_SID as string,
      });
    case 'alphasms':
      return alphaSmsGateway({ baseUrl: c.ALPHASMS_URL, apiKey: c.ALPHASMS_API_KEY as string, senderId: c.ALPHASMS_SENDER_ID });
  }
}

/** The gateway that sends (SMS_GATEWAY) and the one that takes what it could not send for now (SMS_FALLBACK_GATEWAY). */
export function smsGateways(c: GatewayConfig & Pick<Config, 'SMS_GATEWAY' | 'SMS_FALLBACK_GATEWAY'>): {
  primary: SmsGateway;
  fallback?: SmsGateway;
} {
  return {
    primary: gatewayOf(c.SMS_GATEWAY, c),
    ...(c.SMS_FALLBACK_GATEWAY ? { fallback: gatewayOf(c.SMS_FALLBACK_GATEWAY, c) } : {}),
  };
}
