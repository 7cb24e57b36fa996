-- The mappings whose files have been imported before (issue 38): the first import of a mapping is a first load and
-- emits no change events (a county's parcels file, then its details, sales and address points joined over them,
-- would otherwise announce every parcel three times as it is being filled in). Written when an import of the mapping
-- ends. Sources loaded before this migration: their own mapping (source `import:<mapping>`) counts as loaded; a
-- joined mapping's next import is taken as its first.
CREATE TABLE records.mapping_loads (
  mapping          text PRIMARY KEY,
  first_loaded_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO records.mapping_loads (mapping)
SELECT DISTINCT substr(source, 8) FROM records.import_state WHERE source LIKE 'import:%'
ON CONFLICT DO NOTHING;
