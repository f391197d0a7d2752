/** The generated tickets endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { ActivateBody, ActivateReply, GenerateBody, GeneratedExportQuery, GeneratedTicket, GeneratedTicketsQuery } from './schemas.ts';
import { PLAY_CHECKED } from '../play-safe/refusals.ts';

export const generatedTicketsEndpoints = {
  // Generated tickets and activation ----------------------------------------------------------------
  generateTickets: endpoint({
    method: 'POST',
    path: '/api/v1/generated-tickets/',
    access: 'staff',
    tag: 'generated-tickets',
    body: GenerateBody,
    reply: z.array(GeneratedTicket),
    status: 201,
    refuses: ['generated_lottery_not_found', 'generated_lottery_ended', 'generated_tickets_left'],
    summary:
      'Makes 1–100 tickets of a lottery whose sales have not closed: random combinations not held there, each with a random ' +
      '16-digit secret, held out of sale until activated; within the tickets left; audited.',
  }),
  generatedTickets: endpoint({
    method: 'GET',
    path: '/api/v1/generated-tickets/',
    access: 'staff',
    tag: 'generated-tickets',
    query: GeneratedTicketsQuery,
    reply: z.array(GeneratedTicket),
    paged: true,
    refuses: [],
    summary:
      'Generated tickets, newest first: search by ticket number, secret number or lottery name, filter by lottery and by ' +
      'activation (all, activated, not_activated); paged.',
  }),
  exportGeneratedTickets: endpoint({
    method: 'GET',
    path: '/api/v1/generated-tickets/export/',
    access: 'staff',
    tag: 'generated-tickets',
    query: GeneratedExportQuery,
    reply: null,
    refuses: ['export_lottery_not_found', 'nothing_to_export'],
    summary:
      'CSV download (text/csv, UTF-8 with BOM) of the non-activated generated tickets of one lottery that match the search, ' +
      'streamed in id order; 409 when there are none.',
  }),
  deleteGeneratedTicket: endpoint({
    method: 'DELETE',
    path: '/api/v1/generated-tickets/:id/',
    access: 'staff',
    tag: 'generated-tickets',
    params: IdParams,
    reply: null,
    status: 204,
    refuses: ['generated_ticket_not_found', 'ticket_activated'],
    summary: 'Deletes a generated ticket that was not activated (an activated one is a sale: 409); audited.',
  }),
  activateTicket: endpoint({
    method: 'POST',
    path: '/api/v1/activate-generated-ticket/',
    access: 'user',
    tag: 'generated-tickets',
    body: ActivateBody,
    reply: ActivateReply,
    refuses: ['activation_invalid', 'activation_lottery_ended', 'activation_ticket_taken', 'throttled', ...PLAY_CHECKED],
    summary:
      "Activates a generated ticket with its secret number: it becomes the caller's success transaction of type activation. " +
      'A wrong pair is one answer whichever half was wrong; wrong pairs are limited per player, address and ticket number.',
  }),
} as const;
