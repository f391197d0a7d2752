import { pino, type Logger } from 'pino';

/** JSON logs to stdout; secrets are redacted wherever they appear in a logged object. */
export function createLogger(level: string): Logger {
  return pino({
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
      ],
      censor: '[redacted]',
    },
  });
}
export type { Logger };
