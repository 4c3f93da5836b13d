// An endpoint's latest deliveries, each with Redeliver unless it is being sent now.
import { useEffect, useState } from 'preact/hooks';
import { api, attempt, must, type Delivery, type Endpoint } from '../api';
import { IN_FLIGHT } from '../choices';
import { when } from '../format';
import { Table } from './table';

const COLUMNS = ['Event', 'Submission', 'Status', 'Attempts', 'Last answer', 'Sent', ''];

export function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const [rows, setRows] = useState<Delivery[] | undefined>();
  const [error, setError] = useState('');
  const endpointId = endpoint.endpointId;
  const load = () =>
    attempt(setError, async () => setRows((await must(api.GET('/portal/api/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId }, query: { limit: 20 } } }))).data));
  useEffect(() => void load(), []);
  const again = async (d: Delivery) => {
    await attempt(setError, () => must(api.POST('/portal/api/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver', { params: { path: { endpointId, deliveryId: d.deliveryId } } })));
    await load();
  };
  return (
    <div class="deliveries">
      {error && <p class="error">{error}</p>}
      {rows && rows.length === 0 && <p>Nothing sent yet.</p>}
      {rows && rows.length > 0 && (
        <Table columns={COLUMNS}>
          {rows.map((d) => (
            <tr key={d.deliveryId} data-delivery-id={d.deliveryId}>
              <td>{d.eventType}</td>
              <td>
                <code>{d.submissionId}</code>
              </td>
              <td class="status">{d.status}</td>
              <td>{d.attempts}</td>
              <td>{d.lastStatusCode ?? d.lastError ?? '–'}</td>
              <td>{when(d.createdAt)}</td>
              <td>
                {d.status !== IN_FLIGHT && (
                  <button type="button" class="secondary" onClick={() => again(d)}>
                    Redeliver
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
