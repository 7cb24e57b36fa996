-- Marketplace subscribers (issue 27, part 5): behind the marketplace's proxy secret, a subscriber is named by the
-- marketplace's user header and its subscription header names the plan. Each (user, plan) is one account of ours,
-- made on its first call, with one row in api_keys of kind 'subscriber' (no key: its hash is derived from the user
-- and the plan, see @pra/core/auth subscriberKeyHash) so that it is cached, looked up, disabled and rebuilt like a key.
ALTER TABLE billing.api_keys DROP CONSTRAINT api_keys_kind_check;
ALTER TABLE billing.api_keys ADD CONSTRAINT api_keys_kind_check
  CHECK (kind IN ('standard', 'marketplace', 'subscriber'));

CREATE TABLE billing.marketplace_subscriptions (
  id               bigserial PRIMARY KEY,
  marketplace_user text NOT NULL CHECK (length(marketplace_user) BETWEEN 1 AND 128),
  plan             text NOT NULL,
  account_id       bigint NOT NULL UNIQUE REFERENCES billing.accounts (id),
  key_id           bigint NOT NULL UNIQUE REFERENCES billing.api_keys (id),
  -- Periods are validDays long from the first call: period n is [anchor + n * validDays, anchor + (n + 1) * validDays).
  anchor           timestamptz NOT NULL,
  -- The end of the latest period granted: the key cache entry carries it, and a gateway asks account-billing again
  -- once it has passed (the next period's allowance is granted on the first call in it).
  period_ends      timestamptz NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (marketplace_user, plan)
);

-- One allowance per period, never two: the plan's records as one credit grant that expires when the period ends
-- (unused records do not carry over; the grant is written off by the expire-credits job like any other).
CREATE TABLE billing.marketplace_periods (
  subscription_id bigint NOT NULL REFERENCES billing.marketplace_subscriptions (id),
  period          integer NOT NULL CHECK (period >= 0),
  grant_id        bigint NOT NULL UNIQUE REFERENCES billing.credit_grants (id),
  PRIMARY KEY (subscription_id, period)
);
