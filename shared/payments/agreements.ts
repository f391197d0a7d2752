/**
 * A remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements): the player approves an agreement
 * once on bKash's page, and later pays with his PIN only. What the API takes and answers.
 */
import { z } from 'zod';
import { id } from '../fields.ts';
import { CallbackBody } from './schemas.ts';

/** `GET /api/v1/bkash-agreement/`: the caller's agreement in force, or null. */
export const MyAgreement = z
  .object({
    /** The wallet it pays from, masked as bKash masks it (`0177*****75`). */
    wallet: z.string(),
    /** When he approved it. */
    since: z.string(),
  })
  .nullable();

/**
 * `POST /api/v1/bkash-agreement/`: asks bKash for an agreement; `transaction_id`, the caller's pending purchase he was
 * paying, which is paid with it once he approved it.
 */
export const AgreementStartBody = z.strictObject({ transaction_id: id.optional() });

/** Where the player approves it. */
export const AgreementStartReply = z.object({ payment_id: z.string(), bkash_url: z.string() });

/** `POST /api/v1/bkash-agreement/callback/`: what bKash put in the callback's address, as for a payment. */
export const AgreementCallbackBody = CallbackBody;

export const AGREEMENT_OUTCOMES = ['active', 'failed', 'pending'] as const;

/**
 * What became of the approval, told only to the player who asked for it (anyone else gets nulls): `active` (made, and
 * `wallet` is the one it pays from), `failed`, or `pending` (bKash has not answered yet); and the purchase to pay now.
 */
export const AgreementCallbackReply = z.object({
  outcome: z.enum(AGREEMENT_OUTCOMES).nullable(),
  transaction_id: z.number().int().nullable(),
  wallet: z.string().nullable(),
});

/** `POST /api/v1/transactions/{id}/bkash-checkout/?agreement=skip`: pay without the remembered account (another wallet). */
export const CheckoutQuery = z.strictObject({ agreement: z.enum(['use', 'skip']).default('use') });

/** 01770618575 → 0177*****75, as bKash's pages show a wallet. */
export function maskWallet(wallet: string): string {
  return wallet.length > 6 ? `${wallet.slice(0, 4)}${'*'.repeat(wallet.length - 6)}${wallet.slice(-2)}` : wallet;
}
