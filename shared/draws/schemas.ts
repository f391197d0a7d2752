/**
 * The draw: the staff's request that finishes it and the prizes it makes (docs/rules/lotteries-and-sales.md#9-the-draw).
 * Built from the field rules of shared/fields.ts; messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { id, optional, text, ticket, wholeTaka } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

/** More winning tickets than any lottery has winners are refused before they reach the database. */
export const MAX_DRAW_TICKETS = 1000;

/** The longest reason staff may give (a prize withheld, winners proposed by hand). */
export const REASON_MAX = 500;

/**
 * `POST /api/v1/draw-lottery/`: winning tickets proposed by a staff member (canonical form after parsing), and why the
 * lottery is not drawn by the verifiable procedure. It only proposes: a second staff member approves it
 * (docs/rules/lotteries-and-sales.md#9-the-draw). `prize` is what the back office believes the total prize is; the
 * server pays the lottery's own total prize and ignores it.
 */
export const DrawBody = z.strictObject({
  lottery_id: id,
  tickets: z.array(ticket).min(1).max(MAX_DRAW_TICKETS),
  reason: text(REASON_MAX, 'reasonRequired'),
  prize: wholeTaka.optional(),
});

export const PROPOSAL_STATES = ['pending', 'approved', 'rejected'] as const;

const staffMember = z.object({ id: z.number().int(), name: z.string() });

/** Winners proposed by one staff member, waiting for (or decided by) a second one. */
export const DrawProposal = z.object({
  id: z.number().int(),
  lottery_id: z.number().int(),
  tickets: z.array(z.string()),
  reason: z.string(),
  status: z.enum(PROPOSAL_STATES),
  proposed_by: staffMember,
  proposed_at: z.string(),
  decided_by: staffMember.nullable(),
  decided_at: z.string().nullable(),
});

/** `POST /api/v1/draw-proposals/{proposalId}/approve/` and `…/reject/`. */
export const ProposalIdParams = z.strictObject({
  proposalId: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});

/** One prize: a winning ticket of a lottery, the transaction that bought it, and what it pays. */
export const Prize = z.object({
  id: z.number().int(),
  lottery_id: z.number().int(),
  transaction_id: z.number().int(),
  ticket: z.string(),
  prize_money: z.number().int(),
  /** A numbers draw's prize tier, 1 the jackpot … 5 (docs/rules/lotteries-and-sales.md#9-the-draw); null otherwise. */
  tier: z.number().int().nullable().optional(),
  /**
   * A game's draw: the Lucky Chance code this prize holds the prize of (docs/rules/draws.md#7a-lucky-chance), alone
   * (tier null) or added to its tier's; null or absent otherwise.
   */
  lucky_code: z.string().nullable().optional(),
  /** Why the prize was withheld (by two staff members, docs/rules/lotteries-and-sales.md#9-the-draw); null when it was not. */
  withheld_reason: z.string().nullable().optional(),
  /** Whether the prize's money reached its winner: its claim's transfer was completed (the draw page's "Prizes paid out"). */
  paid_out: z.boolean().optional(),
});

/**
 * The answer of a finished draw: the prizes, in the order the tickets were chosen (a numbers draw: by tier). For a
 * numbers draw `total_prize` is the jackpot and `remainder` what its split left unpaid; it also carries the numbers
 * drawn and the rollover.
 */
export const DrawReply = z.object({
  lottery_id: z.number().int(),
  drawn_at: z.string(),
  total_prize: z.number().int(),
  /** What the split left unpaid (less than one taka per prize). */
  remainder: z.number().int(),
  prizes: z.array(Prize),
  /** A numbers draw: `[m1, …, m5, last]`. */
  numbers: z.array(z.number().int()).optional(),
  /** A numbers draw without a jackpot ticket: the jackpot rolled into the lottery `to` (amount 0: nothing to roll). */
  rollover: z.object({ amount: z.number().int(), to: z.number().int().nullable() }).optional(),
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

/** `POST /api/v1/prizes/{prizeId}/withholding-proposals/`. */
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
