// One webhook endpoint: its deliveries, Rotate secret and Delete.
import { useState } from 'preact/hooks';
import { api, attempt, must, type Endpoint } from '../api';
import { SECRET_OVERLAPS } from '../choices';
import { when } from '../format';
import { Alert, DangerConfirm, RotateConfirm } from './confirm';
import { Deliveries } from './deliveries';

export function EndpointRow({ e, onChanged, onSecret }: { e: Endpoint; onChanged: () => void; onSecret: (title: string, secret: string) => void }) {
  const [mode, setMode] = useState<'' | 'rotate' | 'delete' | 'deliveries'>('');
  const [overlap, setOverlap] = useState(86_400);
  const [error, setError] = useState('');
  const path = { endpointId: e.endpointId };
  const rotate = () =>
    attempt(setError, async () => {
      const rotated = (await must(api.POST('/portal/api/webhook-endpoints/{endpointId}/rotate-secret', { params: { path }, body: { overlapSeconds: overlap } }))).data;
      setMode('');
      onSecret(`New signing secret for ${e.url}`, rotated.secret);
    });
  const remove = () =>
    attempt(setError, async () => {
      await must(api.DELETE('/portal/api/webhook-endpoints/{endpointId}', { params: { path } }));
      onChanged();
    });
  return (
    <li class="endpoint" data-endpoint-id={e.endpointId}>
      <div>
        <strong>{e.url}</strong> {e.description && <span>· {e.description}</span>}
        <br />
        <small>
          {e.allEventTypes ? 'every event type' : e.eventTypes.join(', ')} · since {when(e.createdAt)}
        </small>
      </div>
      <div class="row-actions">
        <button type="button" class="secondary" onClick={() => setMode(mode === 'deliveries' ? '' : 'deliveries')}>
          {mode === 'deliveries' ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" onClick={() => setMode('rotate')}>
          Rotate secret
        </button>
        <button type="button" class="danger" onClick={() => setMode('delete')}>
          Delete
        </button>
      </div>
      {mode === 'rotate' && (
        <RotateConfirm
          id={`secret-overlap-${e.endpointId}`}
          label="Old secret keeps signing for"
          options={SECRET_OVERLAPS}
          value={overlap}
          onChange={setOverlap}
          onConfirm={rotate}
          onCancel={() => setMode('')}
        />
      )}
      {mode === 'delete' && (
        <DangerConfirm text="Delete this endpoint? Nothing more is sent to it, and its open deliveries are cancelled." action="Delete now" onConfirm={remove} onCancel={() => setMode('')} />
      )}
      {mode === 'deliveries' && <Deliveries endpoint={e} />}
      <Alert text={error} />
    </li>
  );
}
