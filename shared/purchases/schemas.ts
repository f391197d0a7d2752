/**
 * Purchases: the requests and answers of buying a ticket, a player's transactions and the staff's transaction list
 * (docs/rules/lotteries-and-sales.md#7-buying-a-ticket, #8-transaction-states). Built from the field rules of
 * shared/fields.ts; messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { CLAIM_STATUSES } from '../claims/schemas.ts';
import { id, nid, optional, phone, text, ticket, trxId, v, wholeTaka } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';
import { LOTTERY_KINDS } from '../draws/tiers.ts';
import { CheckoutInfo, SendMoneyCheck, StaffSendMoneyCheck } from '../payments/schemas.ts';
import { RECONCILIATION_STATES } from '../payments/statement-schemas.ts';
import { MY_TRANSACTION_FILTERS } from './states.ts';

export const TRANSACTION_STATUSES = ['pending', 'success', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The methods a player may name; only bKash is taken today, the others are "coming soon". */
export const PAYMENT_METHODS = ['bkash'] as const;
export const PAYMENT_METHODS_SOON = ['nagad', 'rocket'] as const;

const paymentMethod = z
  .string()
  .max(20)
  .transform((s, ctx) => {
    const m = s.trim().toLowerCase();
    if (m === 'bkash') return 'bkash' as const;
    const soon = (PAYMENT_METHODS_SOON as readonly string[]).includes(m);
    ctx.addIssue({ code: 'custom', message: soon ? v('paymentMethodSoon') : v('paymentMethodInvalid') });
    return z.NEVER;
  });

/**
 * `POST /api/v1/transactions-create/`: the payload the mobile app and the pages send. `user_id` may be left out;
 * when sent it must be the caller's own id (docs/decisions/012-purchases.md). `amount` is what the client
 * believes the ticket costs: the server stores the lottery's own price and refuses a different amount. The TrxID
 * and the bKash number may come now or later (PATCH …/trx-id/), once the player has paid.
 */
export const PurchaseBody = z.strictObject({
  user_id: id.optional(),
  lottery_id: id,
  ticket,
  amount: wholeTaka,
  transaction_type: z.literal('payment').default('payment'),
  payment_method: paymentMethod,
  payment_number: optional(phone),
  nid: nid.default(''),
  trx_id: optional(trxId),
});

/** `PATCH /api/v1/transactions/{id}/trx-id/`: the TrxID bKash sent the player, and the number he paid from. */
export const TrxIdBody = z.strictObject({
  trx_id: trxId,
  payment_number: optional(phone),
});

/**
 * `PUT /api/v1/transactions/{id}/` (staff): the new status. The back office of the specification also sends the
 * transaction's `id`: accepted when it is the id of the address (checked by the service, 400 under `id` otherwise).
 */
export const StatusBody = z.strictObject({
  id: id.optional(),
  status: z.enum(TRANSACTION_STATUSES),
});

/** `GET /api/v1/my-transactions/`: paged; `only` the tickets he holds, or only the purchases awaiting payment. */
export const MyTransactionsQuery = Paging.extend({
  only: optional(z.enum(MY_TRANSACTION_FILTERS)),
});

/** The `Idempotency-Key` header of a purchase: 1–100 printable ASCII characters. */
export const IdempotencyKey = z.string().regex(/^[\x20-\x7e]{1,100}$/);

/** `GET /api/v1/transactions/` (staff): paged, searched, filtered by status. */
export const StaffTransactionsQuery = Paging.extend({
  search: optional(text(100)),
  status: optional(z.enum(TRANSACTION_STATUSES)),
  lottery_id: optional(id),
});

/** A purchase is a `payment`; an activated generated ticket an `activation` (docs/decisions/015-generated-tickets.md). */
export const TRANSACTION_TYPES = ['payment', 'activation'] as const;

