// The publication plan: asked for (a dry run of the intake API's publish) and shown as lines an operator reads.
import { api, must, type Plan } from '../../api';
import { bytes, words } from '../../format';

export const plan = (documentId: string, artistId: string | undefined) =>
  must(api.POST('/api/private/portfolio-intake/v1/media-documents/{documentId}/publish', { params: { path: { documentId } }, body: { dryRun: true, ...(artistId ? { artistId } : {}) } })).then(
    (r) => r.data as Plan,
  );

/** The plan as lines an operator reads. */
export function PlanLines({ p }: { p: Plan }) {
  return (
    <div class="plan" data-testid="plan">
      <p data-testid="verdict">
        <strong>
          {p.verdict === 'publishable' ? 'Ready to publish.' : p.verdict === 'already_published' ? 'Published.' : 'Cannot be published yet.'}
        </strong>
      </p>
      {p.reasons.length > 0 && (
        <ul class="reasons" data-testid="reasons">
          {p.reasons.map((r) => (
            <li key={r.code}>{r.message}</li>
          ))}
        </ul>
      )}
      <dl class="meta">
        <dt>Postures</dt>
        <dd>
          rights {words(p.postureCheck.rightsPosture)}, consent {words(p.postureCheck.consentPosture)}: {p.postureCheck.verdict === 'pass' ? 'publishable' : 'not publishable'}
        </dd>
        <dt>Public title</dt>
        <dd>{p.asset.title}</dd>
        {p.asset.description && (
          <>
            <dt>Description</dt>
            <dd>{p.asset.description}</dd>
          </>
        )}
        <dt>Artist profile</dt>
        <dd>
          {p.asset.artist_id ?? 'none yet'}
          {p.linksArtistProfile ? ' (publishing links it to this artist)' : ''}
        </dd>
        <dt>Studio</dt>
        <dd>{p.asset.studio_id ?? 'none'}</dd>
        <dt>Placement</dt>
        <dd>{p.asset.placement ? words(p.asset.placement) : 'not given'}</dd>
        <dt>Tags</dt>
        <dd>{p.asset.tags.join(', ') || 'none'}</dd>
        <dt>Styles</dt>
        <dd>{p.asset.styles.join(', ') || 'none'}</dd>
        <dt>Renditions</dt>
        <dd data-testid="renditions">
          {p.renditions.length === 0
            ? 'none'
            : p.renditions.map((r) => (
                <span key={r.name} class="rendition">
                  {p.state === 'published' && <img src={r.url} alt={`${r.name} rendition`} height={64} data-testid="rendition" />}
                  {r.name} {r.width} × {r.height}, {bytes(r.sizeBytes)}
                </span>
              ))}
        </dd>
      </dl>
    </div>
  );
}
