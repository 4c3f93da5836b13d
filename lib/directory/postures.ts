// Settling a draft's `review_required` rights or consent posture: an operator (portfolios:publish)
// states what was established, with a note, before the draft can be published. Recorded in
// posture_settlements (who, which credential, from what to what, why) and access_audit, in the
// transaction that changes the draft's postures; refusals are audited too. The partner's
// submission row keeps what the partner declared.
import type { Sql } from '../db';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from './records';
import { audited, ProjectionRefusedError, requireOperator } from './projection';

export type PublishableRights = (typeof PUBLISHABLE_RIGHTS)[number];
export type PublishableConsent = (typeof PUBLISHABLE_CONSENT)[number];

export interface SettlementInput {
  documentId: string;
  operatorActorId: string;
  /** `<issuer>#<subject>` of the bearer the operator was verified with. */
  credentialId: string;
  /** The settled rights posture; only a `review_required` one can be settled. */
  rightsPosture?: PublishableRights | undefined;
  consentPosture?: PublishableConsent | undefined;
  /** Why (3..2000 characters): what was established, and how. */
  note: string;
}

export interface SettlementResult {
  documentId: string;
  rightsPosture: string;
  consentPosture: string;
  settled: { rights?: { from: string; to: string }; consent?: { from: string; to: string } };
  settledBy: string;
  settledAt: string;
}

export function settlePostures(sql: Sql, input: SettlementInput): Promise<SettlementResult> {
  return audited(sql, 'posture_settlement_refused', input.documentId, input.operatorActorId, async () => {
    const note = input.note.trim();
    if (note.length < 3 || note.length > 2000) throw new ProjectionRefusedError('reason_required', 'A settlement needs a note of 3 to 2000 characters.');
    if (!input.rightsPosture && !input.consentPosture)
      throw new ProjectionRefusedError('posture_not_review_required', 'Name the posture to settle: rightsPosture, consentPosture or both.');
    return sql.begin(async (tx) => {
      await requireOperator(tx, input.operatorActorId);
      const [doc] = await tx<{ rightsPosture: string; consentPosture: string }[]>`
        select rights_posture, consent_posture from media_documents where document_id = ${input.documentId} for update`;
      if (!doc) throw new ProjectionRefusedError('document_not_found', `No media-store document ${input.documentId}.`);
      const settled: SettlementResult['settled'] = {};
      if (input.rightsPosture) {
        if (doc.rightsPosture !== 'review_required')
          throw new ProjectionRefusedError('posture_not_review_required', `The rights posture is ${doc.rightsPosture}, not review_required: there is nothing to settle.`);
        settled.rights = { from: doc.rightsPosture, to: input.rightsPosture };
      }
      if (input.consentPosture) {
        if (doc.consentPosture !== 'review_required')
          throw new ProjectionRefusedError('posture_not_review_required', `The consent posture is ${doc.consentPosture}, not review_required: there is nothing to settle.`);
        settled.consent = { from: doc.consentPosture, to: input.consentPosture };
      }
      const rights = input.rightsPosture ?? doc.rightsPosture;
      const consent = input.consentPosture ?? doc.consentPosture;
      await tx`update media_documents set rights_posture = ${rights}, consent_posture = ${consent} where document_id = ${input.documentId}`;
      const [row] = await tx<{ at: Date }[]>`
        insert into posture_settlements (document_id, rights_before, rights_after, consent_before, consent_after, operator_actor_id, credential_id, note)
        values (${input.documentId}, ${doc.rightsPosture}, ${rights}, ${doc.consentPosture}, ${consent}, ${input.operatorActorId}, ${input.credentialId}, ${note})
        returning at`;
      await tx`insert into access_audit (action, subject, detail) values ('posture_settled', ${input.documentId},
        ${tx.json({ operatorActorId: input.operatorActorId, credentialId: input.credentialId, settled, note })})`;
      return { documentId: input.documentId, rightsPosture: rights, consentPosture: consent, settled, settledBy: input.operatorActorId, settledAt: row!.at.toISOString() };
    });
  });
}

/** The settlements of a draft, oldest first (the console's detail view). */
export async function postureSettlementsOf(sql: Sql, documentId: string) {
  return sql<{ rightsBefore: string; rightsAfter: string; consentBefore: string; consentAfter: string; operatorActorId: string; note: string; at: Date }[]>`
    select rights_before, rights_after, consent_before, consent_after, operator_actor_id, note, at
    from posture_settlements where document_id = ${documentId} order by at, id`;
}
