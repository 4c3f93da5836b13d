// Finding the runtime artist profile to publish under, by name (the directory's own search).
import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../../api';

export type Profile = Schemas['ConsoleArtistProfiles']['data'][number];

export function ArtistLookup({ onPick }: { onPick: (p: Profile) => void }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<Profile[] | null>(null);
  const [error, setError] = useState('');
  const find = async () => {
    setError('');
    try {
      setFound((await must(api.GET('/console/api/artist-profiles', { params: { query: { q } } }))).data);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div class="lookup">
      <label>
        Find the artist's profile by name
        <span class="row">
          <input name="artistLookup" value={q} onInput={(e) => setQ((e.target as HTMLInputElement).value)} onKeyDown={(e) => e.key === 'Enter' && void find()} />
          <button type="button" name="find" onClick={() => void find()}>
            Find
          </button>
        </span>
      </label>
      {error && <p class="error">{error}</p>}
      {found && found.length === 0 && <p class="muted">No artist profile by that name.</p>}
      {found && found.length > 0 && (
        <ul class="found" data-testid="artist-matches">
          {found.map((p) => (
            <li key={p.id}>
              <button type="button" name="pick" data-artist={p.id} onClick={() => onPick(p)}>
                {p.name}
              </button>{' '}
              <span class="muted">
                {p.studioName ?? 'no studio'}, {[p.city, p.country].filter(Boolean).join(', ') || 'no city'} · <code>{p.id}</code>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
