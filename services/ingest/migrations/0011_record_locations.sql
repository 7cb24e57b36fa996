-- Area search (issue 27): where each record is, and its property type, as columns, so that a radius, box or polygon
-- search is one GiST index range. Core PostgreSQL only (the `point` type and its GiST operator class): no extension,
-- so the embedded PostgreSQL and every machine serve it (docs/benchmarks.md, "Issue 27: area search", compares it
-- with a PostGIS geography index).
-- - location: point(longitude, latitude) in degrees; NULL when the record has no coordinates.
-- - proptype: summary.proptype as rendered; every write sets it (never NULL), so NULL means "not filled yet".
-- The index carries id and proptype too: a search reads the index alone (an index-only scan), type filter included,
-- and visits the heap only for the page it returns.
-- Bodies are deflated (0006): SQL cannot read the coordinates of the records stored before this migration. They are
-- filled online by the same pass that recomputes address keys (`npm run ingest -- rekey`; npm start and the chart's
-- rekey Job run it), and `locations_filled` says when it is done: until then area search answers 503.
ALTER TABLE records.properties ADD COLUMN location point, ADD COLUMN proptype text;
CREATE INDEX properties_location ON records.properties USING gist (location) INCLUDE (id, proptype);
ALTER TABLE records.dataset_stats ADD COLUMN locations_filled boolean NOT NULL DEFAULT false;
UPDATE records.dataset_stats SET locations_filled = NOT EXISTS (SELECT 1 FROM records.properties);
