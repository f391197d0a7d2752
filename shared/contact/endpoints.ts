/** The contact endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import { Detail } from '../accounts/schemas.ts';
import { ContactBody } from './schemas.ts';

export const contactEndpoints = {
  contact: endpoint({
    method: 'POST',
    path: '/api/v1/contact/',
    access: 'public',
    tag: 'contact',
    body: ContactBody,
    reply: Detail,
    status: 201,
    refuses: ['throttled'],
    summary: 'Stores a message for support (and forwards it where mail is configured).',
  }),
} as const;
