import type { Db } from '../db/index.ts';
import type { DeliveryState } from '../../shared/notify/schemas.ts';

/** A send as the API answers it (shared/notify/schemas.ts Delivery). */
export type DeliveryRow = {
  id: number;
  created_at: string;
  channel: 'sms' | 'email';
  to: string;
  purpose: string;
  gateway: string | null;
  state: DeliveryState;
  state_at: string | null;
  error: string | null;
};

const WHERE = `WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR recipient = $2)`;

/** The sends, newest first (docs/rules/messages.md#7-sms-gateways); never their text. */
export async function deliveries(
  db: Db,
  f: { state: DeliveryState | null; to: string | null },
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const params = [f.state, f.to];
  const rows = await db.query<DeliveryRow>(
    `SELECT id, created_at, channel, recipient AS "to", purpose, gateway, state, state_at, error FROM outbox ${WHERE}
     ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [...params, limit, offset],
  );
  const total = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM outbox ${WHERE}`, params))?.n ?? 0;
  return { rows, total };
}

/**
 * Takes up to `limit` SMS accepted by one of `gateways` in the last two days whose report was not asked for in the last
 * minute (by any instance: each row is marked asked as it is taken).
 */
export const dueReports = (db: Db, gateways: string[], limit: number) =>
  db.query<{ id: number; gateway: string; gateway_ref: string }>(
    `WITH due AS (
       SELECT id FROM outbox
       WHERE state = 'sent' AND gateway_ref IS NOT NULL AND sent_at > now() - interval '2 days'
         AND gateway = ANY(string_to_array($1, ',')) AND (checked_at IS NULL OR checked_at < now() - interval '1 minute')
       ORDER BY sent_at LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     UPDATE outbox o SET checked_at = now() FROM due WHERE o.id = due.id RETURNING o.id, o.gateway, o.gateway_ref`,
    [gateways.join(','), limit],
  );

/** A delivery report's final word on a sent SMS. */
export const reported = (db: Db, id: number, state: 'delivered' | 'failed') =>
  db.query(`UPDATE outbox SET state = $2, state_at = now() WHERE id = $1 AND state = 'sent'`, [id, state]);
