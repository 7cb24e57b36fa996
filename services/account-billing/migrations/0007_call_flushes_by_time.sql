-- The hourly prune of applied flush ids deletes by age: with every bucket flushed four times a second a busy
-- flusher adds ~5.5M ids a day, and without an index on applied_at each prune read the whole table.
CREATE INDEX call_flushes_applied_at ON billing.call_flushes (applied_at);
