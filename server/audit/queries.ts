import type { Db } from '../db/index.ts';

export type AuditRow = {
  id: number;
  created_at: string;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  entity: string;
  entity_id: string;
  before: unknown;
  after: unknown;
};

export type AuditFilter = { entity: string | null; entityId: string | null; action: string | null; actorId: number | null };

const WHERE = `WHERE ($1::text IS NULL OR a.entity = $1) AND ($2::text IS NULL OR a.entity_id = $2) AND ($3::text IS NULL OR a.action = $3)
  AND ($4::bigint IS NULL OR a.actor_id = $4)`;

/** The records, newest first; read only — nothing in the product updates or deletes them. */
export async function auditEntries(db: Db, f: AuditFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
  const params = [f.entity, f.entityId, f.action, f.actorId];
  const rows = await db.query<AuditRow>(
    `SELECT a.id, a.created_at, a.actor_id, u.name AS actor_name, a.action, a.entity, a.entity_id, a.before, a.after
     FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id ${WHERE} ORDER BY a.created_at DESC, a.id DESC LIMIT $5 OFFSET $6`,
    [...params, limit, offset],
  );
  const total = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a ${WHERE}`, params))?.n ?? 0;
  return { rows, total };
}
