-- Up Migration
-- The row holds every fact the lifecycle records, so a route can answer from it: the reject
-- reason, and the end of the upload window (an upload URL never outlives it).
ALTER TABLE submissions
  ADD COLUMN reject_reason_code text,
  ADD COLUMN upload_deadline_at timestamptz;
-- Which trigger of the transition table caused each event.
ALTER TABLE intake_events ADD COLUMN trigger text;

UPDATE submissions s SET reject_reason_code = split_part(e.note, ':', 1)
FROM intake_events e
WHERE e.submission_id = s.submission_id AND e.to_status = 'rejected' AND s.reject_reason_code IS NULL;
-- Rows created before this column: the default window (900 s URL + 300 s grace).
UPDATE submissions SET upload_deadline_at = created_at + interval '1200 seconds' WHERE upload_deadline_at IS NULL;

-- Down Migration
ALTER TABLE intake_events DROP COLUMN trigger;
ALTER TABLE submissions DROP COLUMN upload_deadline_at, DROP COLUMN reject_reason_code;
