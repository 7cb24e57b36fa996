-- The suggestion is stored the way record bodies are (@pra/core/stored: deflated with a preset dictionary), ~0.25 KB
-- of JSON a row before. Rows written before are marked raw (first byte 0x00) and read as they are.
ALTER TABLE search.address_suggestions ALTER COLUMN doc TYPE bytea USING '\x00'::bytea || convert_to(doc, 'UTF8');
