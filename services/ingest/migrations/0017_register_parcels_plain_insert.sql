-- records.register_parcels with a plain INSERT where no concurrent caller registers the same parcels (issue 36): the
-- ON CONFLICT DO NOTHING of 0016 makes every row a speculative insertion (the unique index checked, the row inserted
-- with a token, the token confirmed), about twice the cost of a plain insert (106,700 new parcels: 640-810 against
-- 320-380 ms here), and a first load's parcels are all new. Nor is the count of distinct parcels asked (a second
-- pass over them, ~3 us a row) taken on that way: an insert that succeeded answers every parcel, known or added.
--
-- Same contract: the ids of every parcel asked, registering the new ones, safe under concurrent callers. The plain
-- INSERT runs in a block of its own: if a concurrent caller inserted one of the parcels first, it fails with a
-- unique violation (after waiting for the other to commit), the block's subtransaction is rolled back with every row
-- it inserted (their identity values are lost, never reused), and the batch takes 0016's way, kept as
-- register_parcels_contended: ON CONFLICT DO NOTHING, then a fresh read of what is still missing. The rows are
-- gathered in arrays and returned only once the block has succeeded: a RETURN QUERY streaming the insert's rows would
-- already have returned ids of the rolled-back insert (services/ingest/test/parcel-ids.test.ts shows it).
ALTER FUNCTION records.register_parcels(text[], text[]) RENAME TO register_parcels_contended;

CREATE FUNCTION records.register_parcels(p_fips text[], p_keys text[])
RETURNS TABLE (fips text, parcel_key text, parcel_id bigint)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  got_fips text[];
  got_keys text[];
  got_ids bigint[];
BEGIN
  BEGIN
    WITH a AS (SELECT DISTINCT u.f, u.k FROM unnest(p_fips, p_keys) AS u(f, k)),
    known AS (
      SELECT p.fips, p.parcel_key, p.parcel_id FROM records.parcels p JOIN a ON p.fips = a.f AND p.parcel_key = a.k),
    added AS (
      -- Known parcels left out first; in key order, so two overlapping batches cannot deadlock.
      INSERT INTO records.parcels AS p (fips, parcel_key)
      SELECT a.f, a.k FROM a
       WHERE NOT EXISTS (SELECT 1 FROM known WHERE known.fips = a.f AND known.parcel_key = a.k)
       ORDER BY a.f, a.k
      RETURNING p.fips, p.parcel_key, p.parcel_id),
    answer AS (SELECT * FROM known UNION ALL SELECT * FROM added)
    SELECT array_agg(answer.fips), array_agg(answer.parcel_key), array_agg(answer.parcel_id)
      INTO got_fips, got_keys, got_ids FROM answer;
  EXCEPTION WHEN unique_violation THEN
    -- A concurrent caller registered one of these parcels since this statement's snapshot: 0016's way.
    RETURN QUERY SELECT * FROM records.register_parcels_contended(p_fips, p_keys);
    RETURN;
  END;
  RETURN QUERY SELECT * FROM unnest(got_fips, got_keys, got_ids);
END
$$;
