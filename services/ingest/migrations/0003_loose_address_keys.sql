-- Real spellings of one address: the loose key folds what the line key keeps apart (street type present or not,
-- spaces inside the name, a house-number range), street name first so that one index serves both a house
-- ("W21ST 201") and every house of a street ("W21ST %", to check which street types a name has in a ZIP or city).
-- The keys of rows stored before this migration are recomputed by the records migration step (`rekey`), which
-- `address_keys_version` tells when to run.
ALTER TABLE records.properties
  ADD COLUMN loose_key text NOT NULL DEFAULT '',
  ADD COLUMN street_type text NOT NULL DEFAULT '';
CREATE INDEX properties_zip_loose ON records.properties (zip, (loose_key COLLATE "C"));
CREATE INDEX properties_city_loose ON records.properties (state, city_key, (loose_key COLLATE "C"));
ALTER TABLE records.dataset_stats ADD COLUMN address_keys_version integer NOT NULL DEFAULT 0;

-- What an import last wrote for each property it owns, so a re-import of a changed file updates that property in
-- place (same id) and an identical one changes nothing. `identity` is the parcel's stripped APN when the mapping
-- gives one ("apn:36463117"), else its normalised address ("addr:8873 18TH AVE|11214|").
CREATE TABLE records.import_state (
  source       text NOT NULL,
  identity     text NOT NULL,
  property_id  bigint NOT NULL,
  digest       text NOT NULL,
  input        jsonb NOT NULL,
  PRIMARY KEY (source, identity)
);
