import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Messages } from './service.ts';

/** Players' messages (docs/rules/messages.md): HTTP only; the rules live in Messages and server/messages/outbox.ts. */
export function messageRoutes(messages: Messages): Endpoints {
  const r = new Endpoints();
  // Messages are shown in the reader's language (worded with the app's texts, never a refusal).
  route(r, api.notifications, ({ user, query, caller: { lng } }) => messages.list(user.user_id, query.limit, query.offset, lng));
  route(r, api.unreadNotifications, async ({ user }) => ({ unread: await messages.unread(user.user_id) }));
  route(r, api.readNotifications, ({ user, body }) => messages.markRead(user.user_id, body.up_to));
  route(r, api.messageSettings, ({ user }) => messages.settings(user.user_id));
  route(r, api.setMessageSettings, ({ user, body }) => messages.saveSettings(user.user_id, body));
  return r;
}
