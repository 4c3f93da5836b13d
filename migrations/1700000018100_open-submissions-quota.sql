-- Up Migration
-- The organization quota counts every open submission (issue 22): `staged`, `verifying` and
-- `awaiting_review`, and the bytes they declare (lib/intake/submissions.ts), no longer only those
-- in `staged`. One index-only count per organization: the partial index over exactly those states,
-- carrying the declared size.
CREATE INDEX submissions_org_open ON submissions (partner_organization_id) INCLUDE (size_bytes)
  WHERE intake_status IN ('staged', 'verifying', 'awaiting_review');
DROP INDEX submissions_org_staged;

-- Down Migration
CREATE INDEX submissions_org_staged ON submissions (partner_organization_id) WHERE intake_status = 'staged';
DROP INDEX submissions_org_open;
