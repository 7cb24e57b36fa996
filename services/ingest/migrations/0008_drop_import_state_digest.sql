-- import_state.digest (a canonical-JSON digest of the stored input) has not been read since 0007: a re-import tells
-- an unchanged parcel from file_digest, or compares the merge with the stored input itself. No importer that could
-- still write it can run against this schema (0006 dropped tables and columns every older loader writes), so the
-- column, kept "until no older importer writes it", goes.
ALTER TABLE records.import_state DROP COLUMN digest;
