/** The identity endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { Identity, IdentityBody } from './schemas.ts';

export const identityEndpoints = {
  // Identity details for payment ------------------------------------------------------------------
  myIdentity: endpoint({
    method: 'GET',
    path: '/api/v1/my-identity/',
    access: 'user',
    tag: 'identity',
    reply: Identity,
    refuses: ['identity_not_found'],
    summary: "The caller's identity details (NID number, NID photos, phone); 404 until given.",
  }),
  saveIdentity: endpoint({
    method: 'PUT',
    path: '/api/v1/my-identity/',
    access: 'user',
    tag: 'identity',
    body: IdentityBody,
    reply: Identity,
    refuses: ['nid_photos_same', 'nid_front_invalid', 'nid_back_invalid'],
    summary: "Gives or replaces the caller's identity details; the photos are the caller's own uploads of upload-nid.",
  }),
  userIdentity: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/:id/identity/',
    access: 'staff',
    tag: 'identity',
    params: IdParams,
    reply: Identity,
    refuses: ['identity_not_found'],
    summary: "A player's identity details, for staff; 404 when he has given none.",
  }),
} as const;
