/** SQL of players' messages (docs/rules/messages.md); the rules live in server/messages/service.ts and outbox.ts. */
import { committing, procedure, type Db } from '../db/index.ts';
import type { Language } from '../../shared/i18n.ts';
import type { MessageKind } from '../../shared/messages/kinds.ts';

export type MessageRow = { id: number; user_id: number; kind: MessageKind; params: unknown; created_at: string; read_at: string | null };
export type Outgoing = MessageRow & {
  phone: string | null;
  email: string | null;
  language: Language;
  sms_tries: number;
  /** Our reference for its SMS, the same for every try (docs/rules/messages.md#7-sms-gateways). */
  sms_reference: string;
};

/** A page of a player's messages, newest first. */
export const page = (db: Db, userId: number, limit: number, offset: number) =>
  db.query<MessageRow>(
    'SELECT id, user_id, kind, params, created_at, read_at FROM player_messages WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3',
    [userId, limit, offset],
  );

export const counts = async (db: Db, userId: number): Promise<{ total: number; unread: number }> =>
  (await db.one<{ total: number; unread: number }>(
    'SELECT count(*)::int AS total, (count(*) FILTER (WHERE read_at IS NULL))::int AS unread FROM player_messages WHERE user_id = $1',
    [userId],
  )) ?? { total: 0, unread: 0 };

/** The unread count of the player `userSql` names (a parameter or a column), as a subquery: the partial index answers it. */
export const unreadCount = (userSql: string) =>
  `(SELECT count(*)::int FROM player_messages WHERE user_id = ${userSql} AND read_at IS NULL)`;

/** The unread count alone (the top bar's bell on the back office's pages). */
export const unread = async (db: Db, userId: number): Promise<number> =>
  (await db.one<{ n: number }>(`SELECT ${unreadCount('$1')} AS n`, [userId]))?.n ?? 0;

export const markRead = (db: Db, userId: number, upTo: number | null) =>
  db.query('UPDATE player_messages SET read_at = now() WHERE user_id = $1 AND read_at IS NULL AND ($2::bigint IS NULL OR id <= $2)', [
    userId,
    upTo,
  ]);

/** A player's message settings as stored: his language, and his choices (null for a kind he never chose on or off). */
export type SettingsRow = { language: Language; claim_reminder: boolean | null; new_lottery: boolean | null };

/**
 * His choices as SQL, for a statement that reads them with the rest of `users u` (the profile page's,
 * server/accounts/queries.ts): the columns, and the join that brings them.
 */
export const CHOICES = { columns: 's.claim_reminder, s.new_lottery', join: 'LEFT JOIN message_settings s ON s.user_id = u.id' } as const;

export const settings = (db: Db, userId: number) =>
  db.one<SettingsRow>(`SELECT u.language, ${CHOICES.columns} FROM users u ${CHOICES.join} WHERE u.id = $1`, [userId]);

export async function saveSettings(db: Db, userId: number, s: { language: Language; claim_reminder: boolean; new_lottery: boolean }) {
  await db.tx(async (tx) => {
    await tx.query('UPDATE users SET language = $2 WHERE id = $1', [userId, s.language]);
    await tx.query(
      `INSERT INTO message_settings (user_id, claim_reminder, new_lottery) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET claim_reminder = $2, new_lottery = $3, updated_at = now()`,
      [userId, s.claim_reminder, s.new_lottery],
    );
  });
}

/**
 * Takes up to `limit` messages whose SMS is waiting (or whose sender's lease ran out) for this instance: each leased for
 * a minute, so that no other instance sends it meanwhile.
 */
export const lease = (db: Db, limit: number, maxTries: number) =>
  db.query<Outgoing>(
    `WITH taken AS (
       SELECT id FROM player_messages
       WHERE (sms_state = 'queued' OR (sms_state = 'sending' AND sms_lease_until < now())) AND sms_tries < $2
       ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     UPDATE player_messages m SET sms_state = 'sending', sms_lease_until = now() + interval '1 minute', sms_tries = m.sms_tries + 1
     FROM taken, users u WHERE m.id = taken.id AND u.id = m.user_id
     RETURNING m.id, m.user_id, m.kind, m.params, m.created_at, m.read_at, m.sms_tries, m.sms_reference, u.phone, u.email, u.language`,
    [limit, maxTries],
  );

/**
 * Counts this SMS against the player's day, under a lock per player so that two instances never both take the last
 * one: true when it may go (its sent time is set now, and taken back if sending fails), false when the cap is reached.
 */
export const reserve = (db: Db, m: Outgoing, dayStart: Date, cap: number): Promise<boolean> =>
  db.run(reserveTx, { userId: m.user_id, id: m.id, dayStart: dayStart.toISOString(), cap });

/**
 * The transaction of `reserve`, run where the database is (docs/decisions/099-writes-run-on-the-database-thread.md).
 * The count is sent with the lock, not after its answer: the connection runs it once the lock is granted, so it counts
 * every SMS of whoever held the lock before (docs/decisions/089-purchase-reads-sent-with-the-lock.md). The mark is the
 * last statement, sent with the COMMIT (docs/decisions/095-last-statement-with-its-commit.md).
 */
export const reserveTx = procedure(
  'sms-reserve',
  async (tx, { userId, id, dayStart, cap }: { userId: number; id: number; dayStart: string; cap: number }): Promise<boolean> => {
    const [, n] = await Promise.all([
      tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sms:${userId}`]),
      tx.one<{ n: number }>('SELECT count(*)::int AS n FROM player_messages WHERE user_id = $1 AND sms_sent_at >= $2 AND id <> $3', [
        userId,
        dayStart,
        id,
      ]),
    ]);
    const capped = (n?.n ?? 0) >= cap;
    await committing(tx).query(
      capped
        ? `UPDATE player_messages SET sms_state = 'capped', sms_lease_until = NULL WHERE id = $1`
        : 'UPDATE player_messages SET sms_sent_at = now() WHERE id = $1',
      [id],
    );
    return !capped;
  },
);

/** What became of an SMS: sent, none (no contact), queued again (a later run retries) or failed for good. */
export const finish = (db: Db, id: number, state: 'sent' | 'none' | 'queued' | 'failed') =>
  db.query(
    `UPDATE player_messages SET sms_state = $2, sms_lease_until = NULL,
       sms_sent_at = CASE WHEN $2 = 'sent' THEN sms_sent_at ELSE NULL END WHERE id = $1`,
    [id, state],
  );
