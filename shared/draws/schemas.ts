/**
 * The draw: the staff's request that finishes it and the prizes it makes (docs/rules/lotteries-and-sales.md#9-the-draw).
 * Built from the field rules of shared/fields.ts; messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { id, optional, text, ticket, wholeTaka } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

/** More winning tickets than any lottery has winners are refused before they reach the database. */
export const MAX_DRAW_TICKETS = 1000;

/**
 * `POST /api/v1/draw-lottery/`: the lottery and its winning tickets (canonical form after parsing). `prize` is what
 * the back office believes the total prize is; the server pays the lottery's own total prize and ignores it.
 */
export const DrawBody = z.strictObject({
  lottery_id: id,
  tickets: z.array(ticket).min(1).max(MAX_DRAW_TICKETS),
  prize: wholeTaka.optional(),
});

/** One prize: a winning ticket of a lottery, the transaction that bought it, and what it pays. */
export const Prize = z.object({
  id: z.number().int(),
  lottery_id: z.number().int(),
  transaction_id: z.number().int(),
  ticket: z.string(),
  prize_money: z.number().int(),
});

/** The answer of a finished draw: the prizes, in the order the tickets were chosen. */
export const DrawReply = z.object({
  lottery_id: z.number().int(),
  drawn_at: z.string(),
  total_prize: z.number().int(),
  /** What the split left unpaid (less than one taka per prize). */
  remainder: z.number().int(),
  prizes: z.array(Prize),
});

/** `GET /api/v1/get-prizes/{lotteryId}/`. */
export const LotteryIdParams = z.strictObject({
  lotteryId: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});

/** `GET /api/v1/get-participators/{lotteryId}/`: a page of the lottery's participants, searched by name, phone or ticket. */
export const ParticipantsQuery = Paging.extend({
  search: optional(text(100)),
});

/** A participant of a draw: a `success` transaction of the lottery and who bought it (phone null for an e-mail account). */
export const Participant = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string().nullable(),
  amount: z.number().int(),
  ticket: z.string(),
  status: z.string(),
  created_at: z.string(),
});

/**
 * `POST /api/v1/draw-lottery/random-winner/`: one of the lottery's `success` tickets chosen by the server, none of
 * `exclude` (the tickets already chosen on the page).
 */
export const RandomWinnerBody = z.strictObject({
  lottery_id: id,
  exclude: z.array(ticket).max(MAX_DRAW_TICKETS).optional(),
});

/** The longest reason a superuser may give for deleting a prize. */
export const REASON_MAX = 500;

/**
 * `DELETE /api/v1/delete-prize/{prizeId}/` (superusers): why the prize goes, kept in the audit record. One line of
 * text: trimmed, 1 to 500 characters, no control characters (docs/rules/lotteries-and-sales.md#9-the-draw).
 */
export const DeletePrizeBody = z.strictObject({ reason: text(REASON_MAX, 'reasonRequired') });

/** `DELETE /api/v1/delete-prize/{prizeId}/`. */
export const PrizeIdParams = z.strictObject({
  prizeId: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});

/** `POST /api/v1/notify-winners/`. */
export const NotifyBody = z.strictObject({ lottery_id: id });

/** What notifying did: the message, how many winners were sent one now, and how many could not be reached. */
export const NotifyReply = z.object({
  detail: z.string(),
  notified: z.number().int(),
  failed: z.number().int(),
});
