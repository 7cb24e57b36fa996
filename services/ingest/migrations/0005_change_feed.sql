-- The change feed: which properties each committed write touched, written in the writer's own transaction (one
-- row per batch, never one per property: a bulk load writes millions). The type-ahead indexer reads it, applies the
-- current state of those properties to its index and deletes exactly the rows it applied. `txid` lets a full
-- rebuild drop only the rows its snapshot already saw (pg_visible_in_snapshot), leaving later ones to the feed.
CREATE TABLE records.changes (
  seq           bigserial PRIMARY KEY,
  property_ids  bigint[] NOT NULL,
  -- cardinality(property_ids), stored so a consumer can size its round without reading the arrays
  id_count      integer NOT NULL,
  origin        text NOT NULL CHECK (origin IN ('write', 'remove', 'rekey')),
  txid          xid8 NOT NULL DEFAULT pg_current_xact_id(),
  written_at    timestamptz NOT NULL DEFAULT now()
);

-- Where an online rekey (stored address keys recomputed after a normaliser change) has got to, so a killed run
-- resumes there: the version being computed, the phase, and the last row done of that phase. Each batch's updates
-- and the advance of this row commit in one transaction. No row: no rekey under way.
CREATE TABLE records.rekey_checkpoint (
  singleton        boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version          integer NOT NULL,
  phase            text NOT NULL CHECK (phase IN ('records', 'identities', 'moves')),
  last_id          bigint NOT NULL DEFAULT 0,
  last_source      text NOT NULL DEFAULT '',
  last_identity    text NOT NULL DEFAULT '',
  records_done     bigint NOT NULL DEFAULT 0,
  records_changed  bigint NOT NULL DEFAULT 0,
  started_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

-- The import-state identity moves a rekey plans (phase 'identities') and then makes (phase 'moves'); a table,
-- not a TEMP one, so a killed run keeps its plan. A move made is deleted in the transaction that makes it.
CREATE TABLE records.rekey_moves (
  source         text NOT NULL,
  from_identity  text NOT NULL,
  to_identity    text NOT NULL,
  property_id    bigint NOT NULL,
  PRIMARY KEY (source, from_identity)
);
CREATE INDEX rekey_moves_target ON records.rekey_moves (source, to_identity, property_id);
