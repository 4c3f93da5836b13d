// The agent lane's activity: record a classification the intake run took. The payload names the
// actor the API authenticated, but anyone who can reach Temporal can name anyone: the API's proof
// is verified again with the worker's key (this submission, this actor and credential, this
// request, this body, the verified bytes), then the mapping is re-checked (active,
// portfolio_intake:classify, this credential, the submission in scope). A classification that fails
// either is refused, nothing recorded.
import type { Sql } from '../lib/db';
import { activeClassifier, insertClassification } from '../lib/agents/classifications';
import { classificationHash, type ClassifyPayload } from '../lib/agents/vocabulary';
import { DecisionProofError, type DecisionVerifier } from '../lib/intake/decision-proof';
import { findSubmission } from '../lib/intake/submissions';
import type { ClassificationActivities } from './types';

/** Why the proof does not hold for this classification (null: it does). */
async function proofRefusal(deps: { sql: Sql; decisions?: DecisionVerifier | undefined }, submissionId: string, p: ClassifyPayload): Promise<string | null> {
  if (!deps.decisions) return 'proof_invalid';
  let claims;
  try {
    claims = await deps.decisions.verify(p.proof);
  } catch (err) {
    if (err instanceof DecisionProofError) return err.reason;
    throw err;
  }
  const { requestId: _r, by: _b, proof: _p, ...body } = p;
  const row = await findSubmission(deps.sql, submissionId);
  const holds =
    claims.submissionId === submissionId &&
    claims.decision === 'classify' &&
    claims.actorId === p.by.actorId &&
    claims.credentialId === p.by.credentialId &&
    claims.requestId === p.requestId &&
    claims.detailsHash === classificationHash(body) &&
    claims.sha256 === row?.verifiedSha256;
  return holds ? null : 'proof_mismatch';
}

export function classificationActivities(deps: { sql: Sql; decisions?: DecisionVerifier | undefined }): ClassificationActivities {
  return {
    async recordClassification({ submissionId, payload }) {
      const { requestId, by, proof: _proof, ...body } = payload;
      const refused = await proofRefusal(deps, submissionId, payload);
      if (refused) return { recorded: false, reason: refused };
      const classifier = await activeClassifier(deps.sql, submissionId, by);
      if (!classifier) return { recorded: false, reason: 'actor_not_classifier' };
      const c = await insertClassification(deps.sql, { submissionId, requestId, by: classifier, kind: 'suggestion', body });
      return { recorded: true, classificationId: c.classificationId };
    },
  };
}
