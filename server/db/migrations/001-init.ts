/** Accounts, lotteries, sales and prizes: the tables the first vertical slice needs. */
export const sql = /* sql */ `
CREATE TABLE users (
  id             bigserial PRIMARY KEY,
  name           text NOT NULL,
  email          text UNIQUE,
  phone          text UNIQUE,
  password_hash  text NOT NULL,
  location       text NOT NULL DEFAULT '',
  picture_id     uuid,
  is_active      boolean NOT NULL DEFAULT false,
  is_staff       boolean NOT NULL DEFAULT false,
  is_superuser   boolean NOT NULL DEFAULT false,
  phone_confirmed boolean NOT NULL DEFAULT false,
  email_confirmed boolean NOT NULL DEFAULT false,
  date_joined    timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CHECK (email IS NOT NULL OR phone IS NOT NULL)
);

CREATE TABLE one_time_codes (
  id          bigserial PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('account', 'reset', 'claim')),
  subject     text NOT NULL DEFAULT '',
  code_hash   text NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX one_time_codes_lookup ON one_time_codes (user_id, purpose, subject, created_at DESC);

CREATE TABLE refresh_tokens (
  jti         uuid PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

CREATE TABLE rate_limits (
  key          text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL
);

CREATE TABLE outbox (
  id         bigserial PRIMARY KEY,
  channel    text NOT NULL CHECK (channel IN ('sms', 'email')),
  recipient  text NOT NULL,
  purpose    text NOT NULL,
  body       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at    timestamptz
);

CREATE TABLE uploads (
  id           uuid PRIMARY KEY,
  owner_id     bigint REFERENCES users(id) ON DELETE SET NULL,
  kind         text NOT NULL CHECK (kind IN ('profile', 'nid')),
  content_type text NOT NULL,
  size         integer NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE lotteries (
  id                  bigserial PRIMARY KEY,
  name                text NOT NULL,
  description         text NOT NULL DEFAULT '',
  start_date          timestamptz NOT NULL,
  end_date            timestamptz NOT NULL,
  ticket_price        bigint NOT NULL CHECK (ticket_price >= 1),
  total_tickets       integer NOT NULL CHECK (total_tickets >= 1),
  winners             integer NOT NULL CHECK (winners >= 1),
  total_prize         bigint NOT NULL CHECK (total_prize >= 1),
  published           boolean NOT NULL DEFAULT false,
  featured            boolean NOT NULL DEFAULT false,
  is_result_published boolean NOT NULL DEFAULT false,
  drawn_at            timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK (end_date > start_date)
);
CREATE INDEX lotteries_published ON lotteries (published, end_date);

CREATE TABLE transactions (
  id               bigserial PRIMARY KEY,
  user_id          bigint NOT NULL REFERENCES users(id),
  lottery_id       bigint NOT NULL REFERENCES lotteries(id),
  ticket           text NOT NULL,
  amount           bigint NOT NULL CHECK (amount >= 0),
  transaction_type text NOT NULL DEFAULT 'payment',
  payment_method   text NOT NULL,
  payment_number   text NOT NULL DEFAULT '',
  trx_id           text UNIQUE,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'success', 'failed')),
  idempotency_key  text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);
-- A combination is sold at most once per lottery: pending and successful sales hold it.
CREATE UNIQUE INDEX transactions_ticket_held ON transactions (lottery_id, ticket) WHERE status IN ('pending', 'success');
CREATE INDEX transactions_user ON transactions (user_id, created_at DESC);
CREATE INDEX transactions_lottery_status ON transactions (lottery_id, status);

CREATE TABLE prizes (
  id             bigserial PRIMARY KEY,
  lottery_id     bigint NOT NULL REFERENCES lotteries(id),
  transaction_id bigint NOT NULL REFERENCES transactions(id),
  ticket         text NOT NULL,
  prize_money    bigint NOT NULL CHECK (prize_money >= 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (lottery_id, ticket)
);

CREATE TABLE audit_log (
  id         bigserial PRIMARY KEY,
  actor_id   bigint REFERENCES users(id),
  action     text NOT NULL,
  entity     text NOT NULL,
  entity_id  text NOT NULL,
  before     jsonb,
  after      jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;
