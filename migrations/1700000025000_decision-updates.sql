-- Up Migration
-- Refusals made outside any history (Update validators, signals a run does not take) are recorded
-- in decision_refusals up to a cap per submission; beyond it they are only counted here, so a flood
-- cannot grow the table without bound.
CREATE TABLE decision_refusal_overflow (
  submission_id text PRIMARY KEY REFERENCES submissions(submission_id),
  refused       bigint NOT NULL DEFAULT 0,
  last_reason   text NOT NULL,
  last_at       timestamptz NOT NULL DEFAULT now()
);

-- The reconciler's audit: an open submission whose workflow run was gone (terminated, failed,
-- timed out) and the new run that took over from the row's recorded state.
CREATE TABLE intake_resumptions (
  id             bigserial PRIMARY KEY,
  submission_id  text NOT NULL REFERENCES submissions(submission_id),
  closed_run_id  text NOT NULL,
  closed_as      text NOT NULL,
  resumed_from   text NOT NULL,
  new_run_id     text,
  note           text NOT NULL,
  at             timestamptz NOT NULL DEFAULT now(),
  UNIQUE (submission_id, closed_run_id)
);

-- Down Migration
DROP TABLE intake_resumptions;
DROP TABLE decision_refusal_overflow;
