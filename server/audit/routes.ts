import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { AuditLog } from './service.ts';

/** The audit log (superusers): HTTP only; read only. */
export function auditRoutes(log: AuditLog): Router {
  const r = Router();
  route(r, api.auditLog, ({ query, user, req }) => log.list(user, query, req.t));
  return r;
}
