-- Fewer bytes a record, no field lost (measured at 1M generated records: 3.35 KB a record in `records` before).
-- - The body is stored deflated with a preset dictionary (@pra/core/stored): ~1.3 KB of JSON became ~0.3 KB.
--   SQL cannot deflate, so existing bodies are marked raw (first byte 0x00) and read as they are; every write from
--   now on stores them deflated (0x01). Readers decode both.
-- - Sale and assessment histories were a row per sale and per tax year (with a primary key each: ~0.9 KB a record)
--   that only the two history endpoints read, as JSON: they are that JSON now, in the same stored value as the body
--   ("<body>\n<sales>\n<assessments>"), so a load deflates once a record.
-- - assessments, mortgages and owner_mailing duplicated what the body holds and no query read them; owners keep only
--   what owner searches match on (the names are in the body).
-- - parcel_id and apn_orig are in the body and nothing queries them.
-- - The address indexes in the database's collation duplicated the "C" ones (same columns, other collation): the
--   address queries compare in "C" (equality is the same in every deterministic collation) and use those.
-- - properties_tract served no query (demographics are joined from the property to the tract).
-- The histories, as JSON text per property, to go into the stored document beside the body.
CREATE TEMP TABLE histories_text ON COMMIT DROP AS
SELECT property_id, coalesce(s.doc, '[]') || E'\n' || coalesce(a.doc, '[]') AS doc
  -- json_agg puts a newline between elements: taken out, so the newlines left are the separators.
  FROM (SELECT property_id, replace(json_agg(json_build_object('date', sale_date, 'price', price,
                 'documentType', document_type, 'recordingDate', recording_date, 'buyerName', buyer_name,
                 'sellerName', seller_name) ORDER BY sale_date DESC, seq)::text, E'\n', '') AS doc
          FROM records.sales GROUP BY property_id) s
  FULL JOIN (SELECT property_id, replace(json_agg(json_build_object('taxYear', tax_year,
                 'assessed', json_build_object('land', land, 'improvements', improvements, 'total', total),
                 'market', json_build_object('total', market_total), 'tax', json_build_object('amount', tax_amount))
                 ORDER BY tax_year DESC)::text, E'\n', '') AS doc
          FROM records.assessment_history GROUP BY property_id) a USING (property_id);
CREATE INDEX ON histories_text (property_id);
ALTER TABLE records.properties ADD COLUMN doc bytea;
UPDATE records.properties p
   SET doc = '\x00'::bytea || convert_to(p.body || coalesce(E'\n' || (SELECT h.doc FROM histories_text h
                                                              WHERE h.property_id = p.id), ''), 'UTF8');
ALTER TABLE records.properties DROP COLUMN body, DROP COLUMN parcel_id, DROP COLUMN apn_orig;
ALTER TABLE records.properties RENAME COLUMN doc TO body;
ALTER TABLE records.properties ALTER COLUMN body SET NOT NULL;
DROP TABLE records.sales, records.assessment_history, records.assessments, records.mortgages, records.owner_mailing;

ALTER TABLE records.owners DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN full_name,
  DROP COLUMN owner_type;


DROP INDEX records.properties_line_zip;
DROP INDEX records.properties_line_city;
DROP INDEX records.properties_tract;
