-- A usage event's transaction_id is the event's own id, new for every charge and every counted call; request_id is
-- the client's transactionID (the request id, or the one an Idempotency-Key chose). Before, the client's id was the
-- event's key, and a 0-credit call event or an expired Idempotency-Key's earlier charge under the same id made
-- PostgreSQL skip a later charge (free records, then refunded by reconcile).
ALTER TABLE billing.usage_events ADD COLUMN request_id uuid;
UPDATE billing.usage_events SET request_id = transaction_id;
CREATE INDEX usage_events_request ON billing.usage_events (request_id);
