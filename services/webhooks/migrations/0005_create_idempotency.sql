-- POST /webhooks with an Idempotency-Key: a retry of a creation (the answer lost to a time-out) is answered with the
-- webhook the first made, not a second endpoint delivering every event twice. Kept a day
-- (IDEMPOTENCY_KEY_TTL_SECONDS), pruned at the account's next creation; gone with its webhook.
CREATE TABLE webhooks.create_requests (
  account_id       bigint NOT NULL,
  idempotency_key  text NOT NULL,
  -- A hash of the creation's body: the same key with another body is refused (400 idempotency_key_reused).
  fingerprint      text NOT NULL,
  webhook_id       text NOT NULL REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, idempotency_key)
);
CREATE INDEX create_requests_webhook ON webhooks.create_requests (webhook_id);
