/** The messages endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import {
  MessageSettings,
  MessageSettingsBody,
  NotificationsQuery,
  NotificationsReply,
  ReadNotificationsBody,
  ReadNotificationsReply,
} from './schemas.ts';

export const messagesEndpoints = {
  // Messages to players (docs/rules/messages.md) -----------------------------------------------------------------
  notifications: endpoint({
    method: 'GET',
    path: '/api/v1/notifications/',
    access: 'user',
    tag: 'messages',
    query: NotificationsQuery,
    reply: NotificationsReply,
    refuses: [],
    summary:
      "The caller's messages, newest first, each with its title, text and link in the caller's language; how many there are " +
      'and how many are unread; at most 50 a page.',
  }),
  unreadNotifications: endpoint({
    method: 'GET',
    path: '/api/v1/notifications/unread/',
    access: 'user',
    tag: 'messages',
    reply: ReadNotificationsReply,
    refuses: [],
    summary: "How many of the caller's messages are unread: the count the top bar's bell shows on every page he opens.",
  }),
  readNotifications: endpoint({
    method: 'POST',
    path: '/api/v1/notifications/read/',
    access: 'user',
    tag: 'messages',
    body: ReadNotificationsBody,
    reply: ReadNotificationsReply,
    refuses: [],
    summary: "Marks the caller's messages read, up to the id `up_to` (every one without it); answers how many stay unread.",
  }),
  messageSettings: endpoint({
    method: 'GET',
    path: '/api/v1/message-settings/',
    access: 'user',
    tag: 'messages',
    reply: MessageSettings,
    refuses: [],
    summary:
      "The language of the caller's messages, and the kinds he may switch off: claim reminders (on unless switched off) and " +
      'news of a new lottery of a kind he played (off unless switched on).',
  }),
  setMessageSettings: endpoint({
    method: 'PUT',
    path: '/api/v1/message-settings/',
    access: 'user',
    tag: 'messages',
    body: MessageSettingsBody,
    reply: MessageSettings,
    refuses: [],
    summary: "Sets the language of the caller's messages and which of the kinds he may switch off he gets.",
  }),
} as const;
