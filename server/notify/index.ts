import { createTransport } from 'nodemailer';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { MessageKind } from '../../shared/messages/kinds.ts';
import type { SendOutcome, SmsGateway } from './gateways/types.ts';

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
  /**
   * Our reference for this message, the same for each of its tries (a player's message's `sms_reference`): an SMS
   * gateway that refuses a reference it has taken then tells a repeated try from a new one. Unset: one of its own.
   */
  reference?: string;
};

export interface Notifier {
  sendCode(msg: CodeMessage): Promise<void>;
  /** Sends a message without a code: stored whole in the outbox, never written to the log. */
  send(msg: Message): Promise<void>;
}

/**
 * A send that failed. `outcome`: refused for good, not taken for now (transient), or unknown (it may have gone out);
 * `retrySafe`: a repeated try with the same reference cannot send it twice (docs/rules/messages.md#7-sms-gateways).
 */
export class NotifyError extends Error {
  readonly outcome: 'refused' | 'transient' | 'unknown';
  readonly retrySafe: boolean;
  constructor(message: string, o: ErrorOptions & { outcome?: NotifyError['outcome']; retrySafe?: boolean } = {}) {
    super(message, o.cause === undefined ? undefined : { cause: o.cause });
    this.outcome = o.outcome ?? 'transient';
    this.retrySafe = o.retrySafe ?? false;
  }
}

/**
 * Development transport: every message goes to the outbox table and to the log as one JSON line
 * with `to`, `purpose` and `code`. This is the one place a code is ever logged, on purpose. A message without a code
 * (send) is logged with `to` and `purpose` only; its text is in the outbox.
 */
const LOGGED = `INSERT INTO outbox (channel, recipient, purpose, body, sent_at, gateway, state, state_at)
  VALUES ($1, $2, $3, $4, now(), 'log', 'sent', now())`;

export function logNotifier(db: Db, log: Logger): Notifier {
  return {
    async sendCode(msg) {
      await db.query(LOGGED, [msg.channel, msg.to, msg.purpose, msg.text]);
      log.info({ notify: 'log', channel: msg.channel, to: msg.to, purpose: msg.purpose, code: msg.code }, 'one-time code (log transport)');
    },
    async send(msg) {
      await db.query(LOGGED, [msg.channel, msg.to, msg.purpose, msg.text]);
      log.info({ notify: 'log', channel: msg.channel, to: msg.to, purpose: msg.purpose }, 'message (log transport)');
    },
  };
}

/** Something that sends one e-mail (nodemailer's transporter has this shape). */
export type Mailer = { sendMail(m: { from: string; to: string; replyTo?: string; subject: string; text: string }): Promise<unknown> };

