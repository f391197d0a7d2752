import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Deliveries } from './service.ts';

/** The sends as staff see them (docs/rules/messages.md#7-sms-gateways): HTTP only; read only. */
export function deliveryRoutes(deliveries: Deliveries): Endpoints {
  const r = new Endpoints();
  route(r, api.deliveries, ({ query }) => deliveries.list(query));
  return r;
}
