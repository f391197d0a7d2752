/**
 * Generated tickets and their activation (docs/rules/tickets.md#6-generated-tickets, #7-activating-a-generated-ticket):
 * the staff's requests and answers, and the player's activation. Built from the field rules of shared/fields.ts;
 * messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { toAsciiDigits } from '../dates.ts';
import { id, optional, text, v } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';
import { normaliseSecret, normaliseTicket } from '../ticket.ts';

/** How many tickets one request may generate. */
export const MAX_GENERATE = 100;

/** The activation filter of the staff list. */
export const ACTIVATION_FILTERS = ['all', 'activated', 'not_activated'] as const;

/**
 * How many tickets: a whole number from 1 to 100, sent as a number or as digits; anything else (0, 101, 'abc', 1.5)
 * has one message. Absent: 1.
 */
const quantity = z
  .unknown()
  .optional()
  .transform((x, ctx) => {
    if (x === undefined) return 1;
    const n = typeof x === 'number' ? x : typeof x === 'string' && /^\s*\d{1,4}\s*$/.test(x) ? Number(x) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= MAX_GENERATE) return n;
    ctx.addIssue({ code: 'custom', message: v('quantityRange') });
    return z.NEVER;
  });

/** `POST /api/v1/generated-tickets/` (staff): a lottery and how many tickets to make for it. */
export const GenerateBody = z.strictObject({ lottery_id: id, quantity });

/**
 * The back office's quantity box (docs/rules/pages.md#9-back-office): one to four digits are the number asked for
 * (the API refuses 0 and more than 100); anything else, an empty box too, counts as 1.
 */
export const formQuantity = (raw: string | undefined): number => {
  const s = (raw ?? '').trim();
  return /^\d{1,4}$/.test(s) ? Number(s) : 1;
};

/** The back office's Generate form: a lottery chosen from the list, the quantity box read by `formQuantity`. */
export const GenerateForm = z.object({
  lottery_id: z
    .string({ error: v('lotteryRequired') })
    .trim()
    .regex(/^[1-9]\d{0,15}$/, { error: v('lotteryRequired') }),
  quantity: z.string().optional().transform(formQuantity),
});

/** `GET /api/v1/generated-tickets/` (staff): paged, searched, filtered by lottery and activation. */
export const GeneratedTicketsQuery = Paging.extend({
  search: optional(text(100)),
  lottery_id: optional(id),
  activation: optional(z.enum(ACTIVATION_FILTERS)),
});

/**
 * A ticket number as the activation form takes it (docs/rules/tickets.md#3-accepted-input-and-normalisation):
 * Bengali digits read as ASCII, then any accepted form; canonical after parsing.
 */
export const ticketNumber = text(60, 'ticketNumberRequired').transform((s, ctx) => {
  const t = normaliseTicket(toAsciiDigits(s));
  if (t) return t;
  ctx.addIssue({ code: 'custom', message: v('ticketInvalid') });
  return z.NEVER;
});

/** A secret number as typed: Bengali digits read as ASCII, spaces and dashes removed, then exactly 16 digits. */
export const secretNumber = text(60, 'secretNumberRequired').transform((s, ctx) => {
  const secret = normaliseSecret(toAsciiDigits(s));
  if (secret) return secret;
  ctx.addIssue({ code: 'custom', message: v('secretNumberInvalid') });
  return z.NEVER;
});

/** `POST /api/v1/activate-generated-ticket/` (a player): the ticket number and its secret number. */
export const ActivateBody = z.strictObject({ ticket_number: ticketNumber, secret_number: secretNumber });

/** The activation's answer: the lottery (name in the caller's language), the new transaction's status and ticket. */
export const ActivateReply = z.object({
  lottery_id: z.number().int(),
  lottery_name: z.string(),
  status: z.literal('success'),
  ticket: z.string(),
  transaction_id: z.number().int(),
});

/** A generated ticket as staff see it. */
export const GeneratedTicket = z.object({
  id: z.number().int(),
  ticket_number: z.string(),
  secret_number: z.string(),
  is_activated: z.boolean(),
  activated_by: z.object({ id: z.number().int(), name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }).nullable(),
  activated_at: z.string().nullable(),
  transaction_id: z.number().int().nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  lottery: z.object({
    id: z.number().int(),
    name: z.string(),
    name_bn: z.string(),
    ticket_price: z.number().int(),
    total_prize: z.number().int(),
    end_date: z.string(),
  }),
});

/** `GET /api/v1/generated-tickets/export/` (staff): the non-activated tickets of one lottery that match the search, as CSV. */
export const GeneratedExportQuery = z.strictObject({
  lottery_id: id,
  search: optional(text(100)),
});