export type LiveOptions = {
  mailer: Mailer;
  mailFrom: string;
  /** The SMS gateway that sends, and the one a send it could not make for now goes to (docs/rules/messages.md#7-sms-gateways). */
  sms: { primary: SmsGateway; fallback?: SmsGateway | undefined };
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

/** A reference of our own for an SMS: at most 20 letters and digits, as SSL Wireless's csms_id allows. */
export const newReference = (): string => `bh${randomBytes(9).toString('hex')}`;

type Attempt = { gateway: SmsGateway; outcome: SendOutcome };

/**
 * Live transport: e-mail through SMTP (nodemailer), SMS through the configured gateway, and through the fallback
 * gateway when the first did not take it for now (docs/rules/messages.md#7-sms-gateways). The outbox keeps a record
 * of each send — the text with the code blanked out, the gateway, its reference, its state — and neither the log nor
 * the table ever holds a live code.
 */
export function liveNotifier(db: Db, log: Logger, o: LiveOptions): Notifier {
  const byName = new Map([o.sms.primary, ...(o.sms.fallback ? [o.sms.fallback] : [])].map((g) => [g.name, g]));

  /**
   * The gateways to try for a reference, in order: the first and the fallback; only the one of an earlier try whose
   * outcome is unknown when there was one (another gateway could then send it a second time).
   */
  async function route(reference: string, rowId: number, given: boolean): Promise<SmsGateway[]> {
    if (given) {
      const earlier = await db.one<{ gateway: string }>(
        `SELECT gateway FROM outbox WHERE reference = $1 AND id <> $2 AND state = 'unknown' ORDER BY id DESC LIMIT 1`,
        [reference, rowId],
      );
      const pinned = earlier ? byName.get(earlier.gateway as SmsGateway['name']) : undefined;
      if (earlier) return pinned ? [pinned] : [];
    }
    return [...byName.values()];
  }

  async function sendSms(msg: Message | CodeMessage, rowId: number, reference: string, given: boolean): Promise<Attempt[]> {
    const attempts: Attempt[] = [];
    for (const gateway of await route(reference, rowId, given)) {
      const outcome = await gateway.send({ to: msg.to, text: msg.text, reference }, o.timeoutMs);
      attempts.push({ gateway, outcome });
      // Only a send the gateway did not take (and said so, or never reached it) goes on to the next gateway.
      if (outcome.kind !== 'transient') break;
    }
    return attempts;
  }

  /** Records the message (as stored) in the outbox, sends it within the timeout, and logs what happened (never the text). */
  async function transmit(msg: Message | CodeMessage, stored: string, what: string, given: string | undefined): Promise<void> {
    const reference = given ?? newReference();
    const row = await db.one<{ id: number }>(
      'INSERT INTO outbox (channel, recipient, purpose, body, reference) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [msg.channel, msg.to, msg.purpose, stored, msg.channel === 'sms' ? reference : null],
    );
    const id = row?.id as number;
    const where = { notify: 'live', channel: msg.channel, to: msg.to, purpose: msg.purpose, outbox: id };
    if (msg.channel === 'email') {
      try {
        await sendMailWithin(o.mailer, { from: o.mailFrom, to: msg.to, subject: msg.subject, text: msg.text }, o.timeoutMs);
      } catch (err) {
        await db.query(`UPDATE outbox SET gateway = 'smtp', state = 'failed', state_at = now(), error = $2 WHERE id = $1`, [
          id,
          (err as Error).message.slice(0, 200),
        ]);
        log.error({ ...where, error: (err as Error).message }, `${what} could not be sent`);
        throw new NotifyError('could not send the email', { cause: err });
      }
      await db.query(`UPDATE outbox SET gateway = 'smtp', state = 'sent', sent_at = now(), state_at = now() WHERE id = $1`, [id]);
      log.info(where, `${what} sent`);
      return;
    }
    const attempts = await sendSms(msg, id, reference, given !== undefined);
    const last = attempts.at(-1);
    const failures = attempts.flatMap((a) => (a.outcome.kind === 'accepted' ? [] : [`${a.gateway.name}: ${a.outcome.reason}`]));
    const error = failures.length ? failures.join('; ').slice(0, 300) : null;
    if (last?.outcome.kind === 'accepted') {
      await db.query(
        `UPDATE outbox SET gateway = $2, gateway_ref = $3, state = 'sent', sent_at = now(), state_at = now(), error = $4 WHERE id = $1`,
        [id, last.gateway.name, last.outcome.ref, error],
      );
      log.info({ ...where, gateway: last.gateway.name, ...(error ? { earlier: error } : {}) }, `${what} sent`);
      return;
    }
    const outcome = last?.outcome.kind ?? 'unknown';
    await db.query(`UPDATE outbox SET gateway = $2, state = $3, state_at = now(), error = $4 WHERE id = $1`, [
      id,
      last?.gateway.name ?? null,
      outcome === 'unknown' ? 'unknown' : 'failed',
      error ?? 'no gateway may send it',
    ]);
    log.error({ ...where, gateway: last?.gateway.name, error }, `${what} could not be sent`);
    throw new NotifyError('could not send the sms', {
      outcome,
      retrySafe: last?.gateway.dedupes ?? false,
    });
  }
  return {
    sendCode: (msg) => transmit(msg, msg.text.split(msg.code).join('•'.repeat(msg.code.length)), 'one-time code', undefined),
    send: (msg) => transmit(msg, msg.text, 'message', msg.reference),
  };
}
