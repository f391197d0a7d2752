/**
 * Paying with bKash's Tokenized Checkout (docs/rules/payments.md): starting a purchase's checkout, bKash's callback,
 * and what a purchase's payment page says of its checkout.
 */
import { z } from 'zod';
import { text, v } from '../fields.ts';

/** The states of a checkout payment (docs/rules/payments.md#2-the-states-of-a-checkout-payment). */
export const CHECKOUT_STATES = ['created', 'completed', 'failed', 'cancelled', 'expired', 'refund_due', 'refunded'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/** Why money bKash took could not confirm the purchase and goes back (docs/rules/payments.md#4-settling-a-payment). */
export const REFUND_REASONS = ['no_trx_id', 'amount_mismatch', 'invoice_mismatch', 'already_paid', 'not_pending', 'sales_closed'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/**
 * Why bKash's answer about a TrxID a player typed does not confirm his Send Money purchase
 * (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
 */
export const SEND_MONEY_REASONS = [
  'not_found',
  'not_completed',
  'wrong_receiver',
  'amount_differs',
  'before_purchase',
  'after_close',
  'trx_id_used',
] as const;
export type SendMoneyReason = (typeof SEND_MONEY_REASONS)[number];

/** Where bKash's check of a typed TrxID stands (migration 029, docs/rules/payments.md#9-send-money-confirmed-by-bkash). */
export const SEND_MONEY_CHECK_STATES = ['checking', 'confirmed', 'refused', 'left'] as const;

/** bKash's check of the TrxID a player typed, as his payment page tells him. */
export const SendMoneyCheck = z.object({
  trx_id: z.string(),
  state: z.enum(SEND_MONEY_CHECK_STATES),
  /** Why it was refused (SEND_MONEY_REASONS) or left to staff (`changed_meanwhile`, `sales_closed`); null otherwise. */
  reason: z.string().nullable(),
  /** How many times bKash was asked without an answer. */
  checks: z.number().int(),
  updated_at: z.string(),
});

/** What bKash's Search Transaction answered about a TrxID (server/payments/bkash/client.ts BkashTransaction). */
export const BkashTransactionInfo = z.object({
  trxID: z.string(),
  transactionStatus: z.string(),
  transactionType: z.string().nullable(),
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  customerMsisdn: z.string().nullable(),
  receiver: z.string().nullable(),
  transactionReference: z.string().nullable(),
  completedTime: z.string().nullable(),
  initiationTime: z.string().nullable(),
});

/** The check as staff see it: with bKash's answer (null while checking, or when bKash knows no such TrxID). */
export const StaffSendMoneyCheck = SendMoneyCheck.extend({ answer: BkashTransactionInfo.nullable() });

/** What the player comes back to after bKash's page. */
export const CHECKOUT_OUTCOMES = ['confirmed', 'pending', 'failed', 'cancelled', 'refunded'] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

/** bKash's paymentID as it comes back in the callback's address: letters, digits, `-` and `_`, at most 100. */
export const PaymentId = text(100).refine((s) => /^[A-Za-z0-9_-]+$/.test(s), v('invalid'));

/** `POST /api/v1/transactions/{id}/bkash-checkout/`: bKash's payment for the purchase, and where to send the player. */
export const CheckoutReply = z.object({
  transaction_id: z.number().int(),
  payment_id: z.string(),
  bkash_url: z.string(),
});

/** `POST /api/v1/payments/bkash/callback/`: what bKash put in the callback's address. */
export const CallbackBody = z.strictObject({
  paymentID: PaymentId,
  status: z.enum(['success', 'failure', 'cancel']),
});

/** The newest checkout payment of a purchase, as its payment page tells the player. */
export const CheckoutInfo = z.object({
  payment_id: z.string(),
  state: z.enum(CHECKOUT_STATES),
  trx_id: z.string().nullable(),
  reason: z.string().nullable(),
  refund_trx_id: z.string().nullable(),
  created_at: z.string(),
});

/**
 * What a callback answers: the purchase, its outcome and checkout to the purchase's owner (logged in); all null to
 * anyone else, who learns nothing he did not send (docs/rules/payments.md#3-paying-with-bkash-checkout).
 */
export const CallbackReply = z.object({
  transaction_id: z.number().int().nullable(),
  outcome: z.enum(CHECKOUT_OUTCOMES).nullable(),
  checkout: CheckoutInfo.nullable(),
});
