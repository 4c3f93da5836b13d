// The second-review policy (lib/intake/second-review.ts): which evidence asks for a second operator,
// in words a console can show, and what turning each half off does.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SECOND_REVIEW, secondReviewReasons, type SecondReviewEvidence } from '../../lib/intake/second-review';
import { decisionFacts, decisionTrigger, type Decision } from '../../lib/intake/decisions';
import { detailsHash } from '../../lib/intake/decision-proof';

const evidence: SecondReviewEvidence = {
  matches: [
    { id: 'ast_1', flagged: true },
    { id: 'sub_own', flagged: false },
  ],
  classifications: [
    { classificationId: 'cls_1', contentFlags: [{ id: 'nudity', confidence: 0.5 }, { id: 'low_quality', confidence: 0.49 }] },
    { classificationId: 'cls_2', contentFlags: [{ id: 'nudity', confidence: 0.8 }, { id: 'face_visible', confidence: 0.6 }] },
  ],
};

describe('the second-review policy', () => {
  it('by default: each flagged match, and each content flag at or above 0.5 once (its highest confidence), flags in name order', () => {
    expect(secondReviewReasons(DEFAULT_SECOND_REVIEW, evidence)).toEqual(['similar_image:ast_1', 'content_flag:face_visible:0.6', 'content_flag:nudity:0.8']);
  });

  it('asks for nothing where nothing is flagged, or where both halves are off', () => {
    expect(secondReviewReasons(DEFAULT_SECOND_REVIEW, { matches: [{ id: 'sub_own', flagged: false }], classifications: [] })).toEqual([]);
    expect(secondReviewReasons({ similarMatches: false, contentFlagAtLeast: null }, evidence)).toEqual([]);
    expect(secondReviewReasons({ similarMatches: false, contentFlagAtLeast: 0.7 }, evidence)).toEqual(['content_flag:nudity:0.8']);
    expect(secondReviewReasons({ similarMatches: true, contentFlagAtLeast: null }, evidence)).toEqual(['similar_image:ast_1']);
  });
});

describe('a held approval in the decision table', () => {
  const approve = (secondReview?: string[]): Decision => ({
    kind: 'approve',
    signal: { requestId: 'r1', by: { actorId: 'op-1', credentialId: 'c1' }, reviewNotes: 'ok', ...(secondReview ? { secondReview } : {}) },
  });

  it('is held only from awaiting_review and only with reasons; its facts record them', () => {
    expect(decisionTrigger(approve(['similar_image:ast_1']), 'awaiting_review')).toBe('first_approval');
    expect(decisionTrigger(approve(['similar_image:ast_1']), 'awaiting_second_review')).toBe('approve');
    expect(decisionTrigger(approve([]), 'awaiting_review')).toBe('approve');
    expect(decisionTrigger(approve(), 'awaiting_review')).toBe('approve');
    expect(decisionFacts(approve(['x']), 'first_approval')).toEqual({ secondReviewReasons: ['x'] });
    expect(decisionFacts(approve(['x']), 'approve')).toBeUndefined();
  });

  it('the proof covers the reasons (a payload that drops them no longer matches), and is as before without them', () => {
    expect(detailsHash({ reviewNotes: 'ok', secondReview: ['x'] })).not.toBe(detailsHash({ reviewNotes: 'ok' }));
    expect(detailsHash({ reviewNotes: 'ok', secondReview: [] })).toBe(detailsHash({ reviewNotes: 'ok' }));
  });
});
