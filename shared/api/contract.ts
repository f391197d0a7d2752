/**
 * Every endpoint of the API, declared once (docs/rules/api.md): each feature declares its own beside its schemas
 * (shared/<feature>/endpoints.ts) and this is their union. Adding one there and registering its handler on the server
 * is what makes it exist; the OpenAPI document at /api/openapi.json is made from this list.
 */
import { endpoint } from './endpoint.ts';
import { accountsEndpoints } from '../accounts/endpoints.ts';
import { identityEndpoints } from '../identity/endpoints.ts';
import { playEndpoints } from '../play-safe/endpoints.ts';
import { usersEndpoints } from '../users/endpoints.ts';
import { messagesEndpoints } from '../messages/endpoints.ts';
import { notifyEndpoints } from '../notify/endpoints.ts';
import { pushEndpoints } from '../push/endpoints.ts';
import { lotteriesEndpoints } from '../lotteries/endpoints.ts';
import { gamesEndpoints } from '../games/endpoints.ts';
import { resultsEndpoints } from '../results/endpoints.ts';
import { dashboardEndpoints } from '../dashboard/endpoints.ts';
import { auditEndpoints } from '../audit/endpoints.ts';
import { drawsEndpoints } from '../draws/endpoints.ts';
import { purchasesEndpoints } from '../purchases/endpoints.ts';
import { paymentsEndpoints } from '../payments/endpoints.ts';
import { claimsEndpoints } from '../claims/endpoints.ts';
import { generatedTicketsEndpoints } from '../generated-tickets/endpoints.ts';
import { uploadsEndpoints } from '../uploads/endpoints.ts';
import { contactEndpoints } from '../contact/endpoints.ts';

export const api = {
  ...accountsEndpoints,
  ...identityEndpoints,
  ...playEndpoints,
  ...usersEndpoints,
  ...messagesEndpoints,
  ...notifyEndpoints,
  ...pushEndpoints,
  ...lotteriesEndpoints,
  ...gamesEndpoints,
  ...resultsEndpoints,
  ...dashboardEndpoints,
  ...auditEndpoints,
  ...drawsEndpoints,
  ...purchasesEndpoints,
  ...paymentsEndpoints,
  ...claimsEndpoints,
  ...generatedTicketsEndpoints,
  ...uploadsEndpoints,
  ...contactEndpoints,
  openApi: endpoint({
    method: 'GET',
    path: '/api/openapi.json',
    access: 'public',
    tag: 'meta',
    reply: null,
    refuses: [],
    summary: 'This document: the API described in OpenAPI 3.1.',
  }),
} as const;

export type Api = typeof api;
