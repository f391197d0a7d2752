import { z } from 'zod';

export const MAX_PAGE = 100;

/** `?limit=&offset=` of a list: at most MAX_PAGE rows a page. */
export const Paging = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** Route ids are positive integers (anything else is a 404, never a database error). */
export const IdParams = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});

export const Lottery = z.object({
  id: z.number().int(),
  /** English name and description; the Bengali ones are '' when not given (pages then show the English). */
  name: z.string(),
  name_bn: z.string(),
  description: z.string(),
  description_bn: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  ticket_price: z.number().int(),
  total_tickets: z.number().int(),
  winners: z.number().int(),
  total_prize: z.number().int(),
  published: z.boolean(),
  featured: z.boolean(),
  is_result_published: z.boolean(),
  tickets_sold: z.number().int(),
  /** The server's verdict on sales right now (docs/rules/lotteries-and-sales.md). */
  purchasable: z.boolean(),
});

export const DrawResult = z.object({
  lottery: Lottery.pick({ id: true, name: true, name_bn: true, start_date: true, end_date: true, total_prize: true }),
  prizes: z.array(z.object({ id: z.number().int(), ticket: z.string(), prize_money: z.number().int() })),
});
