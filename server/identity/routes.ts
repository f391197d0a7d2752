import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Identities } from './service.ts';

/** Identity details for payment: HTTP only; the rules live in Identities. */
export function identityRoutes(identities: Identities): Endpoints {
  const r = new Endpoints();
  route(r, api.myIdentity, ({ user, caller }) => identities.of(user.user_id, caller.t));
  route(r, api.saveIdentity, ({ body, user, caller }) => identities.save(user.user_id, body, caller.t));
  route(r, api.userIdentity, ({ params, caller }) => identities.of(params.id, caller.t));
  return r;
}
