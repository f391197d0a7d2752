import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Push } from './service.ts';

/** Push notifications (docs/rules/messages.md#6-push-notifications): HTTP only; the rules live in Push. */
export function pushRoutes(push: Push): Endpoints {
  const r = new Endpoints();
  route(r, api.pushSettings, ({ user }) => push.settings(user.user_id));
  route(r, api.setPushSettings, ({ user, body }) => push.saveSettings(user.user_id, body));
  route(r, api.subscribePush, ({ user, body }) => push.subscribe(user.user_id, body));
  route(r, api.unsubscribePush, ({ user, body }) => push.unsubscribe(user.user_id, body.endpoint));
  return r;
}
