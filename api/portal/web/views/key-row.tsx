// One key in the table: what it is, and Rotate (a key the portal could have made), Revoke and "Try it in the docs" while it is usable.
import { useState } from 'preact/hooks';
import { api, attempt, must, type Key, type KeyOverlapSeconds, type NewKey } from '../api';
import { KEY_OVERLAPS, USABLE } from '../choices';
import { when } from '../format';
import { handoffs, tryInDocs } from '../handoffs';
import { Alert, DangerConfirm, RotateConfirm } from './confirm';

const Scopes = ({ scopes }: { scopes: Key['scopes'] }) =>
  scopes.studios.length === 0 && scopes.artists.length === 0 ? (
    <small>no limit</small>
  ) : (
    <>
      {scopes.studios.length > 0 && <div>studios: {scopes.studios.join(', ')}</div>}
      {scopes.artists.length > 0 && <div>artists: {scopes.artists.join(', ')}</div>}
    </>
  );

export function KeyRow({ k, onChanged, onMade }: { k: Key; onChanged: () => void; onMade: (k: NewKey) => void }) {
  const [mode, setMode] = useState<'' | 'rotate' | 'revoke'>('');
  const [overlap, setOverlap] = useState<KeyOverlapSeconds>(3600);
  const [error, setError] = useState('');
  const handoff = handoffs.get(k.keyId);
  const path = { keyId: k.keyId };
  const rotate = () =>
    attempt(setError, async () => {
      const made = (await must(api.POST('/portal/api/keys/{keyId}/rotate', { params: { path }, body: { overlapSeconds: overlap } }))).data;
      handoffs.put(made.keyId, made.docsHandoff);
      setMode('');
      onMade(made);
    });
  const revoke = () =>
    attempt(setError, async () => {
      await must(api.POST('/portal/api/keys/{keyId}/revoke', { params: { path } }));
      setMode('');
      onChanged();
    });
  return (
    <tr data-key-id={k.keyId} class={`status-${k.status}`}>
      <td>{k.name}</td>
      <td>
        <code>{k.prefix}</code>
      </td>
      <td>{k.permissions.join(', ')}</td>
      <td class="scopes">
        <Scopes scopes={k.scopes} />
      </td>
      <td>
        {when(k.createdAt)}
        {k.createdBy && <small> by {k.createdBy}</small>}
      </td>
      <td>{when(k.lastUsedAt)}</td>
      <td>{when(k.expiresAt)}</td>
      <td class="status">{k.status}</td>
      <td class="row-actions">
        {USABLE.includes(k.status) && mode === '' && (
          <>
            {!k.replacedBy && k.rotatable && (
              <button type="button" onClick={() => setMode('rotate')}>
                Rotate
              </button>
            )}
            {!k.replacedBy && !k.rotatable && <small class="note">rotated by an operator</small>}
            <button type="button" class="danger" onClick={() => setMode('revoke')}>
              Revoke
            </button>
            {handoff && (
              <button type="button" onClick={() => tryInDocs(handoff, setError)}>
                Try it in the docs
              </button>
            )}
          </>
        )}
        {mode === 'rotate' && (
          <RotateConfirm id={`overlap-${k.keyId}`} label="Old key keeps working for" options={KEY_OVERLAPS} value={overlap} onChange={setOverlap} onConfirm={rotate} onCancel={() => setMode('')} />
        )}
        {mode === 'revoke' && <DangerConfirm text={`Revoke "${k.name}"? Every request with it gets 401 from now on.`} action="Revoke now" onConfirm={revoke} onCancel={() => setMode('')} />}
        <Alert text={error} />
      </td>
    </tr>
  );
}
