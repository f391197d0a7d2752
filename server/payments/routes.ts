import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Payments } from './service.ts';

/** The bKash checkout: HTTP only; the rules live in Payments. */
export function paymentRoutes(payments: Payments): Endpoints {
  const r = new Endpoints();
  route(r, api.startCheckout, ({ params, user, caller }) => payments.startCheckout(user, params.id, caller.origin));
  route(r, api.bkashCallback, ({ body, caller }) => payments.callback(body, caller));
  return r;
}
