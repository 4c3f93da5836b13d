-- Up Migration
-- The search engine's feed (issue 45): every change to search_documents, in the writing
-- transaction, as a durable change log the indexer (lib/search-engine/indexer.ts) drains into
-- OpenSearch.
--
-- - search_documents.version: from one sequence, taken anew by every insert and every update of
--   the row (a delete takes one for its change). Two writes of one document are serialised by
--   its row lock, so the later commit always holds the higher version: the engine is written with
--   external versions and refuses an older one, so a late or replayed change never overwrites a
--   newer one.
-- - search_changes: one row per changed document per statement (type, id, its version, deleted).
--   The indexer reads a batch, writes it to the engine, and deletes exactly those rows in the same
--   transaction: a row still there is not yet indexed (a transaction that commits late with a
--   lower seq is simply read by a later batch; no checkpoint can skip it). Lag: the age of the
--   oldest row.
-- - search_feed: the log is written only while it has its row (the indexer's first start inserts
--   it), so a PostgreSQL-only deployment never accumulates changes nobody reads.
CREATE SEQUENCE search_document_versions;
ALTER TABLE search_documents ADD COLUMN version bigint NOT NULL DEFAULT nextval('search_document_versions');

CREATE TABLE search_feed (
  only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  enabled_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE search_changes (
  seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  type    text NOT NULL,
  id      text NOT NULL,
  version bigint NOT NULL,
  deleted boolean NOT NULL,
  at      timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The indices the indexer writes (the live one behind the read alias, and one being rebuilt by
-- `npm run search -- reindex`, which then takes the alias).
CREATE TABLE search_indices (
  name       text PRIMARY KEY,
  state      text NOT NULL CHECK (state IN ('building', 'live')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION search_document_version() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  BEGIN
    NEW.version := nextval('search_document_versions');
    RETURN NEW;
  END
  $$;

CREATE FUNCTION search_changes_log() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM search_feed) THEN
      RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
      INSERT INTO search_changes (type, id, version, deleted)
      SELECT o.type, o.id, nextval('search_document_versions'), true FROM old_rows o ORDER BY o.type, o.id;
    ELSE
      INSERT INTO search_changes (type, id, version, deleted)
      SELECT n.type, n.id, n.version, false FROM new_rows n ORDER BY n.type, n.id;
    END IF;
    RETURN NULL;
  END
  $$;

CREATE TRIGGER search_documents_version BEFORE UPDATE ON search_documents FOR EACH ROW EXECUTE FUNCTION search_document_version();
CREATE TRIGGER search_documents_changes_insert AFTER INSERT ON search_documents REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_log();
CREATE TRIGGER search_documents_changes_update AFTER UPDATE ON search_documents REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_log();
CREATE TRIGGER search_documents_changes_delete AFTER DELETE ON search_documents REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changes_log();

-- Down Migration
DROP TRIGGER search_documents_changes_delete ON search_documents;
DROP TRIGGER search_documents_changes_update ON search_documents;
DROP TRIGGER search_documents_changes_insert ON search_documents;
DROP TRIGGER search_documents_version ON search_documents;
DROP FUNCTION search_changes_log();
DROP FUNCTION search_document_version();
DROP TABLE search_indices;
DROP TABLE search_changes;
DROP TABLE search_feed;
ALTER TABLE search_documents DROP COLUMN version;
DROP SEQUENCE search_document_versions;
