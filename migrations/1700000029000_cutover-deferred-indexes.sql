-- Up Migration
-- The first backfill into an empty runtime store loads its tables without their secondary indexes
-- and builds them once at the end (lib/cutover/deferred-indexes.ts). Each dropped index is kept
-- here, written in the transaction that drops it and deleted in the one that builds it again, so a
-- run killed at any point still knows what to build.
CREATE TABLE cutover_deferred_indexes (
  index_name  text PRIMARY KEY,
  table_name  text NOT NULL,
  definition  text NOT NULL,
  run_id      bigint NOT NULL REFERENCES cutover_runs (id),
  deferred_at timestamptz NOT NULL DEFAULT now()
);
-- A backfill that began with the runtime store empty (no record, no search document, no ledger
-- entry of its source) loads in bulk: the ledger by COPY, the search documents once at its end.
ALTER TABLE cutover_runs ADD COLUMN bulk_load boolean NOT NULL DEFAULT false;

-- Down Migration
-- (an index a killed first backfill left unbuilt is built before its record goes)
DO $$
DECLARE d text;
BEGIN
  FOR d IN SELECT definition FROM cutover_deferred_indexes ORDER BY index_name LOOP
    EXECUTE d;
  END LOOP;
END $$;
DROP TABLE cutover_deferred_indexes;
ALTER TABLE cutover_runs DROP COLUMN bulk_load;
