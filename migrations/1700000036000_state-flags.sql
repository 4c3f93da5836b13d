-- Up Migration
-- The database stops listing the intake vocabulary (issue 56 item 3). The transition writer sets
-- three flags from the lifecycle's sets (lib/intake/lifecycle.ts stateFlagsOf: open, undecided,
-- deciding), and the partial indexes read the flags: a new state needs no migration to join a set.
-- The backfill below names the statuses as they are today, once; no later change reads it.
ALTER TABLE submissions
  ADD COLUMN is_open boolean NOT NULL DEFAULT false,
  ADD COLUMN is_undecided boolean NOT NULL DEFAULT false,
  ADD COLUMN is_deciding boolean NOT NULL DEFAULT false;
UPDATE submissions SET
  is_open = intake_status IN ('staged', 'verifying', 'awaiting_review', 'awaiting_second_review', 'promoting'),
  is_undecided = intake_status IN ('staged', 'verifying', 'awaiting_review', 'awaiting_second_review'),
  is_deciding = intake_status IN ('awaiting_review', 'awaiting_second_review');

DROP INDEX submissions_org_open;
CREATE INDEX submissions_org_open ON submissions (partner_organization_id) INCLUDE (size_bytes) WHERE is_undecided;
DROP INDEX submissions_open_walk;
CREATE INDEX submissions_open_walk ON submissions (created_at, submission_id) WHERE is_open;
DROP INDEX submissions_review_queue;
CREATE INDEX submissions_review_queue ON submissions (awaiting_since) WHERE is_deciding;

-- The audit tables record what the decision table (lib/intake/decisions.ts) names: no list here.
ALTER TABLE decision_refusals DROP CONSTRAINT decision_refusals_decision_check;
ALTER TABLE decision_matches DROP CONSTRAINT decision_matches_decision_check;

-- Down Migration
ALTER TABLE decision_matches ADD CONSTRAINT decision_matches_decision_check CHECK (decision IN ('approve', 'reject'));
ALTER TABLE decision_refusals ADD CONSTRAINT decision_refusals_decision_check CHECK (decision IN ('approve', 'reject'));
DROP INDEX submissions_review_queue;
CREATE INDEX submissions_review_queue ON submissions (awaiting_since)
  WHERE intake_status IN ('awaiting_review', 'awaiting_second_review');
DROP INDEX submissions_open_walk;
CREATE INDEX submissions_open_walk ON submissions (created_at, submission_id)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review', 'awaiting_second_review', 'promoting');
DROP INDEX submissions_org_open;
CREATE INDEX submissions_org_open ON submissions (partner_organization_id) INCLUDE (size_bytes)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review', 'awaiting_second_review');
ALTER TABLE submissions DROP COLUMN is_deciding, DROP COLUMN is_undecided, DROP COLUMN is_open;
