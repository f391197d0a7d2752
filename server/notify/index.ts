import { createTransport } from 'nodemailer';
import { request } from 'undici';
import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { MessageKind } from '../../shared/messages/kinds.ts';

export type Channel = 'sms' | 'email';
export type CodeMessage = {
  channel: Channel;
  to: string;
  purpose: 'account' | 'reset' | 'claim';
  code: string;
  subject: string;
  text: string;
};

/**
 * A message that carries no code: a winner's notice (docs/rules/lotteries-and-sales.md#9-the-draw), the notice of a
 * change of an account's phone, e-mail or password to its old contacts (docs/rules/accounts-and-codes.md#11-profile),
 * or a player's message of one of the kinds of docs/rules/messages.md.
 */
export type Message = {
  channel: Channel;
  to: string;
  purpose: 'winner' | 'account_changed' | 'signup_attempt' | MessageKind;
  subject: string;
  text: string;
};

export interface Notifier {
  sendCode(msg: CodeMessage): Promise<void>;
  /** Sends a message without a code: stored whole in the outbox, never written to the log. */
  send(msg: Message): Promise<void>;
}

export class NotifyError extends Error {}

/**
 * Development transport: every message goes to the outbox table and to the log as one JSON line
 * with `to`, `purpose` and `code`. This is the one place a code is ever logged, on purpose. A message without a code
 * (send) is logged with `to` and `purpose` only; its text is in the outbox.
 */
export function logNotifier(db: Db, log: Logger): Notifier {
  return {
    async sendCode(msg) {
      await db.query('INSERT INTO outbox (channel, recipient, purpose, body, sent_at) VALUES ($1, $2, $3, $4, now())', [
        msg.channel,
        msg.to,
        msg.purpose,
        msg.text,
      ]);
      log.info({ notify: 'log', channel: msg.channel, to: msg.to, purpose: msg.purpose, code: msg.code }, 'one-time code (log transport)');
    },
    async send(msg) {
      await db.query('INSERT INTO outbox (channel, recipient, purpose, body, sent_at) VALUES ($1, $2, $3, $4, now())', [
        msg.channel,
        msg.to,
        msg.purpose,
        msg.text,
      ]);
      log.info({ notify: 'log', channel: msg.channel, to: msg.to, purpose: msg.purpose }, 'message (log transport)');
    },
  };
}

/** Something that sends one e-mail (nodemailer's transporter has this shape). */
export type Mailer = { sendMail(m: { from: string; to: string; replyTo?: string; subject: string; text: string }): Promise<unknown> };

export type LiveOptions = {
  mailer: Mailer;
  mailFrom: string;
  sms: { url: string; key: string | undefined };
  /** How long one e-mail or SMS may take before the send fails (NOTIFY_TIMEOUT_MS). */
  timeoutMs: number;
};

/**
 * The SMTP transporter of SMTP_URL (smtp:// or smtps://, credentials in the URL). nodemailer waits up to 2 minutes
 * for a connection and 10 for a silent socket by default; here each wait is NOTIFY_TIMEOUT_MS.
 */
export const smtpMailer = (url: string, timeoutMs: number): Mailer =>
  createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });

/** The mail sent, or a NotifyError once timeoutMs have passed (the transporter gives up on its own timeouts). */
export async function sendMailWithin(mailer: Mailer, mail: Parameters<Mailer['sendMail']>[0], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotifyError(`the mail server did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([mailer.sendMail(mail), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Live transport: e-mail through SMTP (nodemailer), SMS through an HTTP gateway that takes
 * `POST {to, message}` as JSON with the key as a bearer token. The outbox keeps a record of each message with
 * the code blanked out; neither the log nor the table ever holds a live code.
 */
export function liveNotifier(db: Db, log: Logger, o: LiveOptions): Notifier {
  /** Records the message (as stored) in the outbox, sends it within the timeout, and logs what happened (never the text). */
  async function transmit(msg: Message | CodeMessage, stored: string, what: string): Promise<void> {
    const row = await db.one<{ id: number }>(
      'INSERT INTO outbox (channel, recipient, purpose, body) VALUES ($1, $2, $3, $4) RETURNING id',
      [msg.channel, msg.to, msg.purpose, stored],
    );
    try {
      if (msg.channel === 'email') {
        await sendMailWithin(o.mailer, { from: o.mailFrom, to: msg.to, subject: msg.subject, text: msg.text }, o.timeoutMs);
      } else {
        const res = await request(o.sms.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(o.sms.key ? { authorization: `Bearer ${o.sms.key}` } : {}) },
          body: JSON.stringify({ to: msg.to, message: msg.text }),
          signal: AbortSignal.timeout(o.timeoutMs),
        });
        await res.body.dump();
        if (res.statusCode < 200 || res.statusCode >= 300) throw new NotifyError(`SMS gateway answered ${res.statusCode}`);
      }
      await db.query('UPDATE outbox SET sent_at = now() WHERE id = $1', [row?.id]);
      log.info({ notify: 'live', channel: msg.channel, to: msg.to, purpose: msg.purpose }, `${what} sent`);
    } catch (err) {
      log.error(
        { notify: 'live', channel: msg.channel, to: msg.to, purpose: msg.purpose, error: (err as Error).message },
        `${what} could not be sent`,
      );
      throw new NotifyError(`could not send the ${msg.channel}`, { cause: err });
    }
  }
  return {
    sendCode: (msg) => transmit(msg, msg.text.split(msg.code).join('•'.repeat(msg.code.length)), 'one-time code'),
    send: (msg) => transmit(msg, msg.text, 'message'),
  };
}