const transactionFields = {
  id: z.number().int(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number().int(),
  status: z.enum(TRANSACTION_STATUSES),
  payment_method: z.string(),
  payment_number: z.string(),
  trx_id: z.string().nullable(),
  ticket: z.string(),
  created_at: z.string(),
};

/** One of the player's own transactions, as `my-transactions` and the purchase answer show it. */
export const PlayerTransaction = z.object({
  ...transactionFields,
  /** One entry of a run of consecutive draws paid once (`GET /api/v1/runs/{slip_id}/`); null for a ticket bought alone. */
  slip_id: z.number().int().nullable(),
  lottery: z.object({
    id: z.number().int(),
    name: z.string(),
    name_bn: z.string(),
    end_date: z.string(),
    total_prize: z.number().int(),
    is_result_published: z.boolean(),
    /** When the results were published (null before); the claim period counts from it. */
    drawn_at: z.string().nullable(),
    /** `tickets` or `numbers`; a numbers lottery's total_prize is its jackpot (docs/rules/lotteries-and-sales.md#1-lottery-fields). */
    kind: z.enum(LOTTERY_KINDS),
    /** A game's draw: when it is drawn (its sales close before); null for a one-off lottery, drawn after its end of sales. */
    draw_at: z.string().nullable(),
  }),
  /** A numbers draw's `[m1, …, m5, last]` once its results are published; null otherwise. */
  numbers: z.array(z.number().int()).nullable(),
  /** With `numbers`: the ticket's numbers among them, and its tier (1 the jackpot … 5, null: none), prize or not. */
  matched: z.object({ main: z.array(z.number().int()), last: z.boolean() }).nullable(),
  tier: z.number().int().nullable(),
  /** A prize row references this transaction and the results are published. */
  is_winning_ticket: z.boolean(),
  /**
   * `withheld_reason`: why two staff members withheld it (docs/rules/lotteries-and-sales.md#9-the-draw), else null.
   * `lucky`: it holds a Lucky Chance prize (alone, or added to its tier's: docs/rules/games.md#5-lucky-chance).
   */
  prize: z
    .object({ id: z.number().int(), prize_money: z.number().int(), withheld_reason: z.string().nullable(), lucky: z.boolean() })
    .nullable(),
  /**
   * A game's draw with Lucky Chance: the entry's code (`BHG 4821 7730`), computed from its ticket and the draw's
   * commitment (docs/rules/draws.md#7a-lucky-chance); null for any other lottery.
   */
  lucky_code: z.string().nullable(),
  /** Payout details were sent for the prize; claim_status is then the claim's state (docs/rules/lotteries-and-sales.md#11-prize-claims). */
  has_claimed: z.boolean(),
  claim_status: z.enum(CLAIM_STATUSES).exclude(['pending']).nullable(),
});

/** A slip's states (docs/rules/games.md#6-consecutive-draws-and-play-slips). */
export const SLIP_STATUSES = ['pending', 'paid', 'failed'] as const;

/**
 * A run of consecutive draws as one line of My Lotteries (docs/rules/games.md#6-consecutive-draws-and-play-slips): the
 * list shows its first entry only (the slip's lead), and this says the rest; `GET /api/v1/runs/{id}/` opens it.
 */
export const RunSummary = z.object({
  id: z.number().int(),
  /** The game's name in English and Bengali ('' when not given). */
  game_name: z.string(),
  game_name_bn: z.string(),
  draws: z.number().int(),
  lines: z.number().int(),
  amount: z.number().int(),
  status: z.enum(SLIP_STATUSES),
  /** Its lines of numbers, in the order played. */
  tickets: z.array(z.string()),
  /** How many of its draws have published results, and what its entries won in them (withheld prizes aside). */
  drawn: z.number().int(),
  won: z.number().int(),
  /** Prizes of its entries that can be claimed now: no payout details sent yet, or a transfer that failed. */
  to_claim: z.number().int(),
  first_draw_at: z.string(),
  last_draw_at: z.string(),
  /** Its next draw not drawn yet; null once every draw is drawn. */
  next_draw_at: z.string().nullable(),
});

/**
 * `GET /api/v1/my-lotteries/`: My Lotteries in one read — a page of the caller's tickets (as `only=tickets` lists them)
 * with their total, and on the first page (offset 0) his purchases awaiting payment, newest first, at most
 * UNFINISHED_SHOWN (as `only=unfinished`); on a later page none. A run of draws is one item of either list: its lead
 * entry stands for it, with its summary in `runs` (docs/rules/games.md#6-consecutive-draws-and-play-slips).
 */
export const MyLotteriesReply = z.object({
  tickets: z.array(PlayerTransaction),
  total: z.number().int(),
  unfinished: z.array(PlayerTransaction),
  /** The runs of the listed entries (`slip_id`), each once. */
  runs: z.array(RunSummary),
});

/** The purchase's answer: the transaction, and where and how much to pay. */
export const PurchaseReply = PlayerTransaction.extend({
  /** The bKash account to send the money to (configuration BKASH_RECEIVER_NUMBER). */
  bkash_receiver_number: z.string(),
  /** The amount to send: the lottery's ticket price, as stored; for a run's lead, the whole slip's amount. */
  amount_to_pay: z.number().int(),
  /**
   * One entry of a run (docs/rules/games.md#6-consecutive-draws-and-play-slips): its slip's draws (and how many were
   * asked), lines, whole amount and state, and the entry that pays it; null for a ticket bought alone.
   */
  run: z
    .object({
      id: z.number().int(),
      draws: z.number().int(),
      draws_asked: z.number().int(),
      lines: z.number().int(),
      amount: z.number().int(),
      status: z.enum(SLIP_STATUSES),
      lead_id: z.number().int(),
    })
    .nullable(),
  /** The newest bKash checkout of the purchase, or null when it was not paid through the checkout (docs/rules/payments.md). */
  checkout: CheckoutInfo.nullable(),
  /** bKash's check of the TrxID the player typed (docs/rules/payments.md#9-send-money-confirmed-by-bkash); null without one. */
  bkash_check: SendMoneyCheck.nullable(),
});

/** A transaction as staff see it: the player, the lottery, and what they need to check the payment. */
export const StaffTransaction = z.object({
  ...transactionFields,
  /** The bKash number paid from, as the specification's back office reads it: the same value as payment_number. */
  phone: z.string(),
  nid: z.string(),
  updated_at: z.string(),
  user: z.object({
    id: z.number().int(),
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    is_active: z.boolean(),
  }),
  /** ticket_price: the lottery's price now, for staff to compare with the amount paid. */
  lottery: z.object({
    id: z.number().int(),
    name: z.string(),
    name_bn: z.string(),
    end_date: z.string(),
    total_prize: z.number().int(),
    is_result_published: z.boolean(),
    ticket_price: z.number().int(),
  }),
  /** The newest bKash checkout of the purchase; null when it was not paid through the checkout (docs/rules/payments.md). */
  checkout: CheckoutInfo.nullable(),
  /** A Send Money purchase's place in the statements (docs/rules/payments.md#87-on-the-transactions-page); null otherwise. */
  statement: z.enum(RECONCILIATION_STATES).nullable(),
  /** bKash's check of the TrxID the player typed, with bKash's answer (docs/rules/payments.md#9-send-money-confirmed-by-bkash); null without one. */
  bkash_check: StaffSendMoneyCheck.nullable(),
  /**
   * A run's first entry, which its one payment pays (docs/rules/games.md#6-consecutive-draws-and-play-slips): the run's
   * draws, lines and whole amount, what a TrxID given on it must have brought; null for any other transaction.
   */
  run_paid: z.object({ draws: z.number().int(), lines: z.number().int(), amount: z.number().int() }).nullable(),
});
