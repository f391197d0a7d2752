import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { AuditLog } from './service.ts';

/** The audit log (superusers): HTTP only; read only. */
export function auditRoutes(log: AuditLog): Endpoints {
  const r = new Endpoints();
  route(r, api.auditLog, ({ query, user }) => log.list(user, query));
  return r;
}
