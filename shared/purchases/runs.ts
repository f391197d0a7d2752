/**
 * Consecutive draws paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips): a slip of a game's lines for a
 * run of its next draws, as a player asks for it and as the API answers it.
 */
import { z } from 'zod';
import { id, ticket, v } from '../fields.ts';
import { PlayerTransaction, SLIP_STATUSES } from './schemas.ts';

/** The runs a player may choose: this many consecutive draws of the game. */
export const RUN_DRAWS = [1, 3, 5, 12, 25] as const;
/** At most this many lines (combinations) on one slip. */
export const SLIP_LINES_MAX = 10;
/** A line the server picks for the player: a combination free in every draw of the run. */
export const QUICK_PICK = 'quick';

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
  /** Its entries, draw by draw in draw order and line by line, each as the player's tickets are told (PlayerTransaction). */
  entries: z.array(PlayerTransaction),
});
