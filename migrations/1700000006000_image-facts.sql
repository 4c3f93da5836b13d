-- Up Migration
-- What verification learnt by decoding the staged bytes (lib/media/inspect.ts).
ALTER TABLE submissions
  ADD COLUMN image_format text,
  ADD COLUMN image_width integer,
  ADD COLUMN image_height integer,
  ADD COLUMN image_frames integer,
  ADD COLUMN image_orientation smallint;

-- Down Migration
ALTER TABLE submissions DROP COLUMN image_format, DROP COLUMN image_width, DROP COLUMN image_height,
  DROP COLUMN image_frames, DROP COLUMN image_orientation;
