/**
 * Consecutive draws paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips): a slip of a game's lines for a
 * run of its next draws, as a player asks for it and as the API answers it.
 */
import { z } from 'zod';
import { id, ticket, v } from '../fields.ts';
import { TRANSACTION_STATUSES } from './schemas.ts';

/** The runs a player may choose: this many consecutive draws of the game. */
export const RUN_DRAWS = [1, 3, 5, 12, 25] as const;
/** At most this many lines (combinations) on one slip. */
export const SLIP_LINES_MAX = 10;
/** A line the server picks for the player: a combination free in every draw of the run. */
export const QUICK_PICK = 'quick';

export const SLIP_STATUSES = ['pending', 'paid', 'failed'] as const;

/** One line: a ticket in any accepted form, or `quick`. */
const line = z.union([z.literal(QUICK_PICK), ticket], { error: () => v('ticketInvalid') });

/**
 * `POST /api/v1/runs/`: `game_id`, `draws` (1, 3, 5, 12 or 25; from a form, digits) and `lines` (1–10, each a ticket
 * or `quick`; from a form, one field or several).
 */
export const RunBody = z.strictObject({
  game_id: id,
  draws: z.coerce
    .number({ error: () => v('runDrawsInvalid') })
    .refine((n): n is (typeof RUN_DRAWS)[number] => (RUN_DRAWS as readonly number[]).includes(n), { message: v('runDrawsInvalid') }),
  lines: z
    .union([line.transform((x) => [x]), z.array(line)], { error: () => v('ticketInvalid') })
    .refine((xs) => xs.length >= 1 && xs.length <= SLIP_LINES_MAX, { message: v('runLinesInvalid') }),
});

/** One entry of a run: one line in one draw, its own ticket. */
export const RunEntry = z.object({
  transaction_id: z.number().int(),
  lottery_id: z.number().int(),
  /** Its draw's name in English and Bengali ('' when not given). */
  lottery_name: z.string(),
  lottery_name_bn: z.string(),
  /** When its draw is drawn. */
  draw_at: z.string(),
  ticket: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  /** Once its draw's results are published: the numbers drawn, and what this entry won (null: nothing). */
  numbers: z.array(z.number().int()).nullable(),
  prize_money: z.number().int().nullable(),
});

/** A slip as its player sees it: its run of draws, its lines, its one amount, its state and its entries, draw by draw. */
export const Run = z.object({
  id: z.number().int(),
  game_id: z.number().int(),
  /** The draws the run has: at most what was asked, fewer when fewer were on sale (told before paying). */
  draws: z.number().int(),
  /** The draws asked for. */
  draws_asked: z.number().int(),
  lines: z.number().int(),
  amount: z.number().int(),
  status: z.enum(SLIP_STATUSES),
  /** The entry whose checkout pays the whole slip (`POST /api/v1/transactions/{lead_id}/bkash-checkout/`). */
  lead_id: z.number().int(),
  created_at: z.string(),
  entries: z.array(RunEntry),
});
