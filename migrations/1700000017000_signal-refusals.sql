-- Up Migration
-- A signal whose payload is not its shape (lib/intake/signal-shapes.ts) is recorded beside the
-- refused decisions: upload-complete signals too, with what was wrong in it, and without the
-- actor it may not even name.
ALTER TABLE decision_refusals DROP CONSTRAINT decision_refusals_decision_check;
ALTER TABLE decision_refusals ADD CONSTRAINT decision_refusals_decision_check CHECK (decision IN ('approve', 'reject', 'upload_complete'));
ALTER TABLE decision_refusals ALTER COLUMN claimed_actor_id DROP NOT NULL;
ALTER TABLE decision_refusals ALTER COLUMN claimed_credential_id DROP NOT NULL;
ALTER TABLE decision_refusals ADD COLUMN detail text;

-- Down Migration
ALTER TABLE decision_refusals DROP COLUMN detail;
DELETE FROM decision_refusals WHERE decision = 'upload_complete' OR claimed_actor_id IS NULL OR claimed_credential_id IS NULL;
ALTER TABLE decision_refusals ALTER COLUMN claimed_credential_id SET NOT NULL;
ALTER TABLE decision_refusals ALTER COLUMN claimed_actor_id SET NOT NULL;
ALTER TABLE decision_refusals DROP CONSTRAINT decision_refusals_decision_check;
ALTER TABLE decision_refusals ADD CONSTRAINT decision_refusals_decision_check CHECK (decision IN ('approve', 'reject'));
