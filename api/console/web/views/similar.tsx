// The similar images of a submission, side by side: preview, whose, status; each opens in the console.
import { previewUrl, type Match } from '../api';
import { linkTo } from '../router';
import { words } from '../format';

export function Similar({ matches }: { matches: Match[] }) {
  if (matches.length === 0)
    return (
      <p class="muted" data-testid="no-matches">
        No similar images.
      </p>
    );
  const src = (m: Match) => (m.kind === 'published_asset' && m.previewUrl ? m.previewUrl : previewUrl(m.submissionId, 'thumb'));
  return (
    <ul class="matches" data-testid="matches">
      {matches.map((m) => (
        <li key={m.id} class={m.flagged ? 'claim' : ''} data-match={m.id}>
          <img src={src(m)} alt={`similar image ${m.id}`} width={96} height={96} />
          <span>
            {words(m.kind)} <code>{m.id}</code>: {words(m.status)}; artist {m.artistCanonicalId}, organization {m.partnerOrganizationId ?? 'unknown'};{' '}
            {m.sameBytes ? 'the same bytes' : `${m.distance} bits apart`}
            {m.flagged ? " (another artist's work)" : ''} <a {...linkTo({ name: 'submission', id: m.submissionId })}>Open</a>
          </span>
        </li>
      ))}
    </ul>
  );
}
