-- Up Migration
-- A table's checkpoint before its first batch has no last id (legacy ids may be zero or negative,
-- so no id can stand for "before the first").
ALTER TABLE cutover_checkpoints ALTER COLUMN last_id DROP NOT NULL;

-- Down Migration
DELETE FROM cutover_checkpoints WHERE last_id IS NULL;
ALTER TABLE cutover_checkpoints ALTER COLUMN last_id SET NOT NULL;
