// The organization's webhook endpoints: register one (its secret shown once), and each endpoint's row.
import { useEffect, useState } from 'preact/hooks';
import { api, attempt, must, type Endpoint } from '../api';
import { Alert } from './confirm';
import { EndpointRow } from './endpoint-row';
import { OnceSecret } from './once-secret';

export function Webhooks() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | undefined>();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<{ title: string; secret: string } | undefined>();
  const [error, setError] = useState('');
  const load = () => attempt(setError, async () => setEndpoints((await must(api.GET('/portal/api/webhook-endpoints'))).data));
  useEffect(() => void load(), []);
  const register = async (ev: Event) => {
    ev.preventDefault();
    await attempt(setError, async () => {
      const body = { url: url.trim(), ...(description.trim() ? { description: description.trim() } : {}) };
      const made = (await must(api.POST('/portal/api/webhook-endpoints', { body }))).data;
      setError('');
      setUrl('');
      setDescription('');
      setSecret({ title: `Endpoint registered: ${made.url}`, secret: made.secret });
      await load();
    });
  };
  return (
    <section class="card" aria-label="Webhooks">
      <h2>Webhooks</h2>
      {secret && <OnceSecret title={secret.title} secret={secret.secret} onDone={() => setSecret(undefined)} />}
      <form onSubmit={register} aria-label="Register a webhook endpoint">
        <label for="webhook-url">Receiver URL</label>
        <input id="webhook-url" value={url} placeholder="https://example.com/hooks/tattoo" onInput={(e) => setUrl((e.target as HTMLInputElement).value)} required />
        <label for="webhook-description">Description (optional)</label>
        <input id="webhook-description" value={description} maxLength={500} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={!url.trim()}>
          Register endpoint
        </button>
      </form>
      <Alert text={error} />
      {endpoints && endpoints.length === 0 && <p>No endpoints yet.</p>}
      {endpoints && endpoints.length > 0 && (
        <ul class="endpoints">
          {endpoints.map((e) => (
            <EndpointRow e={e} key={e.endpointId} onChanged={load} onSecret={(title, s) => setSecret({ title, secret: s })} />
          ))}
        </ul>
      )}
    </section>
  );
}
