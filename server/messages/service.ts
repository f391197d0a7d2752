/**
 * Players' messages (docs/rules/messages.md): the notifications page and its settings, and the sending of each
 * message's SMS once, on whichever instance takes it first, within a player's daily cap.
 */
import type { z } from 'zod';
import { periodStart } from '../../shared/play-safe/limits.ts';
import { DAILY_SMS_CAP, SWITCHABLE } from '../../shared/messages/kinds.ts';
import type { MessageSettings, MessageSettingsBody, Notification, NotificationsReply } from '../../shared/messages/schemas.ts';
import type { Language } from '../../shared/i18n.ts';
import type { Db } from '../db/index.ts';
import type { Texts } from '../i18n.ts';
import type { Logger } from '../log.ts';
import { repeat, type Stop } from '../repeat.ts';
import { NotifyError, type Notifier } from '../notify/index.ts';
import { writeDueReminders } from './outbox.ts';
import * as q from './queries.ts';
import { renderMessage } from './texts.ts';

/** The unread count as SQL, for a statement that reads it with others (the top bar's, server/play-safe/queries.ts). */
export { unreadCount } from './queries.ts';
/** The settings' choices as SQL, for a statement that reads them with the rest of the user (the profile page's). */
export { CHOICES, type SettingsRow } from './queries.ts';

/** The settings as the API answers them: a kind he never chose is as its default (docs/rules/messages.md). */
export const messageSettingsOf = (s: q.SettingsRow): z.input<typeof MessageSettings> => ({
  language: s.language,
  claim_reminder: s.claim_reminder ?? SWITCHABLE.claim_reminder,
  new_lottery: s.new_lottery ?? SWITCHABLE.new_lottery,
});

/** An SMS the gateway refused is tried this many times in all (a run a minute), then left as failed. */
export const MAX_SMS_TRIES = 5;

export class Messages {
  private readonly d: { db: Db; notifier: Notifier; log: Logger; t: Texts };
  constructor(d: { db: Db; notifier: Notifier; log: Logger; t: Texts }) {
    this.d = d;
  }

  /** `GET /api/v1/notifications/`: a page of the caller's messages in his language, and his counts. */
  async list(userId: number, limit: number, offset: number, lng: Language): Promise<z.input<typeof NotificationsReply>> {
    const [rows, c] = await Promise.all([q.page(this.d.db, userId, limit, offset), q.counts(this.d.db, userId)]);
    const items: z.input<typeof Notification>[] = [];
    for (const r of rows) {
      const m = renderMessage(this.d.t, r.kind, r.params, lng);
      if (m)
        items.push({
          id: r.id,
          kind: r.kind,
          title: m.title,
          text: m.text,
          link: m.link,
          created_at: r.created_at,
          read: r.read_at !== null,
        });
    }
    return { items, total: c.total, unread: c.unread };
  }

  /** `POST /api/v1/notifications/read/`: the caller's messages up to `upTo` (all without it) are read. */
  async markRead(userId: number, upTo: number | undefined): Promise<{ unread: number }> {
    await q.markRead(this.d.db, userId, upTo ?? null);
    return { unread: await q.unread(this.d.db, userId) };
  }

  /** The top bar's bell. */
  unread(userId: number): Promise<number> {
    return q.unread(this.d.db, userId);
  }

  async settings(userId: number): Promise<z.input<typeof MessageSettings>> {
    const s = await q.settings(this.d.db, userId);
    return messageSettingsOf(s ?? { language: 'bn', claim_reminder: null, new_lottery: null });
  }

  async saveSettings(userId: number, body: z.output<typeof MessageSettingsBody>): Promise<z.input<typeof MessageSettings>> {
    await q.saveSettings(this.d.db, userId, body);
    return this.settings(userId);
  }

  /** The claim reminders now due are written (once each, whichever instance comes first); answers how many. */
  remind(): Promise<number> {
    return writeDueReminders(this.d.db);
  }

  /**
   * One run of the sender: up to `limit` waiting SMS are taken (leased) and sent, each in its player's language, by SMS
   * to his phone or else by e-mail. A player's SMS beyond DAILY_SMS_CAP in a Dhaka day are not sent (his notifications
   * page has them). Answers how many were taken.
   */
  async dispatch(limit = 20, now = new Date()): Promise<number> {
    const taken = await q.lease(this.d.db, limit, MAX_SMS_TRIES);
    const dayStart = new Date(periodStart('day', now.getTime()));
    for (const m of taken) await this.deliver(m, dayStart);
    return taken.length;
  }

  private async deliver(m: q.Outgoing, dayStart: Date): Promise<void> {
    const to = m.phone ?? m.email;
    const text = renderMessage(this.d.t, m.kind, m.params, m.language);
    if (!to || !text) {
      await q.finish(this.d.db, m.id, 'none');
      return;
    }
    if (!(await q.reserve(this.d.db, m, dayStart, DAILY_SMS_CAP))) return;
    try {
      await this.d.notifier.send({
        channel: m.phone ? 'sms' : 'email',
        to,
        purpose: m.kind,
        subject: text.title,
        text: m.phone ? text.sms : text.text,
        reference: m.sms_reference,
      });
      await q.finish(this.d.db, m.id, 'sent');
    } catch (err) {
      if (!(err instanceof NotifyError)) throw err;
      // The transport logged why (never the text). A later run tries again until MAX_SMS_TRIES what was not taken for
      // now, and what may have gone out only where the gateway refuses its reference a second time; a refusal, or an
      // unknown outcome elsewhere, is failed at once (docs/rules/messages.md#7-sms-gateways).
      const again = err.outcome === 'transient' || (err.outcome === 'unknown' && err.retrySafe);
      await q.finish(this.d.db, m.id, again && m.sms_tries < MAX_SMS_TRIES ? 'queued' : 'failed');
    }
  }
}

/** How often each instance looks for claim reminders due: their days are whole days, a minute late is nothing. */
export const REMIND_EVERY_MS = 60_000;

/**
 * The sender of this instance every `everyMs` (config DISPATCH_EVERY_MS: a message's SMS goes within this long of its
 * event), and the claim reminders' query every minute (a scan of the unclaimed prizes, not for a 5-second loop), the
 * first with the first send; then the waiting pushes; a failed run is logged and the next one tries again.
 */
export function scheduleDispatch(
  messages: Messages,
  log: Logger,
  push: { dispatch(): Promise<number> } | undefined,
  everyMs: number,
): Stop {
  let remindedAt = -Infinity;
  const run = async () => {
    if (Date.now() - remindedAt >= REMIND_EVERY_MS) {
      remindedAt = Date.now();
      await messages.remind();
    }
    await messages.dispatch();
    // The pushes of the same messages (docs/rules/messages.md#6-push-notifications), after their SMS.
    await push?.dispatch();
  };
  return repeat({ run, everyMs, log, failed: 'sending messages failed' });
}
