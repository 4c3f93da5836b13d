// Identity evidence waiting for an operator: link it to an artist as verified_by_operator (review
// evidence, never legal identity verification).
import { useEffect, useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api';
import { when, words } from '../format';

type Resolution = Schemas['ArtistResolutionReviewPage']['data'][number];

export function Evidence() {
  const [rows, setRows] = useState<Resolution[] | null>(null);
  const [inputs, setInputs] = useState<Record<string, { artist?: string; note?: string }>>({});
  const [message, setMessage] = useState('');
  const load = () => must(api.GET('/api/private/portfolio-intake/v1/artist-resolutions', { params: { query: {} } })).then((r) => setRows(r.data), (err: Error) => setMessage(err.message));
  useEffect(() => void load(), []);
  const input = (id: string, f: 'artist' | 'note') => inputs[id]?.[f];
  const setInput = (id: string, f: 'artist' | 'note', v: string) => setInputs({ ...inputs, [id]: { ...inputs[id], [f]: v } });
  const verify = async (r: Resolution) => {
    setMessage('');
    try {
      await must(
        api.POST('/api/private/portfolio-intake/v1/artist-resolutions/{resolutionId}/verify', {
          params: { path: { resolutionId: r.resolutionId } },
          body: { artistCanonicalId: input(r.resolutionId, 'artist') ?? r.artistCanonicalId ?? '', note: input(r.resolutionId, 'note') ?? '' },
        }),
      );
      await load();
      setMessage('Evidence linked as verified_by_operator (review evidence, not legal identity verification).');
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  if (!rows) return message ? <p class="error" role="alert">{message}</p> : <p class="muted">Loading…</p>;
  return (
    <section data-testid="evidence">
      {message && (
        <p role="status" data-testid="evidence-message">
          {message}
        </p>
      )}
      {rows.length === 0 && <p class="muted">No artist resolutions wait for review.</p>}
      <div class="cards">
        {rows.map((r) => (
          <article class="card" key={r.resolutionId} data-resolution={r.resolutionId}>
            <h3>
              {r.actorId} <span class="muted">for {r.tenantId}</span>
            </h3>
            <p class="muted">
              Asked {when(r.createdAt)}; {words(r.status)}
              {r.artistCanonicalId ? `, candidate ${r.artistCanonicalId}` : ''}
            </p>
            <dl class="meta">
              {Object.entries(r.evidence).map(([k, v]) => (
                <>
                  <dt>{words(k)}</dt>
                  <dd>{v}</dd>
                </>
              ))}
            </dl>
            <label>
              Artist canonical id
              <input name="artist" value={input(r.resolutionId, 'artist') ?? r.artistCanonicalId ?? ''} onInput={(e) => setInput(r.resolutionId, 'artist', (e.target as HTMLInputElement).value)} />
            </label>
            <label>
              How you established it (3 to 2000 characters)
              <textarea name="note" rows={3} value={input(r.resolutionId, 'note') ?? ''} onInput={(e) => setInput(r.resolutionId, 'note', (e.target as HTMLTextAreaElement).value)} />
            </label>
            <p>
              <button class="primary" name="verify" onClick={() => void verify(r)}>
                Verify evidence
              </button>
            </p>
          </article>
        ))}
      </div>
    </section>
  );
}
