-- Every authenticated call that reached a service is counted in /usage, charged or not: a call without a charge is a
-- usage event of 0 credits (it moves no credit and writes no ledger entry).
ALTER TABLE billing.usage_events DROP CONSTRAINT usage_events_credits_check;
ALTER TABLE billing.usage_events ADD CONSTRAINT usage_events_credits_check CHECK (credits >= 0);
