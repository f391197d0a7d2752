/** Messages sent through the contact form: stored before the sender is told they were sent. */
export const sql = /* sql */ `
CREATE TABLE contact_messages (
  id         bigserial PRIMARY KEY,
  user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
  name       text NOT NULL,
  email      text NOT NULL,
  message    text NOT NULL,
  language   text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now(),
  handled_at timestamptz
);
CREATE INDEX contact_messages_open ON contact_messages (created_at DESC) WHERE handled_at IS NULL;
`;
