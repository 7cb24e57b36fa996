-- import_state.input as text, not jsonb (issue 36): PostgreSQL never reads inside it but to find a joined file's
-- addresses (import-join.ts, once an import, cast there). Parsing each parcel's ~1 KB state into jsonb was most of
-- its COPY: 32.6 us a row of a first load of Philadelphia x20 as jsonb, 13.4 as text (docs/benchmarks.md, issue 36's
-- fourth pass). The importer parses the text itself, as it parsed jsonb's. The ALTER rewrites a store's import state
-- once, under an exclusive lock (an import waits for it); rows written before keep jsonb's key order and spacing,
-- which every reader ignores (JSON.parse).
ALTER TABLE records.import_state ALTER COLUMN input TYPE text USING input::text;
