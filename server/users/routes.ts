import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { UserAdmin } from './service.ts';

/** Staff's user management: HTTP only; the rules live in UserAdmin. */
export function adminUserRoutes(users: UserAdmin): Endpoints {
  const r = new Endpoints();
  route(r, api.staffUsers, ({ query }) => users.list(query));
  route(r, api.createUser, ({ body, user, caller }) => users.create(user, body, caller.t));
  route(r, api.staffUser, ({ params, caller }) => users.one(params.id, caller.t));
  route(r, api.updateUser, ({ params, body, user, caller }) => users.update(user, params.id, body, caller.t));
  return r;
}
