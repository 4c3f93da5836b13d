// Create a key: a name, what it may read (staging only under "Advanced"), an optional expiry.
import { useState } from 'preact/hooks';
import { api, attempt, must, type NewKey, type Permission } from '../api';
import { ADVANCED, READ_LABELS } from '../choices';
import { handoffs } from '../handoffs';
import { Alert } from './confirm';

export function CreateKey({ selectable, onMade }: { selectable: Permission[]; onMade: (k: NewKey) => void }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Permission[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState('');
  const reads = selectable.filter((p) => p !== ADVANCED);
  const toggle = (p: Permission) => setChosen((c) => (c.includes(p) ? c.filter((x) => x !== p) : [...c, p]));
  const submit = async (e: Event) => {
    e.preventDefault();
    await attempt(setError, async () => {
      const body = { name, permissions: chosen, ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}) };
      const made = (await must(api.POST('/portal/api/keys', { body }))).data;
      setError('');
      setName('');
      setChosen([]);
      setExpires('');
      handoffs.put(made.keyId, made.docsHandoff);
      onMade(made);
    });
  };
  return (
    <form class="card create" onSubmit={submit} aria-label="Create a key">
      <h2>Create a key</h2>
      <label for="key-name">Name</label>
      <input id="key-name" value={name} maxLength={100} placeholder="e.g. Booking site" onInput={(e) => setName((e.target as HTMLInputElement).value)} required />
      <fieldset>
        <legend>What it may read</legend>
        {reads.map((p) => (
          <label class="check" key={p}>
            <input type="checkbox" name="permission" value={p} checked={chosen.includes(p)} onChange={() => toggle(p)} /> {READ_LABELS[p] ?? p} <small>({p})</small>
          </label>
        ))}
      </fieldset>
      {selectable.includes(ADVANCED) && (
        <details>
          <summary>Advanced: submit portfolio media</summary>
          <p class="warning">
            A key with <code>{ADVANCED}</code> can submit media for your organization's artists. Give it only to a system you run, never to a browser.
          </p>
          <label class="check">
            <input type="checkbox" name="permission" value={ADVANCED} checked={chosen.includes(ADVANCED)} onChange={() => toggle(ADVANCED)} /> Stage portfolio media
          </label>
        </details>
      )}
      <label for="key-expires">Expires (optional)</label>
      <input id="key-expires" type="datetime-local" value={expires} onInput={(e) => setExpires((e.target as HTMLInputElement).value)} />
      <Alert text={error} />
      <button type="submit" disabled={!name.trim() || chosen.length === 0}>
        Create key
      </button>
    </form>
  );
}
