-- The parcel registry: `identifier.parcelId` is allocated here, once per parcel, instead of hashed from the county
-- and APN (a 48-bit hash: collisions expected at national volume). A parcel is its county and its key: the stripped
-- APN, or, for an import whose mapping reads no APN, its import identity ("addr:<line key>|<ZIP>|<unit key>").
-- Rows are never deleted (removing a source leaves them), so a parcel keeps its id across reloads and sources.
CREATE TABLE records.parcels (
  parcel_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  fips        text NOT NULL,
  parcel_key  text NOT NULL,
  UNIQUE (fips, parcel_key)
);

-- The ids of a batch's parcels, registering the new ones: one call per batch. Safe under concurrent callers: the
-- INSERT waits for a concurrent uncommitted insert of the same parcel and then skips it, and the SELECT, a statement
-- of its own in a VOLATILE function, takes a fresh snapshot (under READ COMMITTED, as callers run it) that sees the
-- row the other committed: both get the one id. Inserted in key order, so two overlapping batches cannot deadlock.
CREATE FUNCTION records.register_parcels(p_fips text[], p_keys text[])
RETURNS TABLE (fips text, parcel_key text, parcel_id bigint)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  -- Known parcels are left out first: a conflict would still draw (and waste) an identity value.
  INSERT INTO records.parcels AS p (fips, parcel_key)
  SELECT DISTINCT u.f, u.k FROM unnest(p_fips, p_keys) AS u(f, k)
   WHERE NOT EXISTS (SELECT 1 FROM records.parcels k WHERE k.fips = u.f AND k.parcel_key = u.k)
   ORDER BY u.f, u.k
  ON CONFLICT DO NOTHING;
  RETURN QUERY
    SELECT p.fips, p.parcel_key, p.parcel_id
      FROM records.parcels p
      JOIN (SELECT DISTINCT u.f, u.k FROM unnest(p_fips, p_keys) AS u(f, k)) u
        ON p.fips = u.f AND p.parcel_key = u.k;
END
$$;
