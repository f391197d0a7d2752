import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { UserAdmin } from './service.ts';

/** Staff's user management: HTTP only; the rules live in UserAdmin. */
export function adminUserRoutes(users: UserAdmin): Router {
  const r = Router();
  route(r, api.staffUsers, ({ query }) => users.list(query));
  route(r, api.createUser, ({ body, user, req }) => users.create(user, body, req.t));
  route(r, api.staffUser, ({ params, req }) => users.one(params.id, req.t));
  route(r, api.updateUser, ({ params, body, user, req }) => users.update(user, params.id, body, req.t));
  return r;
}
