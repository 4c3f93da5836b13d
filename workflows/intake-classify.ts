// Classifications reach a run as an Update (the agent lane, docs/agents.md). The validator refuses,
// before anything is written to history, a payload that is not a classification of the agent
// vocabulary, one without the API's proof for this submission, actor, request and body (signed as
// decisions are: lib/intake/decision-proof.ts), or one sent when the submission does not await
// review; a taken one is recorded by an activity that verifies the proof again and re-checks the
// actor's mapping. A classification never changes the run's state: it is a suggestion for the
// operator, whatever it says.
import { proxyActivities, setHandler } from '@temporalio/workflow';
import { classificationHash, classifyPayloadProblems, type ClassifyPayload } from '../lib/agents/vocabulary';
import { proofProblem, type DecisionKeys } from '../lib/intake/decision-check';
import { isFirstReview, type IntakeStatus } from '../lib/intake/vocabulary';
import type { ClassificationActivities } from '../activities/types';
import { classifyUpdate, REFUSAL_SEPARATOR } from './messages';

/** Classifications one actor has recorded in a run; past this its next are refused (the run's history stays bounded, and one actor cannot crowd out the others). */
export const MAX_CLASSIFICATIONS_PER_ACTOR = 20;

const { recordClassification } = proxyActivities<ClassificationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

const refuse = (reason: string, detail: string) => {
  const e = new Error(`${reason}${REFUSAL_SEPARATOR}${detail}`);
  e.name = 'Refused';
  throw e;
};

export function installClassify(c: { submissionId: string; status: () => IntakeStatus; decisionKeys?: DecisionKeys | undefined }) {
  /** Per actor, the request ids it has in this run (taken, or being recorded). */
  const taken = new Map<string, Set<string>>();
  const mine = (actorId: string) => taken.get(actorId) ?? taken.set(actorId, new Set()).get(actorId)!;
  const handler = async (p: ClassifyPayload) => {
    // Counted here, not in the validator: a validator runs only when the Update arrives, never on replay.
    const requests = mine(p.by.actorId);
    requests.add(p.requestId);
    const answer = await recordClassification({ submissionId: c.submissionId, payload: p });
    // One the worker refused takes no slot (its result is in history, so replay counts the same).
    if (!answer.recorded) requests.delete(p.requestId);
    return answer;
  };
  setHandler(classifyUpdate, handler, {
    validator: (p: unknown) => {
      const problems = classifyPayloadProblems(p);
      if (problems.length) refuse('classification_malformed', problems.slice(0, 5).join('; '));
      const payload = p as ClassifyPayload;
      if (!payload.proof) refuse('proof_missing', 'the classification carries no proof');
      const problem = proofProblem(
        'classify',
        { requestId: payload.requestId, by: payload.by, proof: payload.proof!, detailsHash: classificationHash(payload) },
        { submissionId: c.submissionId, nowMs: Date.now(), keys: c.decisionKeys },
      );
      if (problem) refuse(problem.reason, problem.detail);
      const requests = taken.get(payload.by.actorId) ?? new Set<string>();
      if (requests.has(payload.requestId)) refuse('duplicate_request', 'this classification was taken already');
      if (!isFirstReview(c.status())) refuse('invalid_transition', `the submission is ${c.status()}`);
      if (requests.size >= MAX_CLASSIFICATIONS_PER_ACTOR) refuse('classification_limit', `this actor classified this submission ${MAX_CLASSIFICATIONS_PER_ACTOR} times in this run`);
    },
  });
}
