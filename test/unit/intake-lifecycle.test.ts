// The transition table, read as the workflow and the routes read it.
import { describe, expect, it } from 'vitest';
import {
  accepts,
  acceptsDuringStep,
  gaveUpOf,
  acceptsUpload,
  InvalidTransitionError,
  isFinal,
  isWorking,
  outcomeOf,
  outcomesOf,
  settledAfter,
  stepOutcomes,
  transitionOf,
  TRANSITIONS,
  WORK,
} from '../../lib/intake/lifecycle';
import { eventTypeOf } from '../../lib/intake/outbox';
import { intakeStatuses } from '../../lib/intake/vocabulary';

const by = { actorId: 'op-jane', credentialId: 'cred-1' };

describe('the intake transition table', () => {
  it('reaches every status from create, and only the four final ones have no way out', () => {
    const reached = new Set<string>(TRANSITIONS.map((t) => t.to));
    expect([...reached].sort()).toEqual([...intakeStatuses].sort());
    expect(intakeStatuses.filter(isFinal).sort()).toEqual(['expired', 'promoted_to_media_store', 'rejected', 'verification_failed']);
  });

  it('verifying and promoting are the workflow’s own work steps; nothing from outside is accepted there', () => {
    expect(intakeStatuses.filter(isWorking).sort()).toEqual(['promoting', 'verifying']);
    for (const s of ['verifying', 'promoting'] as const) for (const t of ['upload_complete', 'approve', 'reject'] as const) expect(accepts(s, t)).toBe(false);
  });

  it('a decision is accepted only while awaiting review (a first or a second one), an upload only while staged', () => {
    expect(intakeStatuses.filter((s) => accepts(s, 'approve'))).toEqual(['awaiting_review', 'awaiting_second_review']);
    expect(intakeStatuses.filter((s) => accepts(s, 'reject'))).toEqual(['awaiting_review', 'awaiting_second_review']);
    expect(intakeStatuses.filter((s) => accepts(s, 'first_approval'))).toEqual(['awaiting_review']);
    expect(intakeStatuses.filter(acceptsUpload)).toEqual(['staged']);
  });

  it('keeps a decision that arrives while verification’s outcome is committed but not yet processed, and nothing else', () => {
    expect(acceptsDuringStep('verifying', 'approve')).toBe(true);
    expect(acceptsDuringStep('verifying', 'reject')).toBe(true);
    expect(acceptsDuringStep('promoting', 'approve')).toBe(false);
    expect(acceptsDuringStep('promoting', 'reject')).toBe(false);
    expect(acceptsDuringStep('staged', 'approve')).toBe(false);
    expect(acceptsDuringStep('awaiting_review', 'upload_complete')).toBe(false);
  });

  it('builds a transition with the review status the table gives, and refuses one the table lacks', () => {
    const t = transitionOf({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' }, 'approve', { submissionId: 's1', by, note: 'ok' });
    expect(t).toEqual({ submissionId: 's1', trigger: 'approve', from: 'awaiting_review', to: 'promoting', reviewStatus: 'approved', by, note: 'ok', facts: {} });
    expect(() => transitionOf({ intakeStatus: 'staged', reviewStatus: 'review_required' }, 'approve', { submissionId: 's1', by })).toThrow(InvalidTransitionError);
  });

  it('an approval settles in promoted or, when the bytes changed, verification_failed with the approval kept', () => {
    expect(outcomesOf('approve').sort()).toEqual(['awaiting_second_review', 'promoted_to_media_store', 'verification_failed']);
    expect(outcomesOf('upload_complete').sort()).toEqual(['awaiting_review', 'verification_failed']);
    expect(outcomesOf('reject')).toEqual(['rejected']);
    expect(settledAfter('approve', 'awaiting_review', 'awaiting_review')).toBe(false);
    expect(settledAfter('approve', 'promoting', 'awaiting_review')).toBe(false);
    expect(settledAfter('approve', 'promoted_to_media_store', 'awaiting_review')).toBe(true);
    // Held for a second operator: settled (the first approval is written); the second one's too.
    expect(settledAfter('approve', 'awaiting_second_review', 'awaiting_review')).toBe(true);
    expect(settledAfter('approve', 'awaiting_second_review', 'awaiting_second_review')).toBe(false);
    expect(settledAfter('approve', 'promoted_to_media_store', 'awaiting_second_review')).toBe(true);
    const promoting = transitionOf({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' }, 'approve', { submissionId: 's1', by });
    const offered = stepOutcomes(promoting, 'promotion_done', 'object_changed');
    expect(outcomeOf(offered, { ok: false, code: 'object_changed' })).toMatchObject({
      from: 'promoting', to: 'verification_failed', reviewStatus: 'approved', note: 'object_changed', facts: { failureCode: 'object_changed' }, by,
    });
    expect(outcomeOf(offered, { ok: true, mediaStoreDocumentId: 'mdoc_1' })).toMatchObject({ to: 'promoted_to_media_store', facts: { mediaStoreDocumentId: 'mdoc_1' } });
  });

  it('names each work step’s work and outcomes in the table: WORK, the ok and failed rows, the gave-up transition', () => {
    expect(Object.keys(WORK).sort()).toEqual(intakeStatuses.filter(isWorking).sort());
    // Partners hear of no work step, and of no second review (they keep seeing awaiting_review).
    for (const s of intakeStatuses) expect(eventTypeOf(s) === undefined, s).toBe(isWorking(s) || s === 'awaiting_second_review');
    const verifying = transitionOf({ intakeStatus: 'staged', reviewStatus: 'review_required' }, 'upload_complete', { submissionId: 's1', by });
    const promoting = transitionOf({ intakeStatus: 'awaiting_review', reviewStatus: 'review_required' }, 'approve', { submissionId: 's1', by });
    expect(stepOutcomes(verifying)).toEqual(stepOutcomes(verifying, 'verification_passed', 'verification_failed'));
    expect(stepOutcomes(promoting)).toEqual(stepOutcomes(promoting, 'promotion_done', 'object_changed'));
    const v = gaveUpOf(verifying, stepOutcomes(verifying));
    expect(v).toEqual(outcomeOf(stepOutcomes(verifying), { ok: false, code: 'verification_error' }));
    const p = gaveUpOf(promoting, stepOutcomes(promoting));
    expect(p).toEqual(
      transitionOf({ intakeStatus: 'promoting', reviewStatus: 'approved' }, 'promotion_failed', { submissionId: 's1', note: 'promotion gave up after its attempts' }),
    );
  });
});
