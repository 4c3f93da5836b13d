// The queue: what waits for review, oldest first. j/k move, Enter opens the row highlighted when it
// is pressed (the highlight lives in a ref as well as in state, so a key pressed in the same instant
// as j cannot act on the row before it), n/p page.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, must, previewUrl, type QueueItem, type Schemas } from '../api';
import { age, bytes, upright, words } from '../format';
import { go, linkTo } from '../router';

type Page = Schemas['ConsoleQueue'];

export function ArtistOrgs({ s }: { s: Pick<QueueItem, 'artistOrganizations' | 'partnerOrganizationId'> }) {
  const orgs = s.artistOrganizations;
  if (orgs.length === 0) return <span class="muted">artist of no organization</span>;
  const foreign = s.partnerOrganizationId !== null && !orgs.includes(s.partnerOrganizationId);
  return (
    <span class={foreign ? 'claim' : 'muted'} data-testid="artist-orgs">
      artist of {orgs.join(', ')}
      {foreign ? " (not the partner's organization)" : ''}
    </span>
  );
}

/** Whether the artist has a runtime profile, read from its profile link. */
export function ProfileFlag({ s }: { s: Pick<QueueItem, 'artistHasProfile' | 'artistProfileId' | 'artistCanonicalId'> }) {
  if (!s.artistHasProfile) return <span class="muted nowrap" data-testid="profile-flag">no runtime profile</span>;
  return (
    <span class="muted nowrap" data-testid="profile-flag">
      profile {s.artistProfileId === s.artistCanonicalId ? 'listed' : <code>{s.artistProfileId}</code>}
    </span>
  );
}

export function Queue() {
  const [filters, setFilters] = useState({ tenantId: '', partner: '', minAgeMinutes: '' });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);
  const [error, setError] = useState('');
  const [selected, setSelectedState] = useState(0);
  const selectedRef = useRef(0);
  const rowsRef = useRef<QueueItem[]>([]);
  const setSelected = (i: number) => {
    selectedRef.current = i;
    setSelectedState(i);
  };
  const load = useCallback(async () => {
    const query = {
      page,
      limit: 50,
      ...(filters.tenantId ? { tenantId: filters.tenantId } : {}),
      ...(filters.partner ? { partner: filters.partner } : {}),
      ...(filters.minAgeMinutes ? { minAgeMinutes: Number(filters.minAgeMinutes) } : {}),
    };
    try {
      const d = await must(api.GET('/console/api/queue', { params: { query } }));
      rowsRef.current = d.data;
      if (selectedRef.current >= d.data.length) setSelected(Math.max(0, d.data.length - 1));
      setData(d);
      setError('');
    } catch (err) {
      setError((err as Error).message);
    }
  }, [page, filters]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || e.metaKey || e.ctrlKey || e.altKey) return;
      const rows = rowsRef.current;
      if (e.key === 'j') setSelected(Math.min(selectedRef.current + 1, rows.length - 1));
      else if (e.key === 'k') setSelected(Math.max(selectedRef.current - 1, 0));
      else if (e.key === 'Enter' && rows[selectedRef.current]) {
        e.preventDefault();
        go({ name: 'submission', id: rows[selectedRef.current]!.submissionId });
      } else if (e.key === 'n' && data && page < data.pagination.totalPages) setPage(page + 1);
      else if (e.key === 'p' && page > 1) setPage(page - 1);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [data, page]);
  useEffect(() => {
    document.querySelector('tr.selected')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const field = (name: keyof typeof filters, label: string, type = 'text') => (
    <label>
      {label}
      <input
        type={type}
        name={name}
        value={filters[name]}
        onChange={(e) => {
          setPage(1);
          setFilters({ ...filters, [name]: (e.target as HTMLInputElement).value });
        }}
      />
    </label>
  );
  return (
    <section>
      <div class="filters">
        {field('tenantId', 'Tenant')} {field('partner', 'Partner (actor or organization)')} {field('minAgeMinutes', 'Waiting at least (minutes)', 'number')}
        <span class="muted">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> open, <kbd>n</kbd>/<kbd>p</kbd> page
        </span>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {data && (
        <>
          <p class="muted" data-testid="queue-total">
            {data.pagination.total} awaiting review, oldest first; page {data.pagination.page} of {Math.max(1, data.pagination.totalPages)}
          </p>
          <table class="queue" data-testid="queue">
            <thead>
              <tr>
                <th></th>
                <th>File / title</th>
                <th>Partner</th>
                <th>Tenant</th>
                <th>Artist</th>
                <th>Rights / consent</th>
                <th>Size</th>
                <th>Dimensions</th>
                <th>Waiting</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((s, i) => (
                <tr key={s.submissionId} class={i === selected ? 'selected' : ''} data-submission={s.submissionId} onClick={() => go({ name: 'submission', id: s.submissionId })}>
                  <td>
                    <img src={previewUrl(s.submissionId, 'thumb')} alt={`thumbnail of ${s.fileName}`} width={64} height={64} />
                  </td>
                  <td>
                    <a {...linkTo({ name: 'submission', id: s.submissionId })}>
                      <strong>{s.fileName}</strong>
                    </a>
                    <br />
                    <span class="muted">{s.title ?? ''}</span>
                  </td>
                  <td>
                    {s.partnerActorId}
                    <br />
                    <span class="muted">{s.partnerOrganizationId ?? ''}</span>
                  </td>
                  <td>{s.tenantId}</td>
                  <td>
                    {s.artistCanonicalId}
                    <br />
                    <span class="muted">{words(s.artistEvidence)}</span>, <ProfileFlag s={s} />
                    <br />
                    <ArtistOrgs s={s} />
                    {s.contentFlags.length > 0 && (
                      <>
                        <br />
                        <span class="claim" data-testid="content-flags" title="machine suggestions, not decisions">
                          flagged: {[...new Set(s.contentFlags.map((f) => words(f.id)))].join(', ')}
                        </span>
                      </>
                    )}
                    {s.secondReview && (
                      <>
                        <br />
                        <span class="claim" data-testid="second-review-flag" title={s.secondReview.reasons.join(', ')}>
                          second review: approved first by {s.secondReview.firstApprovedBy}
                        </span>
                      </>
                    )}
                    {s.similarFlag && (
                      <>
                        <br />
                        <span class="claim" data-testid="similar-flag">
                          similar to another artist's work
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    {words(s.rightsPosture)}
                    <br />
                    {words(s.consentPosture)}
                  </td>
                  <td class="nowrap">{bytes(s.sizeBytes)}</td>
                  <td class="nowrap">{upright(s)}</td>
                  <td class="nowrap">{age(s.ageSeconds)}</td>
                  <td>{s.claimedBy && <span class="claim">in review by {s.claimedBy}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>{' '}
            <button disabled={page >= data.pagination.totalPages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </p>
        </>
      )}
    </section>
  );
}
