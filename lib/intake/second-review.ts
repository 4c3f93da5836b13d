// The second-review policy (issue 44): where one operator's approval is not enough. By default an
// approval needs a second, different operator when the image matches another artist's published or
// pending work (the console's flag on a similar image, lib/intake/similar.ts) or a classifier flagged
// its content at or above 0.5 (lib/agents). The API finds the reasons when the first operator
// approves and puts them in the signed decision (lib/intake/decisions.ts approve `secondReview`);
// the workflow then holds the approval in awaiting_second_review, where a different operator's
// approval promotes, either may reject, and the same operator approving again is refused.
import type { Tx } from '../db';
import { heldOf, type DecisionKind } from './decisions';

export interface SecondReviewPolicy {
  /** A flagged similar image (another artist's published or pending work) asks for a second operator. */
  similarMatches: boolean;
  /** A current classification's content flag at or above this confidence asks for one; null: flags never do. */
  contentFlagAtLeast: number | null;
}

export const DEFAULT_SECOND_REVIEW: SecondReviewPolicy = { similarMatches: true, contentFlagAtLeast: 0.5 };

/** What the policy looks at: the submission's matches (flagged as the console flags them) and its current classifications' content flags. */
export interface SecondReviewEvidence {
  matches: { id: string; flagged: boolean }[];
  classifications: { classificationId: string; contentFlags: { id: string; confidence: number }[] }[];
}

/**
 * Why a second operator is needed, as short reason codes (empty: one operator is enough):
 * `similar_image:<match id>` and `content_flag:<flag>:<confidence>` (the highest per flag).
 */
export function secondReviewReasons(policy: SecondReviewPolicy, e: SecondReviewEvidence): string[] {
  const reasons: string[] = [];
  if (policy.similarMatches) for (const m of e.matches) if (m.flagged) reasons.push(`similar_image:${m.id}`);
  if (policy.contentFlagAtLeast !== null) {
    const top = new Map<string, number>();
    for (const c of e.classifications) for (const f of c.contentFlags) if (f.confidence >= policy.contentFlagAtLeast && f.confidence > (top.get(f.id) ?? -1)) top.set(f.id, f.confidence);
    for (const [flag, confidence] of [...top].sort((a, b) => a[0].localeCompare(b[0]))) reasons.push(`content_flag:${flag}:${confidence}`);
  }
  return reasons;
}

/** A held decision's first half: who decided first, and when (the console's queries read the notes and reasons). */
export interface FirstDecision {
  actorId: string;
  at: Date;
}

/** The held first decision of `kind` on a submission (its intake_events line), if there is one. */
export async function firstDecisionOf(sql: Tx, submissionId: string, kind: DecisionKind = 'approve'): Promise<FirstDecision | undefined> {
  const held = heldOf(kind);
  if (!held) return undefined;
  const [row] = await sql<FirstDecision[]>`
    select actor_id, at from intake_events
    where submission_id = ${submissionId} and trigger = ${held.trigger}
    order by at desc, id desc limit 1`;
  return row;
}

/**
 * Is `actorId` the person who decided first? The same mapping, or another mapping of the same
 * person: the rule compares the identity subject a bearer token names, not the mapping (one person
 * mapped under two issuers, or mapped again, is still one operator).
 */
export async function isFirstDecider(sql: Tx, first: FirstDecision, actorId: string): Promise<boolean> {
  if (first.actorId === actorId) return true;
  const [row] = await sql<{ same: boolean }[]>`
    select exists (
      select 1 from actor_mappings a join actor_mappings b on a.credential_subject = b.credential_subject and a.credential_kind = b.credential_kind
      where a.actor_id = ${first.actorId} and b.actor_id = ${actorId} and a.credential_kind = 'bearer'
    ) as same`;
  return row?.same === true;
}
