import type { z } from 'zod';
import type { ContactBody } from '../../shared/contact/schemas.ts';
import type { Db } from '../db/index.ts';
import { LIMITS, throttle } from '../http/rate-limit.ts';
import type { Logger } from '../log.ts';
import { insertContactMessage } from './queries.ts';

export type ContactMessage = z.output<typeof ContactBody>;

/**
 * Contact messages (docs/rules/pages.md): stored, rate-limited per address, and forwarded to support where mail is
 * configured. The sender is told it was sent once it is stored, without waiting for the forward; a failed forward is
 * logged and the stored message stays for staff.
 */
export class Contact {
  private readonly pending = new Set<Promise<unknown>>();

  private readonly db: Db;
  private readonly log: Logger;
  private readonly forward: ((m: ContactMessage) => Promise<unknown>) | null;
  constructor(db: Db, log: Logger, forward: ((m: ContactMessage) => Promise<unknown>) | null) {
    this.db = db;
    this.log = log;
    this.forward = forward;
  }

  async send(m: ContactMessage, from: { userId: number | null; language: string; ip: string }): Promise<void> {
    await throttle(this.db, [[`contact:ip:${from.ip}`, LIMITS.contactPerIp]]);
    await insertContactMessage(this.db, { ...m, userId: from.userId, language: from.language === 'bn' ? 'bn' : 'en' });
    // Forwarded in the background: the sender's answer never waits for the mail server.
    if (this.forward) {
      const forwarding = Promise.resolve()
        .then(() => this.forward?.(m))
        .catch((err: unknown) => this.log.error({ error: (err as Error).message }, 'contact message stored but not forwarded'))
        .finally(() => this.pending.delete(forwarding));
      this.pending.add(forwarding);
    }
  }

  /** Forwards still under way (each ends within NOTIFY_TIMEOUT_MS); for a test or a shutdown to wait for. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
