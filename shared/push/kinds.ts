/**
 * Push notifications to the installed app (docs/rules/messages.md#6-push-notifications): which messages are pushed, by
 * the kind a player opts in to, and what one push carries. Plain rules, no I/O: the server renders, encrypts and
 * sends; the service worker shows.
 */
import type { MessageKind } from '../messages/kinds.ts';
import { paths } from '../paths.ts';

/** The kinds of push a player turns on or off, in the order the page shows them. */
export const PUSH_KINDS = ['results', 'confirmations'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/**
 * The messages each kind pushes: results, a prize won when the draw's results are published; confirmations, the answer
 * to his purchase (the ticket confirmed or rejected, his money refunded). Every other message stays on the page and in
 * his SMS.
 */
export const PUSHED: Readonly<Record<PushKind, readonly MessageKind[]>> = {
  results: ['prize_won'],
  confirmations: ['ticket_confirmed', 'ticket_rejected', 'payment_refunded'],
};

/** The push kind a message belongs to, or null when messages of its kind are never pushed. */
export function pushKindOf(kind: MessageKind): PushKind | null {
  for (const k of PUSH_KINDS) if (PUSHED[k].includes(kind)) return k;
  return null;
}

/** What one push carries, as the service worker reads it (client/sw.ts): JSON, well within a push service's 4 KB. */
export type PushPayload = {
  title: string;
  body: string;
  /** Where a tap on it leads: a path of this site. */
  url: string;
  /** The message's id: a second push of the same message replaces the first on the device. */
  tag: string;
};

/** The longest body a push carries (a notification shows a few lines; the page has the whole text). */
export const PUSH_BODY_MAX = 300;
/** The longest title (a lottery's message titles are short; this only bounds the payload). */
export const PUSH_TITLE_MAX = 120;

const cut = (text: string, max: number): string => {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
};

/**
 * The push of one message, from its texts as rendered in the player's language: the title and text cut to fit a
 * notification, and its link kept only when it is a path of this site (a push never sends anyone elsewhere).
 */
export function pushPayload(messageId: number, m: { title: string; text: string; link: string }): PushPayload {
  const url = m.link.startsWith('/') && !m.link.startsWith('//') ? m.link : paths.notifications;
  return { title: cut(m.title, PUSH_TITLE_MAX), body: cut(m.text, PUSH_BODY_MAX), url, tag: `message-${messageId}` };
}
