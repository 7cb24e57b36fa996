-- A record's owners in four places (issue 36): owner1 to owner4, as the incumbent's records have, so that a roll's
-- third and fourth owners (646 rows of the three real rolls name three or more) are kept and found by owner search.
-- records.owners and records.owner_mentions take seq 1 to 4. The checks are replaced, not validated against the rows
-- (NOT VALID): every stored row has seq 1 or 2, which the wider check allows, and validating would read both tables
-- under their lock. Each ALTER takes its table's exclusive lock for no more than the catalog's change, waited for 10 s
-- at most (as 0019: behind an import's open transaction every owner search would queue behind it).
SET LOCAL lock_timeout = '10s';
ALTER TABLE records.owners
  DROP CONSTRAINT owners_seq_check,
  ADD CONSTRAINT owners_seq_check CHECK (seq BETWEEN 1 AND 4) NOT VALID;
ALTER TABLE records.owner_mentions
  DROP CONSTRAINT owner_mentions_seq_check,
  ADD CONSTRAINT owner_mentions_seq_check CHECK (seq BETWEEN 1 AND 4) NOT VALID;
