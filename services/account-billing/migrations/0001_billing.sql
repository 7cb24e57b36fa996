-- Accounts, API keys, credit grants and the usage ledger. PostgreSQL holds the truth; Redis holds live balances
-- derived from it (see src/data/charge-script.ts).
CREATE SCHEMA billing;

CREATE TABLE billing.accounts (
  id                   bigserial PRIMARY KEY,
  email                text NOT NULL UNIQUE,
  name                 text NOT NULL,
  tier                 text NOT NULL CHECK (tier IN ('free', 'basic', 'starter', 'growth', 'pro', 'scale', 'enterprise')),
  status               text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  rate_limit_override  integer CHECK (rate_limit_override > 0),
  daily_quota_override integer CHECK (daily_quota_override > 0),
  calls_total          bigint NOT NULL DEFAULT 0,
  last_used            timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE billing.api_keys (
  id          bigserial PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES billing.accounts (id),
  kind        text NOT NULL DEFAULT 'standard' CHECK (kind IN ('standard', 'marketplace')),
  prefix      text NOT NULL,
  key_hash    text NOT NULL UNIQUE,          -- SHA-256 of the key; the key itself is never stored
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);
CREATE INDEX api_keys_account ON billing.api_keys (account_id);

CREATE TABLE billing.credit_grants (
  id           bigserial PRIMARY KEY,
  account_id   bigint NOT NULL REFERENCES billing.accounts (id),
  amount       integer NOT NULL CHECK (amount > 0),
  remaining    integer NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
  purchased_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  source_plan  text,
  CHECK (expires_at > purchased_at)
);
CREATE INDEX credit_grants_live ON billing.credit_grants (account_id, expires_at) WHERE remaining > 0;

-- One row per charged request; the transaction id makes a repeated delivery a no-op.
CREATE TABLE billing.usage_events (
  transaction_id uuid PRIMARY KEY,
  account_id     bigint NOT NULL REFERENCES billing.accounts (id),
  key_id         bigint,
  endpoint       text NOT NULL,
  credits        integer NOT NULL CHECK (credits > 0),
  stream_id      text NOT NULL,               -- the Redis outbox entry id: orders events for reconciliation
  occurred_at    timestamptz NOT NULL,
  recorded_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_events_account ON billing.usage_events (account_id, occurred_at);

-- Append-only: every credit granted, charged (per grant it came from) or expired.
CREATE TABLE billing.ledger_entries (
  id             bigserial PRIMARY KEY,
  account_id     bigint NOT NULL REFERENCES billing.accounts (id),
  grant_id       bigint NOT NULL REFERENCES billing.credit_grants (id),
  kind           text NOT NULL CHECK (kind IN ('grant', 'charge', 'expire')),
  amount         integer NOT NULL,            -- + for grants, - for charges and expiries
  transaction_id uuid,
  at             timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'grant') = (amount > 0)),
  CHECK ((kind = 'charge') = (transaction_id IS NOT NULL))
);
CREATE INDEX ledger_account ON billing.ledger_entries (account_id, kind);
CREATE UNIQUE INDEX ledger_one_charge_per_grant ON billing.ledger_entries (transaction_id, grant_id) WHERE kind = 'charge';

CREATE FUNCTION billing.forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'billing.ledger_entries is append-only';
END $$;
CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON billing.ledger_entries
  FOR EACH ROW EXECUTE FUNCTION billing.forbid_change();

CREATE TABLE billing.daily_usage (
  account_id   bigint NOT NULL REFERENCES billing.accounts (id),
  day          date NOT NULL,
  calls        integer NOT NULL DEFAULT 0,
  credits_used integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, day)
);
