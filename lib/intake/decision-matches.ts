// The similar-image matches a decision was taken over, recorded with the decision (in the
// transaction of its transition) in decision_matches, append-only: what the lookup found at
// decision time and which match ids the operator was shown. Never in a partner's webhook.
import type { Tx } from '../db';
import type { DecisionKind } from './decisions';
import { similarTo } from './similar';

export async function recordDecisionMatches(
  tx: Tx,
  d: { decision: DecisionKind; requestId: string; by: { actorId: string; credentialId: string }; reviewNotes?: string | undefined; seenMatches?: string[] | undefined; transition: { submissionId: string } },
): Promise<void> {
  const submissionId = d.transition.submissionId;
  const found = await similarTo(tx, submissionId, {});
  if (found.length === 0 && !d.seenMatches?.length) return;
  const matches = found.map(({ previewUrl: _url, ...m }) => m);
  await tx`
    insert into decision_matches (submission_id, decision, request_id, actor_id, credential_id, matches, seen_matches, review_notes)
    values (${submissionId}, ${d.decision}, ${d.requestId}, ${d.by.actorId}, ${d.by.credentialId}, ${tx.json(matches)},
      ${d.seenMatches ?? null}::text[], ${d.reviewNotes ?? ''})
    on conflict (submission_id, request_id) do nothing`;
}
