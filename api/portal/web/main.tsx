// The partner portal's page (issue 24): sign in, see the organization's keys, create, rotate and
// revoke them, and hand a new key to the docs ("Try it in the docs"). Preact, typed, bundled by
// esbuild (scripts/build.ts; the API builds it in memory outside production). It talks only to
// /portal/api (the route list), sending X-Portal-CSRF on every write.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { NewPortalKey, PortalDelivery, PortalEndpoint, PortalKey, PortalMe } from '../../../lib/portal/types';

interface Reply<T> {
  status: number;
  body: { success: boolean; data: T; code?: string; detail?: string; errors?: { path: string; message: string }[]; selectablePermissions?: string[] };
}

let csrf = '';

async function api<T>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['x-portal-csrf'] = csrf;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Reply<T>['body']) : ({ success: res.ok } as Reply<T>['body']) };
}

/** A problem in plain words: the field constraints when there are some, else the detail. */
function problemText(r: Reply<unknown>): string {
  if (r.body.errors?.length) return r.body.errors.map((e) => `${e.path.replace(/^body\./, '')}: ${e.message}`).join('; ');
  return r.body.detail ?? `The request failed (${r.status}).`;
}

const OVERLAPS: { seconds: number; label: string }[] = [
  { seconds: 0, label: 'none: the old key stops now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
];
const ADVANCED = 'portfolio_intake:stage';
const READ_LABELS: Record<string, string> = {
  'studios:read': 'Studios',
  'artists:read': 'Artists',
  'search:read': 'Search',
  'portfolios:read': 'Portfolios',
  'designs:read': 'Designs',
};

/** A time with its timezone (dateStyle/timeStyle cannot be combined with timeZoneName: V8 throws). */
const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }) : '–';

/** Handoffs of keys made in this browser, so a row can offer "Try it in the docs" until it expires. */
const handoffs = {
  get(keyId: string): { token: string; expiresAt: string } | undefined {
    try {
      const h = JSON.parse(localStorage.getItem(`portal-handoff:${keyId}`) ?? 'null') as { token: string; expiresAt: string } | null;
      return h && Date.parse(h.expiresAt) > Date.now() ? h : undefined;
    } catch {
      return undefined;
    }
  },
  put(keyId: string, h: { token: string; expiresAt: string }) {
    localStorage.setItem(`portal-handoff:${keyId}`, JSON.stringify(h));
  },
};

async function tryInDocs(handoff: { token: string }, onError: (msg: string) => void) {
  const r = await api<null>('POST', '/portal/api/docs-handoff', { handoff: handoff.token });
  if (r.status === 204) window.location.assign('/docs');
  else onError(problemText(r));
}

function SignIn({ onSignedIn }: { onSignedIn: (me: PortalMe) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(new URLSearchParams(location.search).get('signin') === 'expired' ? 'That sign-in link was used already or has expired: ask for a new one.' : '');
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await api<PortalMe>('POST', '/portal/api/session', { token: token.trim() });
    if (r.status === 201) onSignedIn(r.body.data);
    else setError(problemText(r));
  };
  return (
    <form class="card signin" onSubmit={submit}>
      <h2>Sign in</h2>
      <p>Paste the access token your identity provider gave you, or open the one-time link we sent you.</p>
      <label for="token">Access token</label>
      <textarea id="token" rows={4} value={token} onInput={(e) => setToken((e.target as HTMLTextAreaElement).value)} required />
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit">Sign in</button>
    </form>
  );
}

function NewKey({ made, onDone }: { made: NewPortalKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState('');
  return (
    <section class="card new-key" aria-label="New key">
      <h2>{made.previousKeyId ? 'Key rotated' : 'Key created'}: {made.name}</h2>
      <p>This is the only time the key is shown. Store it in your secret manager now.</p>
      <code id="new-key-value">{made.key}</code>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(made.key).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={() => tryInDocs(made.docsHandoff, setError)}>
          Try it in the docs
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
      {made.previousExpiresAt && <p>The old key works until {when(made.previousExpiresAt)}.</p>}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}

function CreateKey({ selectable, onMade }: { selectable: string[]; onMade: (k: NewPortalKey) => void }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState('');
  const reads = selectable.filter((p) => p !== ADVANCED);
  const toggle = (p: string) => setChosen((c) => (c.includes(p) ? c.filter((x) => x !== p) : [...c, p]));
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await api<NewPortalKey>('POST', '/portal/api/keys', { name, permissions: chosen, ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}) });
    if (r.status !== 201) return setError(problemText(r));
    setError('');
    setName('');
    setChosen([]);
    setExpires('');
    handoffs.put(r.body.data.keyId, r.body.data.docsHandoff);
    onMade(r.body.data);
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
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" disabled={!name.trim() || chosen.length === 0}>
        Create key
      </button>
    </form>
  );
}

