-- A 503 never costs (issue 35): a charge whose answer was lost (a time-out) is reversed once billing answers again.
-- The reversal is a usage event of its own (its own event id, negative credits, counted as no call) and, per grant
-- the charge took from, a 'refund' ledger entry that gives the credits back, bound to the reversal's event id.
ALTER TABLE billing.usage_events DROP CONSTRAINT usage_events_credits_check;
ALTER TABLE billing.ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE billing.ledger_entries DROP CONSTRAINT ledger_entries_check;
ALTER TABLE billing.ledger_entries DROP CONSTRAINT ledger_entries_check1;
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('grant', 'charge', 'expire', 'refund'));
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_sign_check
  CHECK ((kind IN ('grant', 'refund')) = (amount > 0));
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_transaction_check
  CHECK ((kind IN ('charge', 'refund')) = (transaction_id IS NOT NULL));
CREATE UNIQUE INDEX ledger_one_refund_per_grant ON billing.ledger_entries (transaction_id, grant_id) WHERE kind = 'refund';
