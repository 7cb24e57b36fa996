-- Calls without a charge (type-ahead, /usage, a 400, 404 or 402) are counted per account, UTC day and endpoint,
-- not as a usage event of 0 credits each: type-ahead is many calls per lookup, and a row per keystroke would be most
-- of the ledger's writes. Redis counts them, a flusher adds each flush here once (src/workers/call-flusher.ts).
CREATE TABLE billing.call_counts (
  account_id bigint NOT NULL REFERENCES billing.accounts (id),
  day        date NOT NULL,
  endpoint   text NOT NULL,
  calls      bigint NOT NULL CHECK (calls >= 0),
  last_at    timestamptz NOT NULL,              -- the latest of these calls: /usage's last_used
  PRIMARY KEY (account_id, day, endpoint)
);
-- The flushes applied to call_counts, by id: a flush taken again (its flusher died before deleting it in Redis)
-- adds nothing. Ids are pruned after a day (never while their flush is still in Redis).
CREATE TABLE billing.call_flushes (
  id         uuid PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
);
-- The 0-credit events written before are already counted in daily_usage.calls and accounts.calls_total (the ledger
-- writer counted them as it wrote them, and /usage still reads both), so their rows are only weight: dropped. One
-- still in the outbox when this runs is written as before (the writer keeps accepting them) and counted then.
DELETE FROM billing.usage_events WHERE credits = 0;
