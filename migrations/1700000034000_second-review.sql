-- Up Migration
-- A second operator where it matters (issue 44, lib/intake/second-review.ts): an approval the
-- policy holds waits in `awaiting_second_review` for a different operator. The row records why
-- (set once with the first approval, like the other facts of a transition).
ALTER TABLE submissions ADD COLUMN second_review_reasons text[];

-- The new state is open and undecided, and the console's queue shows it: the partial indexes over
-- those sets list it too (test/unit/status-sets.test.ts holds each list to its lifecycle set).
DROP INDEX submissions_org_open;
CREATE INDEX submissions_org_open ON submissions (partner_organization_id) INCLUDE (size_bytes)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review', 'awaiting_second_review');
DROP INDEX submissions_open_walk;
CREATE INDEX submissions_open_walk ON submissions (created_at, submission_id)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review', 'awaiting_second_review', 'promoting');
DROP INDEX submissions_review_queue;
CREATE INDEX submissions_review_queue ON submissions (awaiting_since)
  WHERE intake_status IN ('awaiting_review', 'awaiting_second_review');

-- Down Migration
DROP INDEX submissions_review_queue;
CREATE INDEX submissions_review_queue ON submissions (awaiting_since) WHERE intake_status = 'awaiting_review';
DROP INDEX submissions_open_walk;
CREATE INDEX submissions_open_walk ON submissions (created_at, submission_id)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review', 'promoting');
DROP INDEX submissions_org_open;
CREATE INDEX submissions_org_open ON submissions (partner_organization_id) INCLUDE (size_bytes)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review');
ALTER TABLE submissions DROP COLUMN second_review_reasons;
