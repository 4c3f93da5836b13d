-- Up Migration
-- When the staged bytes (and previews) of a submission in a final state were deleted.
ALTER TABLE submissions ADD COLUMN staged_purged_at timestamptz;
CREATE INDEX submissions_staged_retention ON submissions (updated_at) WHERE staged_purged_at IS NULL;

-- Down Migration
DROP INDEX submissions_staged_retention;
ALTER TABLE submissions DROP COLUMN staged_purged_at;
