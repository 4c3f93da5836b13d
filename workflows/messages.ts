// Signals, queries, payload types and the task queue name: defined once, imported by the API,
// the worker, the workflows and the tests. The intake's vocabulary and transition table live in
// lib/intake/ (pure modules this folder may import).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate, type Sinks } from '@temporalio/workflow';
import type { ClassifyAnswer, ClassifyPayload } from '../lib/agents/vocabulary';
import type { DecisionKeys } from '../lib/intake/decision-check';
import { byKind, type DecidingStatus, type Decision, type DecisionKind, type DecisionPayload, type UploadCompletePayload } from '../lib/intake/decisions';
import type { ActorRef, IntakeStatus, IntakeView, SubmissionRef } from '../lib/intake/vocabulary';

export interface IntakeInput extends SubmissionRef {
  /** Upload window plus grace, in seconds: the workflow expires when no upload-complete arrives. */
  uploadDeadlineSeconds: number;
  /** The API's decision keys (kid -> raw Ed25519 public key): Update validators verify proofs with them. */
  decisionKeys: DecisionKeys;
  /** A run that takes over from an earlier one (continued as new, or resumed by the reconciler from the row). */
  resume?: IntakeResume;
}

/** Where a new run of a submission starts: the state the row (or the run before) recorded. */
export interface IntakeResume {
  intakeStatus: 'staged' | 'verifying' | DecidingStatus | 'promoting';
  /** The verified bytes' sha256 (awaiting a decision, promoting). */
  sha256?: string | null;
  /** When the upload window ends (ISO time; staged). */
  uploadDeadline: string;
  /** Who completed the upload (verifying): the partner that the API authenticated. */
  uploadedBy?: ActorRef;
  /** Why: `continued` (the history grew long) or `resumed after <how the run closed>`. */
  why: string;
}

// Payload types: what the API sends. Anyone who can reach Temporal can send anything, so the
// workflow checks every payload's shape (lib/intake/signal-shapes.ts; a decision's: its schema in
// lib/intake/decisions.ts, where the types come from) before it records it.
export type UploadCompleteSignal = UploadCompletePayload;

/** The workflow's view of itself. The HTTP status view is derived from it (without private pointers). */
export type IntakeState = IntakeView;

/** A decision offered to the run by an Update (lib/intake/decisions.ts). */
export type { Decision };

export const intakeStateQuery = defineQuery<IntakeState>('intakeState');

/**
 * The answer of a decision or upload-complete Update: taken (the transition was written; the row
 * says where it went) or refused (nothing changed; the refusal is recorded). A payload the
 * validator refuses never reaches history: the caller gets the validator's error instead.
 */
export type IntakeAnswer = { taken: true; intakeStatus: IntakeStatus } | { taken: false; reason: string; intakeStatus: IntakeStatus };
export const uploadCompleteUpdate = defineUpdate<IntakeAnswer, [UploadCompleteSignal]>('uploadComplete');
/** One Update per decision kind, named as the kind; its payload is the kind's (the review notes, the API's signature over the decision: without a valid one it changes nothing). */
export const decisionUpdates = byKind((kind) => defineUpdate(kind)) as { [K in DecisionKind]: UpdateDefinition<IntakeAnswer, [DecisionPayload<K>], K> };

/** A classifier's labels for a submission awaiting review (workflows/intake-classify.ts); never a transition. */
export const classifyUpdate = defineUpdate<ClassifyAnswer, [ClassifyPayload]>('classify');

/** The message of a validator's refusal: `<reason>: <detail>` (the API maps the reason to its answer). */
export const REFUSAL_SEPARATOR = ': ';
/** Validator refusals the API answers as "try again later" (503): the workflow cannot take more now. */
export const BUSY_REFUSALS = ['queue_full'] as const;

/**
 * Refusals made where nothing may be written to history (Update validators): the worker records them (decision_refusals, capped per submission) outside the
 * history. Called on the first execution only, never on replay.
 */
export interface RefusalNote {
  submissionId: string;
  message: 'uploadComplete' | DecisionKind;
  requestId: string | null;
  by: Partial<ActorRef>;
  reason: string;
  detail: string;
  /** The operator a proof named, when it was read that far. */
  proofActorId?: string | undefined;
}
export interface IntakeSinks extends Sinks {
  refusals: { record(note: RefusalNote): void };
}

export function intakeWorkflowId(submissionId: string): string {
  return `intake/${submissionId}`;
}

// Webhook delivery (workflows/webhook-delivery.ts): one workflow per endpoint (webhookEndpoint),
// signalled with-start by the worker's dispatcher when the endpoint has deliveries and its deliverer
// is not running. Its own task queue (WEBHOOK_TASK_QUEUE, by default the intake queue's name +
// `-webhooks`) so slow partner receivers never take intake slots.
/** "There are deliveries": sent with signal-with-start by the dispatcher. */
export const webhookDeliveriesSignal = defineSignal('webhookDeliveries');

export function webhookEndpointWorkflowId(endpointId: string): string {
  return `webhook-endpoint:${endpointId}`;
}

/** The webhook lane's task queue when WEBHOOK_TASK_QUEUE is not set. */
export function defaultWebhookTaskQueue(intakeTaskQueue: string): string {
  return `${intakeTaskQueue}-webhooks`;
}

// Custom search attributes kept current by the intake workflow, so on-call staff can filter in
// the Temporal Web UI. Never PII, never a custom attribute named `Status`.
export const IntakeStatusKey = defineSearchAttributeKey('IntakeStatus', SearchAttributeType.KEYWORD);
export const ReviewStatusKey = defineSearchAttributeKey('ReviewStatus', SearchAttributeType.KEYWORD);
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const ArtistCanonicalIdKey = defineSearchAttributeKey('ArtistCanonicalId', SearchAttributeType.KEYWORD);
export const PartnerActorIdKey = defineSearchAttributeKey('PartnerActorId', SearchAttributeType.KEYWORD);
export const AwaitingSinceKey = defineSearchAttributeKey('AwaitingSince', SearchAttributeType.DATETIME);
export const SEARCH_ATTRIBUTE_KEYS = [
  IntakeStatusKey,
  ReviewStatusKey,
  TenantIdKey,
  ArtistCanonicalIdKey,
  PartnerActorIdKey,
  AwaitingSinceKey,
] as const;

export { identityEvidenceStatuses, type ArtistResolutionInput, type ArtistResolutionResult, type IdentityEvidenceStatus } from '../lib/identity/resolution';

export function artistResolutionWorkflowId(tenantId: string, idempotencyKeyHash: string): string {
  return `artist-resolution/${tenantId}/${idempotencyKeyHash}`;
}
