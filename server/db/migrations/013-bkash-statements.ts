/**
 * The bKash statements staff upload and every row read from them with its decision
 * (docs/rules/payments.md#8-send-money-reconciled-with-the-statement).
 *
 * `bkash_statements`: one upload; a file is stored once (its SHA-256 is unique: the same bytes again answer as the
 * earlier upload, docs/rules/payments.md#83-uploading-a-statement). The counts are those of its rows below.
 * `bkash_statement_rows`: one per row read. `decision`:
 *   approve   the row approved the pending purchase `transaction_id` when the file was uploaded;
 *   review    listed for a person (`reason`); `resolution` says what he decided (approved / dismissed), who, when, why;
 *   ignore    left alone (`reason`);
 *   problem   the row could not be read (`reason`, its text in `raw`).
 * `transactions.trx_id_at`: when the TrxID was given (the 48-hour flag, #85-the-48-hour-flag). Rows that have one
 * already take the time of their last change: the latest it can have been given.
 */
export const sql = /* sql */ `
CREATE TABLE bkash_statements (
  id           bigserial PRIMARY KEY,
  file_name    text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
  sha256       text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes   integer NOT NULL CHECK (size_bytes > 0),
  uploaded_by  bigint NOT NULL REFERENCES users(id),
  rows_read    integer NOT NULL DEFAULT 0,
  approved     integer NOT NULL DEFAULT 0,
  review       integer NOT NULL DEFAULT 0,
  ignored      integer NOT NULL DEFAULT 0,
  problems     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bkash_statements_newest ON bkash_statements (created_at DESC, id DESC);

CREATE TABLE bkash_statement_rows (
  id              bigserial PRIMARY KEY,
  statement_id    bigint NOT NULL REFERENCES bkash_statements(id),
  line            integer NOT NULL CHECK (line > 0),
  decision        text NOT NULL CHECK (decision IN ('approve', 'review', 'ignore', 'problem')),
  reason          text CHECK (reason IS NULL OR length(reason) <= 40),
  trx_id          text CHECK (trx_id IS NULL OR trx_id ~ '^[A-Z0-9]{8,20}$'),
  amount          bigint,
  sender          text,
  sender_masked   boolean NOT NULL DEFAULT false,
  at              timestamptz,
  type            text,
  direction       text CHECK (direction IS NULL OR direction IN ('in', 'out', 'unknown')),
  raw             text,
  transaction_id  bigint REFERENCES transactions(id),
  resolution      text CHECK (resolution IS NULL OR resolution IN ('approved', 'dismissed')),
  resolved_by     bigint REFERENCES users(id),
  resolved_at     timestamptz,
  resolution_note text CHECK (resolution_note IS NULL OR length(resolution_note) BETWEEN 1 AND 500),
  CHECK (resolution IS NULL OR (decision = 'review' AND resolved_by IS NOT NULL AND resolved_at IS NOT NULL AND resolution_note IS NOT NULL)),
  CHECK ((decision = 'problem') = (trx_id IS NULL))
);
CREATE INDEX bkash_statement_rows_statement ON bkash_statement_rows (statement_id, decision, line, id);
CREATE INDEX bkash_statement_rows_trx_id ON bkash_statement_rows (trx_id) WHERE trx_id IS NOT NULL;
CREATE INDEX bkash_statement_rows_open ON bkash_statement_rows (statement_id) WHERE decision = 'review' AND resolution IS NULL;

ALTER TABLE transactions ADD COLUMN trx_id_at timestamptz;
UPDATE transactions SET trx_id_at = updated_at WHERE trx_id IS NOT NULL;
-- The 48-hour flag's candidates: pending purchases with a TrxID, oldest TrxID first.
CREATE INDEX transactions_trx_id_waiting ON transactions (trx_id_at, id) WHERE status = 'pending' AND trx_id IS NOT NULL;
`;
