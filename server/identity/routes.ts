import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Identities } from './service.ts';

/** Identity details for payment: HTTP only; the rules live in Identities. */
export function identityRoutes(identities: Identities): Router {
  const r = Router();
  route(r, api.myIdentity, ({ user, req }) => identities.of(user.user_id, req.t));
  route(r, api.saveIdentity, ({ body, user, req }) => identities.save(user.user_id, body, req.t));
  route(r, api.userIdentity, ({ params, req }) => identities.of(params.id, req.t));
  return r;
}
