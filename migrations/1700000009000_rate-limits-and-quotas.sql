-- Up Migration
-- Rate-limit counters shared by every API replica (rate-limiter-flexible's RateLimiterPostgres
-- layout: one row per limiter key, points used and when the window ends, epoch ms).
CREATE TABLE rate_limits (
  key    varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);

-- The partner's organization on each submission, so the quota on submissions open in `staged`
-- (count and declared bytes) is one indexed count per organization.
ALTER TABLE submissions ADD COLUMN partner_organization_id text;
CREATE INDEX submissions_org_staged ON submissions (partner_organization_id) WHERE intake_status = 'staged';

-- Down Migration
DROP INDEX submissions_org_staged;
ALTER TABLE submissions DROP COLUMN partner_organization_id;
DROP TABLE rate_limits;
