// The agent lane's activity: record a classification the intake run took. The payload names the
// actor the API authenticated, but anyone who can reach Temporal can name anyone: the mapping is
// re-checked here (active, portfolio_intake:classify, this credential, the submission in scope)
// and a classification that fails it is refused, nothing recorded.
import type { Sql } from '../lib/db';
import { activeClassifier, insertClassification } from '../lib/agents/classifications';
import type { ClassificationActivities } from './types';

export function classificationActivities(deps: { sql: Sql }): ClassificationActivities {
  return {
    async recordClassification({ submissionId, payload }) {
      const { requestId, by, ...body } = payload;
      const classifier = await activeClassifier(deps.sql, submissionId, by);
      if (!classifier) return { recorded: false, reason: 'actor_not_classifier' };
      const c = await insertClassification(deps.sql, { submissionId, requestId, by: classifier, kind: 'suggestion', body });
      return { recorded: true, classificationId: c.classificationId };
    },
  };
}
