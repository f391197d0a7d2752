/**
 * What staff see of the SMS and e-mails sent (docs/rules/messages.md#7-sms-gateways): each send's state, gateway and
 * reason, never its text (a player's messages are his own, docs/rules/messages.md#4-the-api).
 */
import { z } from 'zod';
import { optional } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

/** A send's state: being sent, accepted by the gateway, delivered or failed (its report, or a refusal), or unknown. */
export const DELIVERY_STATES = ['sending', 'sent', 'delivered', 'failed', 'unknown'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** `GET /api/v1/admin/deliveries/`: newest first, by state and by the phone or address it went to. */
export const DeliveriesQuery = Paging.extend({
  state: optional(z.enum(DELIVERY_STATES)),
  to: optional(z.string().trim().min(1).max(254)),
});

export const Delivery = z.object({
  id: z.number().int(),
  created_at: z.string(),
  channel: z.enum(['sms', 'email']),
  to: z.string(),
  /** What it was: a one-time code's purpose or a message's kind. */
  purpose: z.string(),
  /** The gateway that took it or was tried last (`smtp` for e-mail, `log` for the development transport). */
  gateway: z.string().nullable(),
  state: z.enum(DELIVERY_STATES),
  state_at: z.string().nullable(),
  /** Why a gateway did not take it (codes and our words, never the text). */
  error: z.string().nullable(),
});
