/**
 * The draw: the staff's request that finishes it and the prizes it makes (docs/rules/lotteries-and-sales.md#9-the-draw).
 * Built from the field rules of shared/fields.ts; messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { id, ticket, wholeTaka } from '../fields.ts';

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
