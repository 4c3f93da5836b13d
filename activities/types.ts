// Activity signatures, imported as types by workflow code. Each work step receives the
// transition that enters it and the outcomes it can end in, all decided by the workflow from the
// transition table; the step persists them (lib/intake/transitions.ts) and decides nothing.
import type { ClassifyAnswer, ClassifyPayload } from '../lib/agents/vocabulary';
import type { StepOutcomes, StepResult, Transition, TransitionFacts } from '../lib/intake/lifecycle';
import type { SubmissionRow } from '../lib/intake/submissions';
import type { DecisionDetails, DecisionKind } from '../lib/intake/decisions';
import type { ActorRef, DecisionProof, VerificationFailureCode } from '../lib/intake/vocabulary';
import type { ImageFacts, MimeType } from '../lib/media/vocabulary';

/**
 * What a work step's activity takes (workflows/intake-steps.ts calls it for the state lifecycle.ts
 * WORK names it for): the submission's bytes, the transition that entered the step and the outcomes
 * it can end in. The two steps that predate it, verifying and promoting, keep the inputs their
 * recorded histories carry (VerifyInput, PromoteInput).
 */
export interface WorkStepInput {
  submissionId: string;
  stagingKey: string;
  sizeBytes: number;
  mimeType: MimeType;
  /** The verified bytes' sha256, once verification passed. */
  sha256: string | null;
  enter: Transition;
  outcomes: StepOutcomes;
}
/** What a work step's activity answers: the outcome its result picks, or (a step a signed decision entered) a refusal that wrote nothing. */
export type WorkStepResult = StepResult<TransitionFacts> | { refused: true; reason: string };

export interface VerifyInput {
  submissionId: string;
  stagingKey: string;
  sizeBytes: number;
  mimeType: MimeType;
  by: ActorRef;
  /** staged -> verifying, and verification_passed / verification_failed. */
  enter: Transition;
  outcomes: StepOutcomes;
  /** The upload-complete's request id (absent in tasks scheduled by the decision-updates shape): names a refusal. */
  requestId?: string;
}
/**
 * `image`: the decoded image's facts, when verification decoded it. `refused`: no object was
 * uploaded and the submission is still staged; nothing was written but the refusal.
 */
export type VerifyResult = { ok: true; sha256: string; image?: ImageFacts } | { ok: false; code: VerificationFailureCode } | { refused: true; reason: 'object_missing' };

/**
 * The signed decision is the one carrier of who approved, the review notes and the entering
 * transition (awaiting_review -> promoting): verified (activities/accept-decision.ts) before
 * anything is written.
 */
export interface PromoteInput {
  submissionId: string;
  stagingKey: string;
  sha256: string;
  mimeType: MimeType;
  /** promotion_done / object_changed. */
  outcomes: StepOutcomes;
  decision: AcceptDecisionInput;
}

/**
 * `object_changed` is permanent (a retry cannot bring the verified bytes back), so it is a result.
 * `refused`: the decision's proof did not hold; nothing was written (the refusal is recorded).
 */
export type PromoteResult = { ok: true; mediaStoreDocumentId: string } | { ok: false; code: 'object_changed' } | { refused: true; reason: string };

/** A transition to write; a decision's transition carries its signed decision, written only when the proof holds. */
export type RecordTransitionInput = Transition & { decision?: AcceptDecisionInput };
/** Undefined for transitions that are no decision. */
export type RecordTransitionResult = AcceptDecisionResult | undefined;

export interface ExpireInput {
  submissionId: string;
  stagingKey: string;
  /** staged -> expired. */
  transition: Transition;
}

/**
 * A human decision as the Update brought it; acted on only when its proof holds
 * (activities/accept-decision.ts). Its details (lib/intake/decisions.ts DecisionDetails: the review
 * notes, a reason code, the similar-image matches shown, the suggested labels accepted) are the
 * ones its proof's details hash covers.
 */
export type AcceptDecisionInput = {
  decision: DecisionKind;
  requestId: string;
  /** Who the Update says decided: recorded on a refusal, never authority. */
  by: ActorRef;
  proof?: DecisionProof | undefined;
} & DecisionDetails & {
  /** The sha256 verification recorded (the workflow's own result). */
  sha256: string;
  /** What the decision does once accepted: its row (awaiting_review -> promoting, -> rejected). */
  transition: Transition;
};
/** Why a decision was refused (lib/intake/decision-proof.ts DecisionRefusal). */
export type AcceptDecisionResult = { accepted: true } | { accepted: false; reason: string };


/** A signal whose payload was not its shape (lib/intake/signal-shapes.ts): recorded as refused, never acted on. */
export interface SignalRefusalInput {
  submissionId: string;
  signal: 'uploadComplete' | DecisionKind;
  /** The payload's own request id when it had a readable one. */
  requestId: string | null;
  /** Who the payload claims to be from, as far as it could be read (never authority). */
  by: Partial<ActorRef>;
  /** What was wrong in it. */
  detail: string;
  /** The run's count of refusals: with the workflow id, a stable id when the payload had none. */
  seq: number;
  /** Why it changed nothing; absent: `signal_malformed` (the payload was not its shape). */
  reason?: string;
}

/** The row's state, which the workflow takes on after a step gave up (the row is what clients read). */
export type RowState = Pick<SubmissionRow, 'intakeStatus' | 'reviewStatus' | 'failureCode' | 'rejectReasonCode' | 'mediaStoreDocumentId' | 'verifiedSha256'>;


// Webhook deliveries (activities/webhooks.ts; workflows/webhook-delivery.ts).
export interface WebhookRetry {
  initialSeconds: number;
  maxIntervalSeconds: number;
  /** How long a delivery is retried before it is marked failed (at least 24 h by default). */
  windowSeconds: number;
}

/** How an endpoint's deliverer run ended (workflows/webhook-delivery.ts webhookEndpoint acts on it). */
export type DelivererOutcome =
  /** Nothing open for a quiet spell: the workflow waits for a signal, then ends. */
  | { outcome: 'idle' }
  /** Open deliveries, none due before `waitSeconds`: the workflow sleeps until then (or a signal). */
  | { outcome: 'wait'; waitSeconds: number }
  /** The run reached its time bound, or the worker is stopping: the workflow runs it again. */
  | { outcome: 'more' }
  /** The endpoint is deleted; its open deliveries are cancelled. */
  | { outcome: 'gone' };

export interface WebhookActivities {
  /**
   * The endpoint's deliverer: delivers the first open delivery of each of its submissions, up to
   * `concurrency` at once (one at first, more as the receiver answers), until nothing is due soon;
   * heartbeats as it goes.
   */
  deliverEndpoint(i: { endpointId: string; retry: WebhookRetry; concurrency: number }): Promise<DelivererOutcome>;
}

/** The agent lane's activity (activities/classifications.ts): a classification the run took, recorded after the actor's re-check. */
export interface ClassificationActivities {
  recordClassification(i: { submissionId: string; payload: ClassifyPayload }): Promise<ClassifyAnswer>;
}
