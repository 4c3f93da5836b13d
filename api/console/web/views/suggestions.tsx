// The machine classifications of a submission (docs/agents.md): who, which model, the labels with
// their confidence and the classifier's rationale. Suggestions for the operator, never decisions;
// the rationale is the classifier's words, shown as text.
import type { Submission } from '../api';
import { words } from '../format';

type Classification = Submission['classifications'][number];
const pct = (c: number) => `${Math.round(c * 100)}%`;
const labels = (xs: { id: string; confidence: number }[]) => (xs.length ? xs.map((x) => `${words(x.id)} ${pct(x.confidence)}`).join(', ') : 'none');

export function Suggestions({ list }: { list: Classification[] }) {
  if (list.length === 0) return <p class="muted">No classifier has looked at this image.</p>;
  return (
    <ul class="suggestions" data-testid="suggestions">
      {list.map((c) => (
        <li key={c.classificationId}>
          <strong>{c.actorId}</strong> <span class="muted">({c.model.name} {c.model.version}, {c.kind})</span>
          <dl class="meta">
            <dt>Content flags</dt>
            <dd data-testid="suggested-flags">{labels([...c.contentFlags].sort((a, b) => b.confidence - a.confidence))}</dd>
            <dt>Styles</dt>
            <dd>{labels(c.styles)}</dd>
            <dt>Placement</dt>
            <dd>{c.placement ? labels([c.placement]) : 'none'}</dd>
            <dt>Subjects</dt>
            <dd>{labels(c.subjects)}</dd>
            {c.rationale && (
              <>
                <dt>Rationale</dt>
                <dd class="muted">{c.rationale}</dd>
              </>
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}
