// Classifications reach a run as an Update (the agent lane, docs/agents.md). The validator refuses a
// payload that is not a classification of the agent vocabulary, or one sent when the submission
// does not await review, before anything is written to history; a taken one is recorded by an
// activity that re-checks the actor's mapping. A classification never changes the run's state: it
// is a suggestion for the operator, whatever it says.
import { proxyActivities, setHandler } from '@temporalio/workflow';
import { classifyPayloadProblems } from '../lib/agents/vocabulary';
import type { IntakeStatus } from '../lib/intake/vocabulary';
import type { ClassificationActivities } from '../activities/types';
import { classifyUpdate, REFUSAL_SEPARATOR } from './messages';

/** Classifications one run takes; past this they are refused (the run's history stays bounded). */
export const MAX_CLASSIFICATIONS_PER_RUN = 50;

const { recordClassification } = proxyActivities<ClassificationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

const refuse = (reason: string, detail: string) => {
  const e = new Error(`${reason}${REFUSAL_SEPARATOR}${detail}`);
  e.name = 'Refused';
  throw e;
};

export function installClassify(c: { submissionId: string; status: () => IntakeStatus }) {
  const taken = new Set<string>();
  const handler = (p: Parameters<typeof recordClassification>[0]['payload']) => {
    // Counted here, not in the validator: a validator runs only when the Update arrives, never on replay.
    taken.add(p.requestId);
    return recordClassification({ submissionId: c.submissionId, payload: p });
  };
  setHandler(classifyUpdate, handler, {
    validator: (p: unknown) => {
      const problems = classifyPayloadProblems(p);
      if (problems.length) refuse('classification_malformed', problems.slice(0, 5).join('; '));
      const { requestId } = p as { requestId: string };
      if (taken.has(requestId)) refuse('duplicate_request', 'this classification was taken already');
      if (c.status() !== 'awaiting_review') refuse('invalid_transition', `the submission is ${c.status()}`);
      if (taken.size >= MAX_CLASSIFICATIONS_PER_RUN) refuse('classification_limit', `${MAX_CLASSIFICATIONS_PER_RUN} classifications were taken by this run`);
    },
  });
}
