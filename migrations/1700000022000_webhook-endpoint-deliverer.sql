-- Up Migration
-- Webhook delivery per endpoint (issue 23, W2): one Temporal workflow per endpoint runs a heartbeating
-- activity that delivers the heads of the endpoint's (endpoint, submission) lanes a few at a time, so an
-- event costs the Temporal server nothing; the retry schedule and the claims live here.
-- A claimed delivery is leased: nobody else takes it until the lease ends (a deliverer that died mid-attempt).
ALTER TABLE webhook_deliveries ADD COLUMN lease_until timestamptz;
-- The retry window (WEBHOOK_RETRY_WINDOW_SECONDS) counts from the first attempt.
ALTER TABLE webhook_deliveries ADD COLUMN first_attempt_at timestamptz;
-- Set while an endpoint's deliverer runs (refreshed as it goes): the dispatcher does not signal it then.
ALTER TABLE webhook_endpoints ADD COLUMN deliverer_until timestamptz;

-- Down Migration
ALTER TABLE webhook_endpoints DROP COLUMN deliverer_until;
ALTER TABLE webhook_deliveries DROP COLUMN first_attempt_at;
ALTER TABLE webhook_deliveries DROP COLUMN lease_until;
