-- The two name indexes of records.owners without the rows they can never answer (issue 36). A row has a last name key
-- (a person: found by last and first name, owners_name), the words of its name (an entity, or a full name without a
-- last name: found by any word, owners_name_words), or both (an owner of another type with a parsed last name, an
-- Estate's say: copy-rows.ts ownerNameWords). Each index held every row anyway: the btree a NULL-led entry for each
-- entity, the GIN a NULL item for each person (three owners in four in Philadelphia's roll). Every owner search names
-- the key with a strict operator (`last_name_key = $1`, `name_words @> $n`: services/lookup record-queries.ts and
-- record-counts.ts), which implies it is not NULL, so the planner uses the partial indexes as it used the whole ones
-- (lookup.owner-names.test.ts checks every such statement's plans). What a load writes of them: COPY of Philadelphia
-- x20's owner rows into a table with its indexes, a quarter to two fifths less time (docs/benchmarks.md, issue 36's
-- tenth pass). Like every migration this runs in one transaction, so the new indexes are built first, under names of
-- their own, while the old ones still serve owner searches (a build blocks writes to records.owners only: imports
-- wait, 2.7 s for a million owner rows here); only the drops and renames at the end, held to the commit, take the
-- table's exclusive lock. IF EXISTS: a store whose bulk first load was stopped before it rebuilt its indexes
-- (loader.ts withBulkLoadIndexes) has neither, and gets the partial ones.
CREATE INDEX owners_name_partial ON records.owners (last_name_key, state, city_key, first_name_key, property_id)
  WHERE last_name_key IS NOT NULL;
CREATE INDEX owners_name_words_partial ON records.owners USING gin (name_words) WHERE name_words IS NOT NULL;
DROP INDEX IF EXISTS records.owners_name;
DROP INDEX IF EXISTS records.owners_name_words;
ALTER INDEX records.owners_name_partial RENAME TO owners_name;
ALTER INDEX records.owners_name_words_partial RENAME TO owners_name_words;
