// Publishing: a card per promoted draft, with its image, the plan in readable lines (what becomes
// public, the posture check, the reasons for a refusal), the rendition images and their sizes.
// Publish and Unpublish each show what will change and wait for a confirmation; settling a posture
// makes the operator choose the settled value and say how it was established; the runtime artist
// profile is found by name (the directory's own search), with its studio and city.
import { useEffect, useState } from 'preact/hooks';
import { api, must, type Draft } from '../api';
import { DraftCard } from './publishing/draft-card';

export function Published() {
  const [rows, setRows] = useState<Draft[] | null>(null);
  const [filter, setFilter] = useState<'' | Draft['publication']>('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const load = async () => {
    try {
      setRows((await must(api.GET('/console/api/drafts', { params: { query: filter ? { publication: filter } : {} } }))).data);
    } catch (err) {
      setMessage({ text: (err as Error).message, error: true });
    }
  };
  useEffect(() => void load(), [filter]);
  const say = (text: string, error = false) => setMessage({ text, error });
  return (
    <section data-testid="published">
      <div class="filters">
        <label>
          Show
          <select name="publication" value={filter} onChange={(e) => setFilter((e.target as HTMLSelectElement).value as typeof filter)}>
            <option value="">every draft</option>
            <option value="draft">not published yet</option>
            <option value="published">published</option>
            <option value="unpublished">taken down</option>
          </select>
        </label>
      </div>
      {message && (
        <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : ''} data-testid="published-message">
          {message.text}
        </p>
      )}
      {!rows && <p class="muted">Loading…</p>}
      {rows && rows.length === 0 && <p class="muted">No promoted drafts.</p>}
      <div class="cards">
        {rows?.map((d) => (
          <DraftCard key={`${d.documentId}:${d.publication}:${d.rightsPosture}:${d.consentPosture}`} d={d} reload={load} say={say} />
        ))}
      </div>
    </section>
  );
}
