/**
 * The bKash statements staff upload to confirm Send Money purchases (docs/rules/payments.md#8-send-money-reconciled-with-the-statement):
 * the upload, the rows read from it with their decisions, a person's resolution of a row listed for review, and the
 * purchases flagged after 48 hours.
 */
import { z } from 'zod';
import { freeText, optional, text } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

/** What the upload did with a row (docs/rules/payments.md#84-confirming-or-discarding-an-upload). */
/**
 * Where a Send Money purchase stands with the statements (docs/rules/payments.md#87-on-the-transactions-page): matched
 * (approved from a statement, or a statement confirmed its approval), a row waiting for a person, a row a person
 * dismissed, flagged (in no statement 48 hours after its TrxID), or waiting for a statement.
 */
export const RECONCILIATION_STATES = ['matched', 'review', 'dismissed', 'flagged', 'waiting'] as const;
export type ReconciliationState = (typeof RECONCILIATION_STATES)[number];

export const STATEMENT_DECISIONS = ['approve', 'review', 'ignore', 'problem'] as const;
export type StatementDecision = (typeof STATEMENT_DECISIONS)[number];

/**
 * Why a row is listed for review or left alone, or why it could not be read: the reasons of the reader
 * (server/payments/statement-parser.ts), of the matching (statement-match.ts), and those of the upload itself.
 */
export const STATEMENT_REASONS = [
  // problems of a row
  'trx_id_invalid',
  'amount_invalid',
  'amount_not_whole',
  'sender_invalid',
  'date_invalid',
  'type_invalid',
  // review
  'trx_id_twice',
  'trx_id_in_two_purchases',
  'amount_differs',
  'sender_differs',
  'sender_masked',
  'sender_not_given',
  'no_purchase',
  'already_settled',
  'purchase_failed',
  'not_received',
  'direction_unknown',
  // review, decided when the upload is confirmed: the purchase is the uploader's or the confirmer's own, its lottery's
  // results are out, its sales have closed, it changed meanwhile
  'own_purchase',
  'results_published',
  'sales_closed',
  'tickets_frozen',
  'changed_meanwhile',
  // ignore
  'outgoing',
  'already_approved',
] as const;
export type StatementReason = (typeof STATEMENT_REASONS)[number];

/** Why a whole file was refused (server/payments/statement-parser.ts StatementRead), besides a body that is not a file. */
export const STATEMENT_FILE_ERRORS = [
  'empty',
  'too_large',
  'too_many_rows',
  'unreadable',
  'format_not_supported',
  'not_a_statement',
] as const;

/** The content types the upload takes as its raw body; the file itself says what it is (XLSX and PDF are refused by their bytes). */
export const STATEMENT_TYPES = [
  'text/csv',
  'text/plain',
  'text/tab-separated-values',
  'application/csv',
  'application/octet-stream',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/pdf',
] as const;

/** A file name as staff's computer gave it: its last path segment, 1–255 characters, no control characters. */
export const StatementFileName = text(255, 'required').transform((s) => (s.split(/[\\/]/).pop() ?? '').trim() || 'statement.csv');

/** `POST /api/v1/bkash-statements/?name=…`: the file's name (the body is the file). */
export const StatementUploadQuery = z.strictObject({ name: StatementFileName });

export const StatementCounts = z.object({
  rows_read: z.number().int(),
  approved: z.number().int(),
  review: z.number().int(),
  ignored: z.number().int(),
  problems: z.number().int(),
  /** Review rows nobody has resolved yet. */
  open: z.number().int(),
});

/**
 * Where an upload stands (docs/rules/payments.md#83-uploading-a-statement): its `approve` rows wait for a second staff
 * member (`awaiting_confirmation`), were carried out when he confirmed it (`confirmed`), or never will be (`discarded`).
 */
export const STATEMENT_STATUSES = ['awaiting_confirmation', 'confirmed', 'discarded'] as const;

