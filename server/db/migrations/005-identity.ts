/** Identity details for payment (docs/rules/accounts-and-codes.md#13-identity-details): one row per player. */
export const sql = /* sql */ `
CREATE TABLE identities (
  user_id    bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  nid        text NOT NULL CHECK (nid ~ '^([0-9]{10}|[0-9]{13}|[0-9]{17})$'),
  nid_front  uuid NOT NULL REFERENCES uploads(id),
  nid_back   uuid NOT NULL REFERENCES uploads(id),
  phone      text NOT NULL CHECK (phone ~ '^01[0-9]{9}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (nid_front <> nid_back)
);
`;
