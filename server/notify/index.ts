import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';

export type Channel = 'sms' | 'email';
export type CodeMessage = { channel: Channel; to: string; purpose: 'account' | 'reset' | 'claim'; code: string; text: string };

export interface Notifier {
  sendCode(msg: CodeMessage): Promise<void>;
}

/**
 * Development transport: every message goes to the outbox table and to the log as one JSON line
 * with `to`, `purpose` and `code`. This is the one place a code is ever logged, on purpose.
 */
export function logNotifier(db: Db, log: Logger): Notifier {
  return {
    async sendCode(msg) {
      await db.query('INSERT INTO outbox (channel, recipient, purpose, body, sent_at) VALUES ($1, $2, $3, $4, now())', [msg.channel, msg.to, msg.purpose, msg.text]);
      log.info({ notify: 'log', channel: msg.channel, to: msg.to, purpose: msg.purpose, code: msg.code }, 'one-time code (log transport)');
    },
  };
}
