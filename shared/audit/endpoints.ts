/** The audit endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { AuditEntry, AuditQuery } from './schemas.ts';

export const auditEndpoints = {
  auditLog: endpoint({
    method: 'GET',
    path: '/api/v1/admin/audit-log/',
    access: 'staff',
    tag: 'audit',
    query: AuditQuery,
    reply: z.array(AuditEntry),
    paged: true,
    refuses: ['audit_superuser_only'],
    summary: 'Every recorded staff change, newest first (who, what, before and after, when); superusers only (other staff 403); read only.',
  }),
} as const;
