/**
 * A statement upload approves nothing until a second staff member confirms it, and a person's approval of a review row
 * is a proposal until a second one confirms it (docs/rules/payments.md#83-uploading-a-statement,
 * docs/decisions/052-statement-by-two.md).
 *
 * `bkash_statements.status`: `awaiting_confirmation` (stored, its `approve` rows wait), `confirmed` (a second staff
 * member, `confirmed_by`, carried them out), `discarded` (a staff member set it aside with `discard_reason`; it
 * approves nothing and its rows take no part). Uploads made before this rule approved at once: they are `confirmed`,
 * with no one in `confirmed_by`. The one who confirms is never the one who uploaded (a check, besides the API's 403).
 * `bkash_statement_rows.proposed_*`: the first staff member's approval of a review row, waiting for a second; the one
 * who resolves it `approved` is never the one who proposed it.
 */
export const sql = /* sql */ `
ALTER TABLE bkash_statements
  ADD COLUMN status text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('awaiting_confirmation', 'confirmed', 'discarded')),
  ADD COLUMN confirmed_by bigint REFERENCES users(id),
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN discarded_by bigint REFERENCES users(id),
  ADD COLUMN discarded_at timestamptz,
  ADD COLUMN discard_reason text CHECK (discard_reason IS NULL OR length(discard_reason) BETWEEN 1 AND 500);
ALTER TABLE bkash_statements ALTER COLUMN status SET DEFAULT 'awaiting_confirmation';
ALTER TABLE bkash_statements ADD CONSTRAINT bkash_statements_confirmed_by_another
  CHECK (confirmed_by IS NULL OR (status = 'confirmed' AND confirmed_at IS NOT NULL AND confirmed_by <> uploaded_by));
ALTER TABLE bkash_statements ADD CONSTRAINT bkash_statements_discarded
  CHECK ((status = 'discarded') = (discarded_by IS NOT NULL AND discarded_at IS NOT NULL AND discard_reason IS NOT NULL));

ALTER TABLE bkash_statement_rows
  ADD COLUMN proposed_by bigint REFERENCES users(id),
  ADD COLUMN proposed_at timestamptz,
  ADD COLUMN proposal_note text CHECK (proposal_note IS NULL OR length(proposal_note) BETWEEN 1 AND 500);
ALTER TABLE bkash_statement_rows ADD CONSTRAINT bkash_statement_rows_proposal
  CHECK (proposed_by IS NULL OR (decision = 'review' AND proposed_at IS NOT NULL AND proposal_note IS NOT NULL));
ALTER TABLE bkash_statement_rows ADD CONSTRAINT bkash_statement_rows_approved_by_another
  CHECK (resolution IS DISTINCT FROM 'approved' OR proposed_by IS NULL OR resolved_by <> proposed_by);
`;
