-- For an address given without its street suffix ("123 W 5TH" for "123 W 5TH ST"): streets that extend the typed
-- line, within a ZIP or a city. The "C" collation lets LIKE 'prefix%' be an index range scan.
CREATE INDEX properties_zip_line_prefix ON records.properties (zip, (line_key COLLATE "C"));
CREATE INDEX properties_city_line_prefix ON records.properties (state, city_key, (line_key COLLATE "C"));
