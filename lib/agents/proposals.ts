// A proposal (a classification of a submission already promoted) changes nothing until an operator
// applies it: a dry run answers the diff against the record it would change (the published
// portfolio asset, else the draft); applying writes the record, marks the proposal applied and
// records who applied what, from what to what (classification_applications), in one transaction.
import type { Sql } from '../db';
import { mediaDocumentId } from '../intake/drafts';
import type { ClassificationLabels } from './vocabulary';

export const PROPOSAL_FIELDS = ['styles', 'placement'] as const;
export type ProposalField = (typeof PROPOSAL_FIELDS)[number];

export interface ProposalChange {
  field: ProposalField;
  before: string[] | string | null;
  after: string[] | string | null;
}

export interface ProposalResult {
  dryRun: boolean;
  target: { kind: 'portfolio_asset' | 'draft'; id: string };
  changes: ProposalChange[];
  appliedAt: string | null;
}

export class ProposalError extends Error {
  constructor(
    readonly reason: 'not_found' | 'not_a_proposal' | 'superseded' | 'applied' | 'no_record',
    message: string,
  ) {
    super(message);
    this.name = 'ProposalError';
  }
}

class DryRun extends Error {}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function applyProposal(
  sql: Sql,
  p: { classificationId: string; fields: readonly ProposalField[]; dryRun: boolean; by: { actorId: string; credentialId: string } },
): Promise<ProposalResult> {
  let result: ProposalResult | undefined;
  try {
    await sql.begin(async (tx) => {
      const [c] = await tx<{ submissionId: string; kind: string; labels: ClassificationLabels; supersededAt: Date | null; appliedAt: Date | null }[]>`
        select submission_id, kind, labels, superseded_at, applied_at from classifications where classification_id = ${p.classificationId} for update`;
      if (!c) throw new ProposalError('not_found', 'No such classification.');
      if (c.kind !== 'proposal') throw new ProposalError('not_a_proposal', 'A suggestion is taken at approve, not applied: only a proposal (a classification made after promotion) is applied.');
      if (c.supersededAt) throw new ProposalError('superseded', 'Its classifier classified the submission again since: apply the newer one.');
      if (c.appliedAt) throw new ProposalError('applied', `Applied already at ${c.appliedAt.toISOString()}.`);
      const documentId = mediaDocumentId(c.submissionId);
      const [asset] = await tx<{ id: string; styleIds: string[]; placement: string | null }[]>`
        select id, style_ids, placement from portfolio_assets where source_document_id = ${documentId} for update`;
      const [draft] = asset
        ? [undefined]
        : await tx<{ id: string; styleIds: string[]; placement: string | null }[]>`
            select m.document_id as id, case when cardinality(m.style_ids) > 0 then m.style_ids else s.style_ids end as style_ids,
              coalesce(m.placement, s.placement) as placement
            from media_documents m join submissions s using (submission_id) where m.document_id = ${documentId} for update of m`;
      const record = asset ?? draft;
      if (!record) throw new ProposalError('no_record', 'The submission has no draft or published record to change.');
      const proposed = {
        styles: [...c.labels.styles].sort((a, b) => b.confidence - a.confidence).map((s) => s.id as string),
        placement: c.labels.placement?.id ?? record.placement,
      };
      const current = { styles: record.styleIds, placement: record.placement };
      const changes = p.fields.filter((f) => !same(current[f], proposed[f])).map((f) => ({ field: f, before: current[f], after: proposed[f] }));
      const target = { kind: asset ? ('portfolio_asset' as const) : ('draft' as const), id: record.id };
      if (p.dryRun) {
        result = { dryRun: true, target, changes, appliedAt: null };
        throw new DryRun();
      }
      // Only the fields that change are written.
      for (const ch of changes) {
        const v = proposed[ch.field];
        if (asset && ch.field === 'styles') await tx`update portfolio_assets set style_ids = ${v as string[]}::text[], updated_at = now() where id = ${asset.id}`;
        if (asset && ch.field === 'placement') await tx`update portfolio_assets set placement = ${v as string | null}, updated_at = now() where id = ${asset.id}`;
        if (!asset && ch.field === 'styles') await tx`update media_documents set style_ids = ${v as string[]}::text[] where document_id = ${documentId}`;
        if (!asset && ch.field === 'placement') await tx`update media_documents set placement = ${v as string | null} where document_id = ${documentId}`;
      }
      const [applied] = await tx<{ appliedAt: Date }[]>`
        update classifications set applied_at = now(), applied_by = ${p.by.actorId} where classification_id = ${p.classificationId} returning applied_at`;
      await tx`insert into classification_applications (classification_id, applied_by, credential_id, target_kind, target_id, changes)
        values (${p.classificationId}, ${p.by.actorId}, ${p.by.credentialId}, ${target.kind}, ${target.id}, ${tx.json(changes as never)})`;
      result = { dryRun: false, target, changes, appliedAt: applied!.appliedAt.toISOString() };
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return result!;
}
