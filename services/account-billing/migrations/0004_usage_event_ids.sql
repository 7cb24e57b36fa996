-- A usage event's transaction_id is the event's own id, new for every charge and every counted call; request_id is
-- the id the client was answered with (a charge's transactionID, or an uncharged call's request id). Before, the
-- client's id was the event's key, and a 0-credit call event or an expired Idempotency-Key's earlier charge under
-- the same id made PostgreSQL skip a later charge (free records, then refunded by reconcile).
-- Rows written before have a NULL request_id: their transaction_id was the client's. No backfill and no index: the
-- table is the busiest one, and nothing queries by request_id (support looks events up with
-- COALESCE(request_id, transaction_id)).
ALTER TABLE billing.usage_events ADD COLUMN request_id uuid;
