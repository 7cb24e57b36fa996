-- Fewer bytes a record, no field lost (measured at 1M generated records: 3.35 KB a record in `records` before).
-- - The body is stored deflated with a preset dictionary (@pra/core/stored): ~1.3 KB of JSON became ~0.3 KB.
--   SQL cannot deflate, so existing bodies are marked raw (first byte 0x00) and read as they are; every write from
--   now on stores them deflated (0x01). Readers decode both.
-- - Sale and assessment histories were a row per sale and per tax year (with a primary key each: ~0.9 KB a record)
--   that only the two history endpoints read, as JSON: they are that JSON now, one row per property, stored the
--   same way as the body: the sale history, a newline, the assessment history (one value, so a load deflates twice a
--   record, not three times: each deflate call costs ~20 us before it compresses anything).
-- - assessments, mortgages and owner_mailing duplicated what the body holds and no query read them; owners keep only
--   what owner searches match on (the names are in the body).
-- - parcel_id and apn_orig are in the body and nothing queries them.
-- - The address indexes in the database's collation duplicated the "C" ones (same columns, other collation): the
--   address queries compare in "C" (equality is the same in every deterministic collation) and use those.
-- - properties_tract served no query (demographics are joined from the property to the tract).
CREATE TABLE records.histories (
  property_id  bigint PRIMARY KEY,
  -- "<sale history JSON>\n<assessment history JSON>", as /sale/history and /assessment/detail return them, newest
  -- first ('[]' when none); a property with neither has no row.
  doc          bytea NOT NULL
);
INSERT INTO records.histories (property_id, doc)
SELECT property_id, '\x00'::bytea || convert_to(coalesce(s.doc, '[]') || E'\n' || coalesce(a.doc, '[]'), 'UTF8')
  -- json_agg puts a newline between elements: taken out, so the one newline left is the separator.
  FROM (SELECT property_id, replace(json_agg(json_build_object('date', sale_date, 'price', price,
                 'documentType', document_type, 'recordingDate', recording_date, 'buyerName', buyer_name,
                 'sellerName', seller_name) ORDER BY sale_date DESC, seq)::text, E'\n', '') AS doc
          FROM records.sales GROUP BY property_id) s
  FULL JOIN (SELECT property_id, replace(json_agg(json_build_object('taxYear', tax_year,
                 'assessed', json_build_object('land', land, 'improvements', improvements, 'total', total),
                 'market', json_build_object('total', market_total), 'tax', json_build_object('amount', tax_amount))
                 ORDER BY tax_year DESC)::text, E'\n', '') AS doc
          FROM records.assessment_history GROUP BY property_id) a USING (property_id);
DROP TABLE records.sales, records.assessment_history, records.assessments, records.mortgages, records.owner_mailing;

ALTER TABLE records.owners DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN full_name,
  DROP COLUMN owner_type;

ALTER TABLE records.properties
  ALTER COLUMN body TYPE bytea USING '\x00'::bytea || convert_to(body, 'UTF8'),
  DROP COLUMN parcel_id,
  DROP COLUMN apn_orig;

DROP INDEX records.properties_line_zip;
DROP INDEX records.properties_line_city;
DROP INDEX records.properties_tract;
