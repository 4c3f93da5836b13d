-- Up Migration
-- The cutover from the legacy directory store (lib/cutover/, docs/cutover.md).
--
-- Runtime records that came from the legacy store or a file import keep every source key they were
-- built from (legacy_ids: two legacy ids when a duplicate was merged) and the rank of the row whose
-- fields they show (source_rank: the smallest legacy id, or line number, of the group). Legacy
-- coordinates may be impossible and prices unreadable: those become null rather than invented.
ALTER TABLE studios ALTER COLUMN latitude DROP NOT NULL, ALTER COLUMN longitude DROP NOT NULL, ALTER COLUMN price_range DROP NOT NULL;
ALTER TABLE studios ADD COLUMN legacy_ids text[] NOT NULL DEFAULT '{}', ADD COLUMN source_rank bigint;
ALTER TABLE artists ADD COLUMN legacy_ids text[] NOT NULL DEFAULT '{}', ADD COLUMN source_rank bigint;
ALTER TABLE portfolio_assets ADD COLUMN legacy_ids text[] NOT NULL DEFAULT '{}', ADD COLUMN source_rank bigint;
ALTER TABLE designs ADD COLUMN legacy_ids text[] NOT NULL DEFAULT '{}', ADD COLUMN source_rank bigint;

-- The read stage every API replica follows (one row; no row: legacy_authoritative while a legacy
-- store is configured). Switched by `npm run cutover -- stage <name>`.
CREATE TABLE cutover_stage (
  singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  stage      text NOT NULL CHECK (stage IN ('legacy_authoritative', 'shadow_reads', 'runtime_authoritative')),
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by text NOT NULL
);

-- Backfills, deltas and file imports. watermark: the legacy store's clock when the run began; the
-- next delta re-reads rows updated (and deletions recorded) since the last finished run's watermark.
CREATE TABLE cutover_runs (
  id          bigserial PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('backfill', 'delta', 'file_import')),
  source      text NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  watermark   timestamptz,
  since       timestamptz
);
CREATE INDEX cutover_runs_kind ON cutover_runs (kind, id DESC);

-- Resumption: the last source id of each table a run committed (in the batch's own transaction).
CREATE TABLE cutover_checkpoints (
  run_id     bigint NOT NULL REFERENCES cutover_runs (id) ON DELETE CASCADE,
  table_name text NOT NULL,
  last_id    bigint NOT NULL,
  rows_done  bigint NOT NULL,
  done       boolean NOT NULL DEFAULT false,
  PRIMARY KEY (run_id, table_name)
);

-- Every source row accounted for: imported, merged (into runtime_id) or rejected, with a reason code.
CREATE TABLE cutover_ledger (
  origin_authority text NOT NULL,
  source_table     text NOT NULL,
  source_key       text NOT NULL,
  outcome          text NOT NULL CHECK (outcome IN ('imported', 'merged', 'rejected')),
  reason           text,
  runtime_id       text,
  record_state     text,
  notes            text[] NOT NULL DEFAULT '{}',
  source_updated_at timestamptz,
  PRIMARY KEY (origin_authority, source_table, source_key)
);
CREATE INDEX cutover_ledger_runtime ON cutover_ledger (runtime_id);

-- Down Migration
DROP TABLE cutover_ledger;
DROP TABLE cutover_checkpoints;
DROP TABLE cutover_runs;
DROP TABLE cutover_stage;
ALTER TABLE designs DROP COLUMN legacy_ids, DROP COLUMN source_rank;
ALTER TABLE portfolio_assets DROP COLUMN legacy_ids, DROP COLUMN source_rank;
ALTER TABLE artists DROP COLUMN legacy_ids, DROP COLUMN source_rank;
ALTER TABLE studios DROP COLUMN legacy_ids, DROP COLUMN source_rank;
DELETE FROM studios WHERE latitude IS NULL OR longitude IS NULL OR price_range IS NULL;
ALTER TABLE studios ALTER COLUMN latitude SET NOT NULL, ALTER COLUMN longitude SET NOT NULL, ALTER COLUMN price_range SET NOT NULL;
