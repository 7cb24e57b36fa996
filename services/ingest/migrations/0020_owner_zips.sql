-- The ZIP of each owner's parcel (the column of migration 0019), for an owner search by a city the records do not
-- name (issue 36): Lebanon's roll names its municipality (LEBANON) for every parcel, while the owners and clients of
-- ZIP 03784 write WEST LEBANON, the post office's city. Such a search reads the owners of the name in the state whose
-- parcel is in one of the ZIPs the post office calls by that name (services/lookup record-queries.ts ownerPlaceWhere
-- `_state_zips`). The ZIP is carried in owners_name (INCLUDE: no key and no index more to fill), so that search
-- reads the same index range as an owner search by state alone and checks the ZIP in the index entry, reading no
-- parcel; the name words' search checks it on the owner's row, as it checks the state. A parcel without a ZIP (a roll
-- without site ZIPs, and no evidence) gives its owners the same empty value.
-- Like every migration this runs in one transaction, ordered as 0018 is: writes to records.owners are locked out
-- first (SHARE ROW EXCLUSIVE: searches read on, imports wait), so that no owner row is written without its ZIP while
-- the ZIPs are copied (an importer older than 0019 writes none; the review's test) and no import's delete meets the
-- update's row locks; then the existing owners' ZIPs are copied from their parcels and the new index built under a
-- name of its own while the old one still serves owner searches; only the drop and rename at the end, held to the
-- commit, take the table's exclusive lock (test/owner-index-migration.test.ts).
LOCK TABLE records.owners IN SHARE ROW EXCLUSIVE MODE;
UPDATE records.owners o SET zip = p.zip FROM records.properties p WHERE p.id = o.property_id AND o.zip IS DISTINCT FROM p.zip;
CREATE INDEX owners_name_with_zip ON records.owners (last_name_key, state, city_key, first_name_key, property_id)
  INCLUDE (zip) WHERE last_name_key IS NOT NULL;
DROP INDEX IF EXISTS records.owners_name;
ALTER INDEX records.owners_name_with_zip RENAME TO owners_name;
