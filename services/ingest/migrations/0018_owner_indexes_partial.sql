-- The two name indexes of records.owners without the rows they can never answer (issue 36). A row has a last name key
-- (an Individual or a Trustee: found by last and first name, owners_name) or the words of its name (an entity, or a
-- full name without a last name: found by any word, owners_name_words), about never both. Each index held every row
-- anyway: the btree a NULL-led entry for each entity, the GIN a NULL item for each person (three owners in four in
-- Philadelphia's roll). Every query of them names the key (`last_name_key = $1`, `name_words @> $5`), which implies
-- it is not NULL, so the planner uses the partial indexes as it used the whole ones. What a load writes of them:
-- COPY of Philadelphia x20's 146,000 owner rows into the table with its indexes, 0.94-0.99 s against 1.13-1.47 s.
DROP INDEX records.owners_name;
CREATE INDEX owners_name ON records.owners (last_name_key, state, city_key, first_name_key, property_id)
  WHERE last_name_key IS NOT NULL;
DROP INDEX records.owners_name_words;
CREATE INDEX owners_name_words ON records.owners USING gin (name_words) WHERE name_words IS NOT NULL;
