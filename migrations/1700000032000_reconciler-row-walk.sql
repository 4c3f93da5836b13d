-- Up Migration
-- The reconciler walks the open submissions from PostgreSQL, oldest first, a page per query after
-- a checkpoint (worker/reconcile-walk.ts): the partial index over exactly the open states keeps a
-- page a short index range however many submissions are final.
CREATE INDEX submissions_open_walk ON submissions (created_at, submission_id)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review', 'promoting');

-- A submission this Temporal never knew a run of (a lost temporal.db, a new cluster, a restored
-- database) is resumed with no closed run: closed_run_id NULL, closed_as 'not_found'. NULLs are
-- distinct under the unique key, so each such resumption is its own row; two reconcilers cannot
-- both start one (Temporal refuses the second start of a workflow id).
ALTER TABLE intake_resumptions ALTER COLUMN closed_run_id DROP NOT NULL;

-- Down Migration
UPDATE intake_resumptions SET closed_run_id = 'not_found:' || id WHERE closed_run_id IS NULL;
ALTER TABLE intake_resumptions ALTER COLUMN closed_run_id SET NOT NULL;
DROP INDEX submissions_open_walk;
