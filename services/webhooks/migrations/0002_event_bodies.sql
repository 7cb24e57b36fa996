-- One body per change event, shared by every endpoint it is owed to (an event matched by 1,000 endpoints is stored
-- once, not 1,000 times): outbox rows of change events name it by event_id and carry no body of their own; a
-- webhook.test row keeps its own. A body no outbox row names any more is deleted by the worker's sweep.
CREATE TABLE webhooks.event_bodies (
  event_id    text PRIMARY KEY,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE webhooks.outbox ALTER COLUMN body DROP NOT NULL;
CREATE INDEX outbox_event ON webhooks.outbox (event_id);
