-- The parcel's ZIP beside each owner (issue 36), filled by migration 0020 and by every import since (copy-rows.ts).
-- A migration of its own: adding a column takes the table's exclusive lock, held to the commit, and here it is held
-- for no more than the column's adding (no default, no rewrite), not through 0020's pass over every owner. The lock
-- is waited for 10 s at most: behind an import's open transaction every owner search would queue behind this one;
-- failing lets the migration Job try again (charts/README.md, "Upgrade": pause imports while it runs).
SET LOCAL lock_timeout = '10s';
ALTER TABLE records.owners ADD COLUMN zip char(5);
