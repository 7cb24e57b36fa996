-- Webhooks (issue 38): an account's endpoints, the events waiting for each, and every delivery attempt.
-- PostgreSQL is the truth of what is owed to whom; BullMQ (Redis) only schedules the attempts, so a Redis that comes
-- back empty loses no event (the worker re-enqueues what the outbox still holds: docs/webhook-delivery.md).
CREATE SCHEMA webhooks;

CREATE TABLE webhooks.endpoints (
  id                    text PRIMARY KEY CHECK (id ~ '^wh_[0-9a-f]{24}$'),
  account_id            bigint NOT NULL REFERENCES billing.accounts (id),
  url                   text NOT NULL,
  -- event types it receives (property.created, property.updated, property.removed)
  events                text[] NOT NULL CHECK (cardinality(events) > 0),
  -- which records: {zip, state, county, ownerId, propertyIds}, each optional, all given must match
  filter                jsonb NOT NULL DEFAULT '{}',
  -- whsec_<base64>: kept to sign every delivery (shown to the account once, at creation)
  secret                text NOT NULL CHECK (secret LIKE 'whsec_%'),
  status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason       text,
  disabled_at           timestamptz,
  -- failed attempts since the last acknowledged one (any event); reset by a 2xx
  consecutive_failures  integer NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now(),
  -- the endpoint receives the change events after this position (the feed's last one when it was created)
  start_position        bigint NOT NULL,
  -- the newest change event acknowledged by the endpoint, and when
  last_delivered_position bigint,
  last_delivered_at     timestamptz
);
CREATE INDEX endpoints_account ON webhooks.endpoints (account_id, created_at);
CREATE INDEX endpoints_active ON webhooks.endpoints (start_position) WHERE status = 'active';

-- What each endpoint is owed: one row per (endpoint, event) from the moment the dispatcher matched it until it is
-- acknowledged (2xx) or dead-lettered; deleted then. `body` is the signed payload, fixed once, so every retry
-- sends the same bytes under the same webhook-id. Per record (property_id) only the oldest row of an endpoint is
-- queued at a time: the next is enqueued when it is done, so a record's events arrive in order.
CREATE TABLE webhooks.outbox (
  webhook_id     text NOT NULL REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
  event_id       text NOT NULL,
  event_type     text NOT NULL,
  -- the change event's position (null: a webhook.test event)
  position       bigint,
  -- the record the event is about (null: a webhook.test event, which waits for nothing)
  property_id    bigint,
  body           text NOT NULL,
  -- attempts made so far (the BullMQ job's own count restarts if Redis loses it; this one does not)
  attempts_made  integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- when it was handed to BullMQ (null: not yet, or parked while its endpoint is disabled)
  enqueued_at    timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX outbox_chain ON webhooks.outbox (webhook_id, property_id, position);
CREATE INDEX outbox_unqueued ON webhooks.outbox (created_at) WHERE enqueued_at IS NULL;

-- Every attempt: what was sent and what came back. outcome: delivered (2xx), failed (will be retried),
-- dead_letter (the last attempt failed: the event is given up for this endpoint).
CREATE TABLE webhooks.deliveries (
  id             bigserial PRIMARY KEY,
  webhook_id     text NOT NULL REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
  event_id       text NOT NULL,
  event_type     text NOT NULL,
  attempt        integer NOT NULL CHECK (attempt > 0),
  attempted_at   timestamptz NOT NULL DEFAULT now(),
  http_status    integer,
  error          text,
  latency_ms     integer NOT NULL,
  outcome        text NOT NULL CHECK (outcome IN ('delivered', 'failed', 'dead_letter')),
  next_attempt_at timestamptz
);
CREATE INDEX deliveries_webhook ON webhooks.deliveries (webhook_id, id DESC);
CREATE INDEX deliveries_event ON webhooks.deliveries (webhook_id, event_id);

-- The dispatcher's cursor in the change feed (records.change_events): every event at or below `position` has been
-- matched against the endpoints and its outbox rows written, in the same transaction that advanced it.
CREATE TABLE webhooks.dispatch_state (
  singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  position       bigint NOT NULL DEFAULT 0,
  dispatched_at  timestamptz
);
INSERT INTO webhooks.dispatch_state DEFAULT VALUES;
