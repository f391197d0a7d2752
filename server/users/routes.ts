import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { UserAdmin } from './service.ts';

/** Staff's user management: HTTP only; the rules live in UserAdmin. */
export function adminUserRoutes(users: UserAdmin): Endpoints {
  const r = new Endpoints();
  route(r, api.staffUsers, ({ query }) => users.list(query));
  route(r, api.createUser, ({ body, user }) => users.create(user, body));
  route(r, api.staffUser, ({ params }) => users.one(params.id));
  route(r, api.updateUser, ({ params, body, user }) => users.update(user, params.id, body));
  return r;
}