const StaffRef = z.object({ id: z.number().int(), name: z.string() });

/** One upload. */
export const Statement = z.object({
  id: z.number().int(),
  file_name: z.string(),
  sha256: z.string(),
  size_bytes: z.number().int(),
  uploaded_by: StaffRef,
  created_at: z.string(),
  status: z.enum(STATEMENT_STATUSES),
  /** Who confirmed it and when (null while it waits, and for the uploads made before a second person was needed). */
  confirmation: z.object({ by: StaffRef, at: z.string() }).nullable(),
  /** Who discarded it, when and why. */
  discard: z.object({ by: StaffRef, at: z.string(), reason: z.string() }).nullable(),
  /** `approved`: the rows that approve (or, while it waits, would approve) their purchase. */
  counts: StatementCounts,
});

/** The answer to an upload: the upload, and whether it is an earlier one of the same file (nothing was done again). */
export const StatementUploadReply = Statement.extend({ repeated: z.boolean() });

/** The purchase a row names, as staff need it to decide. */
export const StatementPurchase = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'success', 'failed']),
  amount: z.number().int(),
  trx_id: z.string().nullable(),
  payment_number: z.string(),
  ticket: z.string(),
  user: z.object({ id: z.number().int(), name: z.string(), phone: z.string().nullable() }),
  lottery: z.object({ id: z.number().int(), name: z.string(), name_bn: z.string() }),
});

/** One row read from a statement, with its decision and, for a review row, its resolution. */
export const StatementRowOut = z.object({
  id: z.number().int(),
  statement_id: z.number().int(),
  line: z.number().int(),
  decision: z.enum(STATEMENT_DECISIONS),
  reason: z.enum(STATEMENT_REASONS).nullable(),
  trx_id: z.string().nullable(),
  amount: z.number().int().nullable(),
  sender: z.string().nullable(),
  sender_masked: z.boolean(),
  at: z.string().nullable(),
  type: z.string().nullable(),
  direction: z.enum(['in', 'out', 'unknown']).nullable(),
  /** A problem row's text (at most 200 characters). */
  raw: z.string().nullable(),
  purchase: StatementPurchase.nullable(),
  /** A staff member's approval of this review row, waiting for a second one (docs/rules/payments.md#86-resolving-a-row). */
  proposal: z.object({ by: StaffRef, at: z.string(), note: z.string() }).nullable(),
  resolution: z
    .object({
      action: z.enum(['approved', 'dismissed']),
      by: StaffRef,
      at: z.string(),
      note: z.string(),
    })
    .nullable(),
});

/** `GET /api/v1/bkash-statements/{id}/`: the upload and a page of its rows. */
export const StatementDetail = z.object({
  statement: Statement,
  rows: z.array(StatementRowOut),
  /** The rows of the filter (for paging). */
  total: z.number().int(),
});

/** `GET /api/v1/bkash-statements/{id}/`: paged rows, by decision (`review_open`: the review rows nobody resolved yet). */
export const StatementRowsQuery = Paging.extend({
  decision: optional(z.enum([...STATEMENT_DECISIONS, 'review_open'])),
});

/** `POST /api/v1/bkash-statement-rows/{id}/resolve/`: a person's decision on a review row, always with a note. */
export const ResolveBody = z.strictObject({
  action: z.enum(['approve', 'dismiss']),
  note: freeText(500, 'reasonRequired'),
});

/** `POST /api/v1/bkash-statements/{id}/discard/`: why the upload is set aside. */
export const DiscardBody = z.strictObject({ reason: text(500, 'reasonRequired') });

/** A pending Send Money purchase whose TrxID is in no statement 48 hours after it was given. */
export const FlaggedPurchase = StatementPurchase.extend({
  trx_id: z.string(),
  trx_id_at: z.string(),
  created_at: z.string(),
});

export const FlaggedQuery = Paging;
