-- Owner entities (issue 37): every owner mention of every record (owner1, owner2) resolves at import time to an owner
-- with an id that stays. Three tables:
-- - owner_entities: one row per owner ever made; never deleted (an id always answers, if only as a redirect).
-- - owner_keys: the evidence an owner is found by (its resolution keys, docs/data.md "Owner entities"): an entity's
--   normalised name in a state, a person's last + first name at a mailing address, with the middle initial apart
--   (a mention with a middle initial joins an owner with the same one or none; two different initials are two
--   people). A key names one owner at a time.
-- - owner_redirects: an owner merged into another (evidence joined them) answers as the one it was merged into.
-- owner_mentions holds the mentions themselves with what owner detail sums, written and deleted with the records
-- (a row per owner of a record, like records.owners).
CREATE TABLE records.owner_entities (
  owner_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        text NOT NULL,              -- 'E' entity, 'P' person, 'T' person named as trustee
  name_key    text NOT NULL,              -- the normalised name the keys share (what owner search matches)
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX owner_entities_name ON records.owner_entities (name_key text_pattern_ops);

CREATE TABLE records.owner_keys (
  key         text NOT NULL,
  middle      text NOT NULL DEFAULT '',   -- a person's middle initial, '' when none written
  owner_id    bigint NOT NULL,
  PRIMARY KEY (key, middle)
);
CREATE INDEX owner_keys_owner ON records.owner_keys (owner_id);

CREATE TABLE records.owner_redirects (
  from_id     bigint PRIMARY KEY,
  to_id       bigint NOT NULL,
  merged_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE records.owner_mentions (
  property_id    bigint NOT NULL,
  seq            smallint NOT NULL CHECK (seq IN (1, 2)),
  owner_id       bigint NOT NULL,
  name           text NOT NULL,           -- the name as the record writes it (fullName)
  owner_type     text,
  mailing        text,                    -- the mailing address on one line, as written; null when none
  state          char(2) NOT NULL,
  county         text NOT NULL,
  market_total   bigint,
  assessed_total bigint,
  acquired       date,                    -- the last sale's date: when this owner acquired the parcel, if known
  PRIMARY KEY (property_id, seq)
);
CREATE INDEX owner_mentions_owner ON records.owner_mentions (owner_id, property_id);
