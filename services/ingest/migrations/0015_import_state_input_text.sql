-- import_state.input as text, not jsonb (issue 36): PostgreSQL never reads inside it but to find a joined file's
-- addresses (import-join.ts, once an import, cast there), and parsing ~1 KB of JSON into jsonb on every row written
-- was a quarter of a first load's PostgreSQL time (COPY of 106,700 states: 33 -> 16 us a row, docs/benchmarks.md).
-- The importer parses the text itself, as it did jsonb's text. A store with import state is rewritten once here.
ALTER TABLE records.import_state ALTER COLUMN input TYPE text USING input::text;
