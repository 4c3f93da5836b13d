// The machine classifications of a submission (docs/agents.md): who, which model, the labels with
// their confidence and the classifier's rationale. Suggestions for the operator, never decisions;
// the rationale is the classifier's words, shown as text. While the decision is open the operator
// may tick labels of one suggestion to take into the draft: they go with the approval (its proof
// covers them): styles replace the partner's, subjects are added as tags, the placement is the draft's.
import type { ApproveBody, Submission } from '../api';
import { words } from '../format';

type Classification = Submission['classifications'][number];
export type Accepted = NonNullable<ApproveBody['accepted']>;
type Ids<F extends 'styleIds' | 'tags'> = NonNullable<Accepted[F]>[number];

const pct = (c: number) => `${Math.round(c * 100)}%`;
const labels = (xs: { id: string; confidence: number }[]) => (xs.length ? xs.map((x) => `${words(x.id)} ${pct(x.confidence)}`).join(', ') : 'none');

type Field = 'styleIds' | 'tags' | 'placement';

/** The accepted labels after ticking or unticking one (labels of another suggestion are dropped). */
function toggle(accepted: Accepted | null, c: Classification, field: Field, id: string): Accepted | null {
  const base = accepted?.classificationId === c.classificationId ? accepted : { classificationId: c.classificationId };
  const flip = <T extends string>(xs: T[] | undefined, x: T) => ((xs ?? []).includes(x) ? (xs ?? []).filter((y) => y !== x) : [...(xs ?? []), x]);
  let next: Accepted;
  if (field === 'placement') {
    const { placement, ...rest } = base;
    next = placement === id ? rest : { ...rest, placement: id as NonNullable<Accepted['placement']> };
  } else if (field === 'styleIds') next = { ...base, styleIds: flip(base.styleIds, id as Ids<'styleIds'>) };
  else next = { ...base, tags: flip(base.tags, id as Ids<'tags'>) };
  return next.styleIds?.length || next.tags?.length || next.placement ? next : null;
}

export function Suggestions(p: { list: Classification[]; open: boolean; accepted: Accepted | null; onAccept: (a: Accepted | null) => void }) {
  if (p.list.length === 0) return <p class="muted">No classifier has looked at this image.</p>;
  const picks = (c: Classification, field: Field, xs: { id: string; confidence: number }[]) =>
    !p.open || c.kind !== 'suggestion' || xs.length === 0 ? (
      labels(xs)
    ) : (
      <>
        {xs.map((x) => {
          const a = p.accepted?.classificationId === c.classificationId ? p.accepted : null;
          const on = !!a && (field === 'placement' ? a.placement === x.id : ((a[field] ?? []) as string[]).includes(x.id));
          return (
            <label key={x.id} class="pick">
              <input type="checkbox" data-accept={`${field}:${x.id}`} checked={on} onChange={() => p.onAccept(toggle(p.accepted, c, field, x.id))} /> {words(x.id)} {pct(x.confidence)}{' '}
            </label>
          );
        })}
      </>
    );
  return (
    <ul class="suggestions" data-testid="suggestions">
      {p.list.map((c) => (
        <li key={c.classificationId}>
          <strong>{c.actorId}</strong> <span class="muted">({c.model.name} {c.model.version}, {c.kind})</span>
          <dl class="meta">
            <dt>Content flags</dt>
            <dd data-testid="suggested-flags">{labels([...c.contentFlags].sort((a, b) => b.confidence - a.confidence))}</dd>
            <dt>Styles</dt>
            <dd>{picks(c, 'styleIds', c.styles)}</dd>
            <dt>Placement</dt>
            <dd>{picks(c, 'placement', c.placement ? [c.placement] : [])}</dd>
            <dt>Subjects (as tags)</dt>
            <dd>{picks(c, 'tags', c.subjects)}</dd>
            {c.rationale && (
              <>
                <dt>Rationale</dt>
                <dd class="muted">{c.rationale}</dd>
              </>
            )}
          </dl>
        </li>
      ))}
      {p.open && <li class="muted">Ticked labels go into the draft with your approval.</li>}
    </ul>
  );
}
