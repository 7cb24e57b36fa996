-- The change events (issue 38): what each import changed of each record, for GET /changes and webhooks. Unlike
-- records.changes (0005: which ids to re-index, a row per batch, consumed and deleted), these are kept for the
-- retention period (30 days) and read by position by any number of readers, each with its own cursor.
-- - position: the event's place in the feed, from the sequence below, assigned under a transaction-level advisory
--   lock held until commit (data/change-events.ts), so that position N+1 is never visible while N is in flight: a
--   reader that has read up to N never skips an event committed later. Gaps (a rolled-back write) are fine.
-- - parts: which parts of the record changed (owner, sale, assessment, building, address, ...; 'created' for a
--   record added by an import of a source that already had records; 'removed' for a record its source's removal
--   deleted).
-- - zip, state, fips, county_key: where the record is (after the change; before it, for a removal): what the feed
--   is filtered by. county_key is the county name normalised as records.properties has it.
-- - owner_ids: the owner entities (0012) of the record before and after the change: an owner's feed shows the
--   parcels it acquired and those it sold.
-- - detail: what the feed answers beside the parts: old and new owner names and last sale, and old and new
--   assessed and market totals.
CREATE SEQUENCE records.change_event_position;

CREATE TABLE records.change_events (
  position     bigint PRIMARY KEY,
  property_id  bigint NOT NULL,
  parts        text[] NOT NULL,
  changed_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  zip          text NOT NULL,
  state        char(2) NOT NULL,
  fips         char(5) NOT NULL,
  county_key   text NOT NULL,
  owner_ids    bigint[] NOT NULL DEFAULT '{}',
  source       text NOT NULL,
  detail       jsonb NOT NULL DEFAULT '{}'
);
-- A filtered feed is one index range from the cursor on.
CREATE INDEX change_events_zip ON records.change_events (zip, position);
CREATE INDEX change_events_county ON records.change_events (state, county_key, position);
CREATE INDEX change_events_fips ON records.change_events (fips, position);
CREATE INDEX change_events_property ON records.change_events (property_id, position);
CREATE INDEX change_events_owners ON records.change_events USING gin (owner_ids);
-- The retention prune finds the old prefix by time.
CREATE INDEX change_events_changed_at ON records.change_events (changed_at);

-- What the prune has deleted: every event at or below `pruned_through` is gone, every one above it is kept (the
-- prune deletes a prefix). A cursor below it has lost events: it has expired.
CREATE TABLE records.change_feed_state (
  singleton       boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  pruned_through  bigint NOT NULL DEFAULT 0,
  pruned_at       timestamptz
);
INSERT INTO records.change_feed_state DEFAULT VALUES;
