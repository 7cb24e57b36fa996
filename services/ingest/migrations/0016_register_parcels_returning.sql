-- records.register_parcels in one pass (issue 36): the known parcels read, the others inserted with their ids
-- returned. 0009's function inserted, then looked every parcel up again (32 us a row of PostgreSQL in a first load of
-- Philadelphia x20, whose parcels are all new; 19.5 now: docs/benchmarks.md, issue 36's fourth pass). Same contract:
-- the ids of every parcel asked, registering the new ones, safe under concurrent callers. A parcel a concurrent
-- caller inserted first is skipped by the conflict and not returned by the insert; the asked parcels are then read
-- again in a statement of its own, whose fresh snapshot (READ COMMITTED, as callers run it) sees the row the other
-- committed. Rows may then come twice, with one id (registerParcels keys them by parcel).
CREATE OR REPLACE FUNCTION records.register_parcels(p_fips text[], p_keys text[])
RETURNS TABLE (fips text, parcel_key text, parcel_id bigint)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  answered bigint;
  asked bigint;
BEGIN
  RETURN QUERY
    WITH a AS (SELECT DISTINCT u.f, u.k FROM unnest(p_fips, p_keys) AS u(f, k)),
    known AS (
      SELECT p.fips, p.parcel_key, p.parcel_id FROM records.parcels p JOIN a ON p.fips = a.f AND p.parcel_key = a.k),
    added AS (
      -- Known parcels left out first: a conflict would still draw (and waste) an identity value. In key order, so
      -- two overlapping batches cannot deadlock.
      INSERT INTO records.parcels AS p (fips, parcel_key)
      SELECT a.f, a.k FROM a
       WHERE NOT EXISTS (SELECT 1 FROM known WHERE known.fips = a.f AND known.parcel_key = a.k)
       ORDER BY a.f, a.k
      ON CONFLICT DO NOTHING
      RETURNING p.fips, p.parcel_key, p.parcel_id)
    SELECT * FROM known UNION ALL SELECT * FROM added;
  -- Fewer rows than parcels asked: a concurrent caller inserted one after this statement's snapshot.
  GET DIAGNOSTICS answered = ROW_COUNT;
  SELECT count(DISTINCT (u.f, u.k)) INTO asked FROM unnest(p_fips, p_keys) AS u(f, k);
  IF answered < asked THEN
    RETURN QUERY
      SELECT p.fips, p.parcel_key, p.parcel_id
        FROM records.parcels p
        JOIN (SELECT DISTINCT u.f, u.k FROM unnest(p_fips, p_keys) AS u(f, k)) u
          ON p.fips = u.f AND p.parcel_key = u.k;
  END IF;
END
$$;
