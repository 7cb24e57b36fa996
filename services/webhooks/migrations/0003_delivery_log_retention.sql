-- The delivery log is kept DELIVERY_LOG_RETENTION_DAYS (data/delivery-log.ts): the worker's sweep deletes older
-- attempts by time, through this index (without it the log grew by a row per attempt, forever).
CREATE INDEX deliveries_attempted_at ON webhooks.deliveries (attempted_at);
