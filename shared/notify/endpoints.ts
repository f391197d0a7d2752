/** The sends' endpoint of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { DeliveriesQuery, Delivery } from './schemas.ts';

export const notifyEndpoints = {
  deliveries: endpoint({
    method: 'GET',
    path: '/api/v1/admin/deliveries/',
    access: 'staff',
    tag: 'messages',
    query: DeliveriesQuery,
    reply: z.array(Delivery),
    paged: true,
    refuses: [],
    summary:
      'Every SMS and e-mail sent, newest first: to whom, what for, through which gateway, and its state (sending, sent, ' +
      'delivered, failed, unknown) with the reason a gateway gave; never the text. Filtered by state and recipient; read only.',
  }),
} as const;
