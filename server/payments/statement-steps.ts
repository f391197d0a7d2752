/**
 * Who may take which step on an uploaded statement and on its rows (docs/rules/payments.md#84-confirming-or-discarding-an-upload,
 * docs/rules/payments.md#86-resolving-a-row): no single staff member approves a payment, so an upload is confirmed by
 * someone other than its uploader, and a row's approval by someone other than its proposer. Plain rules, no database:
 * server/payments/statement-service.ts applies them under its locks.
 */
import type { STATEMENT_STATUSES } from '../../shared/payments/statement-schemas.ts';

export type UploadStatus = (typeof STATEMENT_STATUSES)[number];

/** Why this staff member may not confirm this upload now, or null: never its uploader, and only while it waits. */
export function confirmRefusal(
  upload: { uploaded_by: number; status: UploadStatus },
  staffId: number,
): 'own_upload' | 'not_awaiting' | null {
  if (upload.uploaded_by === staffId) return 'own_upload';
  return upload.status === 'awaiting_confirmation' ? null : 'not_awaiting';
}

/** Why an upload may not be discarded now, or null: any staff member (its uploader too) discards it while it waits. */
export const discardRefusal = (upload: { status: UploadStatus }): 'not_awaiting' | null =>
  upload.status === 'awaiting_confirmation' ? null : 'not_awaiting';

/** Why the rows of an upload in this state may not be decided, or null: only a confirmed upload's rows are. */
export function rowsRefusal(status: UploadStatus): 'awaiting_confirmation' | 'statement_discarded' | null {
  if (status === 'confirmed') return null;
  return status === 'discarded' ? 'statement_discarded' : 'awaiting_confirmation';
}

/**
 * What a staff member's `approve` of a review row does: the first proposes it; another staff member's confirms the
 * proposal (and approves the purchase); the proposer's own is refused.
 */
export function approveStep(proposedBy: number | null, staffId: number): 'propose' | 'confirm' | 'own_proposal' {
  if (proposedBy === null) return 'propose';
  return proposedBy === staffId ? 'own_proposal' : 'confirm';
}
