import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Agreements } from './agreements.ts';
import type { Payments } from './service.ts';

/** The bKash checkout: HTTP only; the rules live in Payments. */
export function paymentRoutes(payments: Payments, agreements: Agreements): Endpoints {
  const r = new Endpoints();
  route(r, api.startCheckout, ({ params, query, user, caller }) => payments.startCheckout(user, params.id, caller.origin, query.agreement));
  route(r, api.bkashCallback, ({ body, caller }) => payments.callback(body, caller));
  route(r, api.myBkashAgreement, ({ user }) => agreements.mine(user));
  route(r, api.startBkashAgreement, ({ body, user, caller }) => agreements.start(user, body.transaction_id, caller.origin));
  route(r, api.bkashAgreementCallback, ({ body, caller }) => agreements.callback(body, caller));
  route(r, api.cancelBkashAgreement, ({ user }) => agreements.cancel(user));
  return r;
}
