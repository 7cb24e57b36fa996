-- The PostgreSQL adapter's type-ahead index: one row per property (unit-level), keyed by the same normalised
-- address keys as lookups, with the suggestion pre-rendered. Prefix searches are btree range scans
-- (text_pattern_ops), so a keystroke is one index probe at any size.
CREATE SCHEMA search;

CREATE TABLE search.address_suggestions (
  property_id  bigint PRIMARY KEY,
  house_number text,
  line_key     text NOT NULL,            -- "123 N MAIN ST"
  street_key   text NOT NULL,            -- "N MAIN ST"
  unit_key     text NOT NULL DEFAULT '',
  zip          char(5) NOT NULL,
  state        char(2) NOT NULL,
  city_key     text NOT NULL,
  doc          text NOT NULL,            -- the suggestion JSON
  indexed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX address_suggestions_line ON search.address_suggestions (line_key text_pattern_ops, unit_key);
CREATE INDEX address_suggestions_state_line ON search.address_suggestions (state, line_key text_pattern_ops, unit_key);
CREATE INDEX address_suggestions_zip_line ON search.address_suggestions (zip, line_key text_pattern_ops, unit_key);
CREATE INDEX address_suggestions_zip_street ON search.address_suggestions (zip, street_key text_pattern_ops, house_number);
