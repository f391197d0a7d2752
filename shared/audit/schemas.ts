/** The audit log of staff changes (docs/rules/security.md#7-audit-log): read by superusers, never changed by anyone. */
import { z } from 'zod';
import { id, optional, text } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

/** What the log records changes of. */
export const AUDIT_ENTITIES = [
  'lottery',
  'transaction',
  'payment',
  'statement',
  'prize',
  'prize_claim',
  'generated_ticket',
  'user',
  'game',
] as const;

/** `GET /api/v1/admin/audit-log/` (superusers): newest first, filtered by what changed, the action and who did it. */
export const AuditQuery = Paging.extend({
  entity: optional(z.enum(AUDIT_ENTITIES)),
  entity_id: optional(text(40)),
  action: optional(text(60)),
  actor_id: optional(id),
});

export const AuditEntry = z.object({
  id: z.number().int(),
  created_at: z.string(),
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
