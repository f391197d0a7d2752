/**
 * Messages to players (docs/rules/messages.md): the notifications page's list and the player's message settings, as
 * the API sends and takes them. Validation messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { v } from '../fields.ts';
import { LANGUAGES } from '../i18n.ts';
import { MAX_PAGE } from '../lotteries/schemas.ts';
import { MESSAGE_KINDS } from './kinds.ts';

/** One message on the notifications page, its texts in the caller's language. */
export const Notification = z.object({
  id: z.number().int(),
  kind: z.enum(MESSAGE_KINDS),
  title: z.string(),
  text: z.string(),
  /** Where the message leads on the site (a path), e.g. My Lotteries for a ticket. */
  link: z.string(),
  created_at: z.string(),
  read: z.boolean(),
});

/** `?limit=&offset=` of the notifications, newest first (at most 50 a page). */
export const NotificationsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(Math.min(50, MAX_PAGE)).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** `GET /api/v1/notifications/`: a page of messages, how many there are, and how many are unread. */
export const NotificationsReply = z.object({ items: z.array(Notification), total: z.number().int(), unread: z.number().int() });

/** `POST /api/v1/notifications/read/`: marks every message up to this id read (all of them without it). */
export const ReadNotificationsBody = z.strictObject({
  up_to: z
    .number({ error: () => v('notificationIdInvalid') })
    .int({ error: () => v('notificationIdInvalid') })
    .positive({ error: () => v('notificationIdInvalid') })
    .optional(),
});

/** The unread count the top bar's bell shows. */
export const ReadNotificationsReply = z.object({ unread: z.number().int() });

const flag = z.boolean({ error: () => v('messageSettingInvalid') });

/** `GET`/`PUT /api/v1/message-settings/`: the language of his messages, and the kinds he may switch off. */
export const MessageSettings = z.object({
  language: z.enum(LANGUAGES),
  claim_reminder: z.boolean(),
  new_lottery: z.boolean(),
});
export const MessageSettingsBody = z.strictObject({
  language: z.enum(LANGUAGES, { error: () => v('messageLanguageInvalid') }),
  claim_reminder: flag,
  new_lottery: flag,
});

/**
 * The profile page's form of the same: a language radio and two checkboxes, which a browser sends only when ticked
 * (as `on`). Read into the API's own body.
 */
export const MessageSettingsForm = z
  .object({
    language: z.enum(LANGUAGES, { error: () => v('messageLanguageInvalid') }),
    claim_reminder: z.unknown().optional(),
    new_lottery: z.unknown().optional(),
  })
  .transform((f) => ({ language: f.language, claim_reminder: f.claim_reminder === 'on', new_lottery: f.new_lottery === 'on' }));
