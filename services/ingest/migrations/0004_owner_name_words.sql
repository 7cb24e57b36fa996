-- Owners without a personal last name (companies, trusts, government, full names imported as one field) are found
-- by any word of their name through `lastName` (SPEC 4.2): `ACME` finds `ACME HOLDINGS LLC`. Individuals keep their
-- last name key; `name_words` is NULL for them.
ALTER TABLE records.owners ADD COLUMN name_words text[];
UPDATE records.owners
   SET name_words = array_remove(regexp_split_to_array(
         trim(regexp_replace(upper(regexp_replace(full_name, '[.''’]', '', 'g')), '[^A-Z0-9/]+', ' ', 'g')), ' '), '')
 WHERE full_name IS NOT NULL AND (last_name_key IS NULL OR owner_type <> 'Individual');
CREATE INDEX owners_name_words ON records.owners USING gin (name_words);