/** Rotate a key or a secret: how long the old one keeps working, then confirm. */
function RotateConfirm(p: {
  id: string;
  label: string;
  options: { seconds: number; label: string }[];
  value: number;
  onChange: (seconds: number) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div class="confirm">
      <label for={p.id}>{p.label}</label>
      <select id={p.id} value={p.value} onChange={(e) => p.onChange(Number((e.target as HTMLSelectElement).value))}>
        {p.options.map((o) => (
          <option value={o.seconds} key={o.seconds}>
            {o.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={p.onConfirm}>
        Rotate now
      </button>
      <button type="button" class="secondary" onClick={p.onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A destructive action, said in words and confirmed. */
function DangerConfirm(p: { text: string; action: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div class="confirm">
      <span>{p.text}</span>
      <button type="button" class="danger" onClick={p.onConfirm}>
        {p.action}
      </button>
      <button type="button" class="secondary" onClick={p.onCancel}>
        Cancel
      </button>
    </div>
  );
}

function KeyRow({ k, onChanged, onMade }: { k: PortalKey; onChanged: () => void; onMade: (k: NewPortalKey) => void }) {
  const [mode, setMode] = useState<'' | 'rotate' | 'revoke'>('');
  const [overlap, setOverlap] = useState(3600);
  const [error, setError] = useState('');
  const usable = k.status === 'active' || k.status === 'expiring';
  const handoff = handoffs.get(k.keyId);
  const rotate = async () => {
    const r = await api<NewPortalKey>('POST', `/portal/api/keys/${k.keyId}/rotate`, { overlapSeconds: overlap });
    if (r.status !== 200) return setError(problemText(r));
    handoffs.put(r.body.data.keyId, r.body.data.docsHandoff);
    setMode('');
    onMade(r.body.data);
  };
  const revoke = async () => {
    const r = await api<PortalKey>('POST', `/portal/api/keys/${k.keyId}/revoke`);
    if (r.status !== 200) return setError(problemText(r));
    setMode('');
    onChanged();
  };
  return (
    <tr data-key-id={k.keyId} class={`status-${k.status}`}>
      <td>{k.name}</td>
      <td>
        <code>{k.prefix}</code>
      </td>
      <td>{k.permissions.join(', ')}</td>
      <td class="scopes">
        {k.scopes.studios.length === 0 && k.scopes.artists.length === 0 ? (
          <small>no limit</small>
        ) : (
          <>
            {k.scopes.studios.length > 0 && <div>studios: {k.scopes.studios.join(', ')}</div>}
            {k.scopes.artists.length > 0 && <div>artists: {k.scopes.artists.join(', ')}</div>}
          </>
        )}
      </td>
      <td>
        {when(k.createdAt)}
        {k.createdBy && <small> by {k.createdBy}</small>}
      </td>
      <td>{when(k.lastUsedAt)}</td>
      <td>{when(k.expiresAt)}</td>
      <td class="status">{k.status}</td>
      <td class="row-actions">
        {usable && mode === '' && (
          <>
            {!k.replacedBy && (
              <button type="button" onClick={() => setMode('rotate')}>
                Rotate
              </button>
            )}
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
          <RotateConfirm id={`overlap-${k.keyId}`} label="Old key keeps working for" options={OVERLAPS} value={overlap} onChange={setOverlap} onConfirm={rotate} onCancel={() => setMode('')} />
        )}
        {mode === 'revoke' && <DangerConfirm text={`Revoke "${k.name}"? Every request with it gets 401 from now on.`} action="Revoke now" onConfirm={revoke} onCancel={() => setMode('')} />}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}

function Keys() {
  const [keys, setKeys] = useState<PortalKey[] | undefined>();
  const [selectable, setSelectable] = useState<string[]>([]);
  const [made, setMade] = useState<NewPortalKey | undefined>();
  const [error, setError] = useState('');
  const load = async () => {
    const r = await api<PortalKey[]>('GET', '/portal/api/keys');
    if (r.status !== 200) return setError(problemText(r));
    setKeys(r.body.data);
    setSelectable(r.body.selectablePermissions ?? []);
  };
  useEffect(() => void load(), []);
  const onMade = (k: NewPortalKey) => {
    setMade(k);
    void load();
  };
  return (
    <>
      {made && <NewKey made={made} onDone={() => setMade(undefined)} />}
      <CreateKey selectable={selectable} onMade={onMade} />
      <section class="card">
        <h2>Your organization's keys</h2>
        {error && <p class="error">{error}</p>}
        {keys && keys.length === 0 && <p>No keys yet.</p>}
        {keys && keys.length > 0 && (
          <table class="keys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Permissions</th>
                <th>Scopes</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Expires</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <KeyRow k={k} key={k.keyId} onChanged={load} onMade={onMade} />
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

const SECRET_OVERLAPS = OVERLAPS.map((o) => ({ ...o, label: o.seconds === 0 ? 'none: the old secret stops now' : o.label }));
const WEBHOOKS = '/portal/api/webhook-endpoints';

/** A secret shown once (a new endpoint's, or a rotated one), with Copy. */
function OnceSecret({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section class="card new-key" aria-label="Signing secret">
      <h2>{title}</h2>
      <p>The signing secret is shown this once. Your receiver verifies every delivery with it (Standard Webhooks).</p>
      <code class="secret">{secret}</code>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}

function Deliveries({ endpoint }: { endpoint: PortalEndpoint }) {
  const [rows, setRows] = useState<PortalDelivery[] | undefined>();
  const [error, setError] = useState('');
  const load = async () => {
    const r = await api<PortalDelivery[]>('GET', `${WEBHOOKS}/${endpoint.endpointId}/deliveries?limit=20`);
    if (r.status === 200) setRows(r.body.data);
    else setError(problemText(r));
  };
  useEffect(() => void load(), []);
  const again = async (d: PortalDelivery) => {
    const r = await api('POST', `${WEBHOOKS}/${endpoint.endpointId}/deliveries/${d.deliveryId}/redeliver`);
    if (r.status !== 202) setError(problemText(r));
    await load();
  };
  return (
    <div class="deliveries">
      {error && <p class="error">{error}</p>}
      {rows && rows.length === 0 && <p>Nothing sent yet.</p>}
      {rows && rows.length > 0 && (
        <table class="keys">
          <thead>
            <tr>
              <th>Event</th>
              <th>Submission</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last answer</th>
              <th>Sent</th>
              <th />
            </tr>
          </thead>
          <tbody>
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
                  {d.status !== 'delivering' && (
                    <button type="button" class="secondary" onClick={() => again(d)}>
                      Redeliver
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function EndpointRow({ e, onChanged, onSecret }: { e: PortalEndpoint; onChanged: () => void; onSecret: (title: string, secret: string) => void }) {
  const [mode, setMode] = useState<'' | 'rotate' | 'delete' | 'deliveries'>('');
  const [overlap, setOverlap] = useState(86_400);
  const [error, setError] = useState('');
  const rotate = async () => {
    const r = await api<{ secret: string }>('POST', `${WEBHOOKS}/${e.endpointId}/rotate-secret`, { overlapSeconds: overlap });
    if (r.status !== 200) return setError(problemText(r));
    setMode('');
    onSecret(`New signing secret for ${e.url}`, r.body.data.secret);
  };
  const remove = async () => {
    const r = await api('DELETE', `${WEBHOOKS}/${e.endpointId}`);
    if (r.status !== 204) return setError(problemText(r));
    onChanged();
  };
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
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

function Webhooks() {
  const [endpoints, setEndpoints] = useState<PortalEndpoint[] | undefined>();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<{ title: string; secret: string } | undefined>();
  const [error, setError] = useState('');
  const load = async () => {
    const r = await api<PortalEndpoint[]>('GET', WEBHOOKS);
    if (r.status === 200) setEndpoints(r.body.data);
    else setError(problemText(r));
  };
  useEffect(() => void load(), []);
  const register = async (ev: Event) => {
    ev.preventDefault();
    const r = await api<PortalEndpoint & { secret: string }>('POST', WEBHOOKS, { url: url.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
    if (r.status !== 201) return setError(problemText(r));
    setError('');
    setUrl('');
    setDescription('');
    setSecret({ title: `Endpoint registered: ${r.body.data.url}`, secret: r.body.data.secret });
    await load();
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
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
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

function App() {
  const [me, setMe] = useState<PortalMe | null | undefined>(undefined);
  useEffect(() => {
    void api<PortalMe>('GET', '/portal/api/me').then((r) => {
      if (r.status === 200) {
        csrf = r.body.data.csrfToken;
        setMe(r.body.data);
      } else setMe(null);
    });
  }, []);
  const signedIn = (m: PortalMe) => {
    csrf = m.csrfToken;
    history.replaceState(null, '', '/portal');
    setMe(m);
  };
  const signOut = async () => {
    await api('DELETE', '/portal/api/session');
    csrf = '';
    setMe(null);
  };
  return (
    <>
      <header>
        <h1>Partner portal</h1>
        {me && (
          <div class="who">
            <span>
              {me.subject} · <strong>{me.organizationId}</strong>
            </span>
            <button type="button" class="secondary" onClick={signOut}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main>
        {me === undefined && <p>Loading…</p>}
        {me === null && <SignIn onSignedIn={signedIn} />}
        {me && <Keys />}
        {me && <Webhooks />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
