-- Up Migration
-- A delta re-reads what was written by transactions not older than the oldest one running when the
-- previous run began (lib/cutover/legacy-source.ts, Since): each run records that transaction id
-- (the legacy snapshot's xmin, 64-bit) and the one it starts from.
ALTER TABLE cutover_runs ADD COLUMN watermark_xid bigint, ADD COLUMN since_xid bigint;

-- Down Migration
ALTER TABLE cutover_runs DROP COLUMN since_xid, DROP COLUMN watermark_xid;
