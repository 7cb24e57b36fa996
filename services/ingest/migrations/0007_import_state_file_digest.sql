-- The import state, slimmer and quicker to re-import over.
-- `file_digest`: what the file said about the parcel the last time its state was written, kept only when importing
-- that same parcel again over the state would change nothing. A re-import of an unchanged file then tells its parcels
-- unchanged from this column alone, without reading and merging the stored input. NULL (rows written before this
-- migration, or a state the file does not settle) sends the parcel the long way: merged over its stored input.
-- `digest` is no longer written: the long way compares the merge with the stored input itself. Rows written before
-- keep theirs, unread; the column can go once no older importer writes it.
-- `input` is now stored without its default-valued fields and without lastModified (about 40% smaller); whole
-- inputs written before read the same.
ALTER TABLE records.import_state ADD COLUMN file_digest text, ALTER COLUMN digest DROP NOT NULL;
