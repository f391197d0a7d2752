import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import type { AuditEntry, AuditQuery } from '../../shared/audit/schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { isSuperuserNow } from '../users/service.ts';
import * as q from './queries.ts';

/** The audit log for superusers (docs/rules/security.md#7-audit-log): staff without that right get 403. */
export class AuditLog {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async list(caller: AccessClaims, query: z.output<typeof AuditQuery>): Promise<{ items: z.input<typeof AuditEntry>[]; total: number }> {
    if (!(await isSuperuserNow(this.db, caller.user_id))) refuse('audit_superuser_only');
    const { rows, total } = await q.auditEntries(
      this.db,
      { entity: query.entity, entityId: query.entity_id, action: query.action, actorId: query.actor_id },
      query.limit,
      query.offset,
    );
    return {
      items: rows.map((r) => ({
        id: r.id,
        created_at: r.created_at,
        actor: r.actor_id === null ? null : { id: r.actor_id, name: r.actor_name ?? '' },
        action: r.action,
        entity: r.entity,
        entity_id: r.entity_id,
        before: r.before,
        after: r.after,
      })),
      total,
    };
  }
}
