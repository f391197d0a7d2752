import { pino, type DestinationStream, type Logger } from 'pino';

/** JSON logs to stdout; secrets are redacted wherever they appear in a logged object. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.new_password',
        '*.confirm_password',
        '*.otp',
        '*.access',
        '*.refresh',
        '*.token',
        '*.secret_number',
        // An NID number is identity data (docs/rules/accounts-and-codes.md#13-identity-details): never in a log.
        '*.nid',
        // So is a date of birth (docs/rules/accounts-and-codes.md#2-sign-up).
        '*.date_of_birth',
        // The SMS gateways' credentials, and a request body's text (a code) should one ever be logged
        // (docs/rules/messages.md#7-sms-gateways).
        '*.api_token',
        '*.api_key',
        '*.sms',
        '*.msg',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
