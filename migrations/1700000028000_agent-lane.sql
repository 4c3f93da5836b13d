-- Up Migration
-- The agent lane (docs/agents.md): classifier workers propose labels; operators decide.
-- Classifications are append-only: a row is never deleted and only ever gains its superseded_at
-- (the same actor classified the submission again). A suggestion was taken by the submission's
-- workflow run (an Update) while it awaited review; a proposal concerns a submission already
-- promoted (its run is closed) and changes nothing until an operator applies it.
CREATE TABLE classifications (
  classification_id text PRIMARY KEY,
  submission_id     text NOT NULL REFERENCES submissions(submission_id),
  request_id        text NOT NULL,
  actor_id          text NOT NULL,
  credential_kind   text NOT NULL CHECK (credential_kind IN ('api_key', 'bearer')),
  credential_id     text NOT NULL,
  organization_id   text NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('suggestion', 'proposal')),
  model_name        text NOT NULL,
  model_version     text NOT NULL,
  -- {styles, placement, subjects, contentFlags}: ids of the agent vocabulary with a confidence each
  labels            jsonb NOT NULL,
  rationale         text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  superseded_at     timestamptz,
  -- proposals: when and by whom an operator applied it (an audit event says what changed)
  applied_at        timestamptz,
  applied_by        text,
  UNIQUE (submission_id, actor_id, request_id)
);
-- One current classification per (submission, actor): the newest supersedes the earlier one.
CREATE UNIQUE INDEX classifications_current ON classifications (submission_id, actor_id) WHERE superseded_at IS NULL;
CREATE INDEX classifications_submission ON classifications (submission_id, created_at);

CREATE FUNCTION classifications_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'classifications are append-only' USING ERRCODE = 'P0001'; END IF;
  IF (to_jsonb(NEW) - 'superseded_at' - 'applied_at' - 'applied_by') IS DISTINCT FROM (to_jsonb(OLD) - 'superseded_at' - 'applied_at' - 'applied_by')
     OR (OLD.superseded_at IS NOT NULL AND NEW.superseded_at IS DISTINCT FROM OLD.superseded_at)
     OR (OLD.applied_at IS NOT NULL AND NEW.applied_at IS DISTINCT FROM OLD.applied_at) THEN
    RAISE EXCEPTION 'classifications are append-only' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER classifications_append_only BEFORE UPDATE OR DELETE ON classifications
  FOR EACH ROW EXECUTE FUNCTION classifications_append_only();

-- The classification work queue's leases: one per (submission, classifier actor), so replicas of
-- one classifier do not classify the same image twice while different classifiers each get it.
CREATE TABLE classification_leases (
  submission_id text NOT NULL REFERENCES submissions(submission_id),
  actor_id      text NOT NULL,
  leased_until  timestamptz NOT NULL,
  PRIMARY KEY (submission_id, actor_id)
);

-- A proposal an operator applied to a published record (or a draft): who, with which credential,
-- what it changed from and to. The record's own row changes in the same transaction.
CREATE TABLE classification_applications (
  id                bigserial PRIMARY KEY,
  classification_id text NOT NULL UNIQUE REFERENCES classifications(classification_id),
  applied_by        text NOT NULL,
  credential_id     text NOT NULL,
  target_kind       text NOT NULL CHECK (target_kind IN ('portfolio_asset', 'draft')),
  target_id         text NOT NULL,
  changes           jsonb NOT NULL,
  at                timestamptz NOT NULL DEFAULT now()
);

-- The placement an operator took into a draft (a suggestion accepted at approve, or a proposal
-- applied); null: the submission's own.
ALTER TABLE media_documents ADD COLUMN placement text;

-- Down Migration
ALTER TABLE media_documents DROP COLUMN placement;
DROP TABLE classification_applications;
DROP TABLE classification_leases;
DROP TABLE classifications;
DROP FUNCTION classifications_append_only();
