import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Identities } from './service.ts';

/** Identity details for payment: HTTP only; the rules live in Identities. */
export function identityRoutes(identities: Identities): Endpoints {
  const r = new Endpoints();
  route(r, api.myIdentity, ({ user }) => identities.of(user.user_id));
  route(r, api.saveIdentity, ({ body, user }) => identities.save(user.user_id, body));
  route(r, api.userIdentity, ({ params }) => identities.of(params.id));
  return r;
}
