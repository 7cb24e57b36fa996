-- Every change to a key (status) or its account (tier, status, limits) takes a new number from this sequence, and
-- the key cache entry carries it: a cache write never replaces a newer entry, so a rebuild that read the database
-- before a key was disabled cannot bring the key back.
CREATE SEQUENCE billing.key_cache_version;
ALTER TABLE billing.api_keys ADD COLUMN cache_version bigint NOT NULL DEFAULT nextval('billing.key_cache_version');
