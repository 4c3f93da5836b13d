// The review console: htm + Preact (one ES module from npm, served by the API; no build step, no
// CDN). Talks only to /console/api with the session cookie and the CSRF token /console/api/me gives.
import { html, render, useState, useEffect, useRef, useCallback } from './htm-preact.js';

let csrf = '';

async function call(method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(method !== 'GET' ? { 'x-console-csrf': csrf } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const err = new Error(json?.detail ?? `${res.status}`);
    err.status = res.status;
    err.code = json?.code;
    throw err;
  }
  return json;
}

const age = (seconds) => {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
};
const kib = (b) => (b >= 1048576 ? `${(b / 1048576).toFixed(1)} MiB` : `${Math.ceil(b / 1024)} KiB`);
/** The artist's organizations beside the partner's: a partner staging for another organization's artist stands out. */
const artistOrgs = (s) => {
  const orgs = s.artistOrganizations ?? [];
  if (orgs.length === 0) return html`<span class="muted">artist of no organization</span>`;
  const foreign = s.partnerOrganizationId && !orgs.includes(s.partnerOrganizationId);
  return html`<span class=${foreign ? 'claim' : 'muted'} data-testid="artist-orgs">artist of ${orgs.join(', ')}${foreign ? ' (not the partner\'s organization)' : ''}</span>`;
};
/** The image matches another artist's published or pending work (similar images): advice, not a refusal. */
const similarFlag = (s) => s.similarFlag && html`<br /><span class="claim" data-testid="similar-flag">similar to another artist's work</span>`;
const preview = (id, size) => `/console/api/submissions/${encodeURIComponent(id)}/preview?size=${size}`;

function SignIn({ onSignedIn }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(new URLSearchParams(location.search).get('signin') === 'expired' ? 'That sign-in link was used or has expired: ask `npm start` for a new one, or paste your token.' : '');
  const submit = async (e) => {
    e.preventDefault();
    try {
      await call('POST', '/console/api/session', { token: token.trim() });
      onSignedIn();
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<form class="signin" onSubmit=${submit} data-testid="signin">
    <h1>Review console</h1>
    <p>Sign in with your operator bearer token (with an external identity provider, your provider's access token).
    On the embedded stack, <code>npm start</code> prints a one-time sign-in link.</p>
    <textarea aria-label="Operator token" value=${token} onInput=${(e) => setToken(e.target.value)}></textarea>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <p><button class="primary" type="submit">Sign in</button></p>
  </form>`;
}

function Queue({ open }) {
  const [filters, setFilters] = useState({ tenantId: '', partner: '', minAgeMinutes: '' });
  const [page, setPage] = useState(1);
  const [data, setData] = useState(null);
  const [error, setError] = useState('');
  const [selected, setSelected] = useState(0);
  const load = useCallback(async () => {
    const q = new URLSearchParams({ page: String(page), limit: '50' });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    try {
      setData(await call('GET', `/console/api/queue?${q}`));
      setError('');
    } catch (err) {
      setError(err.message);
    }
  }, [page, filters]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    const onKey = (e) => {
      if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA' || !data) return;
      if (e.key === 'j') setSelected((s) => Math.min(s + 1, data.data.length - 1));
      if (e.key === 'k') setSelected((s) => Math.max(s - 1, 0));
      if (e.key === 'Enter' && data.data[selected]) open(data.data[selected].submissionId);
      if (e.key === 'n' && page < data.pagination.totalPages) setPage(page + 1);
      if (e.key === 'p' && page > 1) setPage(page - 1);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [data, selected, page]);
  const field = (name, label, type = 'text') => html`<label>${label}<input type=${type} name=${name} value=${filters[name]}
    onChange=${(e) => { setPage(1); setFilters({ ...filters, [name]: e.target.value }); }} /></label>`;
  return html`<section>
    <div class="filters">${field('tenantId', 'Tenant')} ${field('partner', 'Partner (actor or organization)')} ${field('minAgeMinutes', 'Waiting at least (min)', 'number')}
      <span class="muted">Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> open, <kbd>n</kbd>/<kbd>p</kbd> page</span></div>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${data && html`<p class="muted" data-testid="queue-total">${data.pagination.total} awaiting review, oldest first; page ${data.pagination.page} of ${Math.max(1, data.pagination.totalPages)}</p>
    <table class="queue" data-testid="queue">
      <thead><tr><th></th><th>File / title</th><th>Partner</th><th>Tenant</th><th>Artist</th><th>Rights / consent</th><th>Size</th><th>Dimensions</th><th>Waiting</th><th></th></tr></thead>
      <tbody>${data.data.map((s, i) => html`<tr key=${s.submissionId} class=${i === selected ? 'selected' : ''} data-submission=${s.submissionId} onClick=${() => open(s.submissionId)}>
        <td><img src=${preview(s.submissionId, 'thumb')} alt=${`thumbnail of ${s.fileName}`} width="64" height="64" /></td>
        <td><strong>${s.fileName}</strong><br /><span class="muted">${s.title ?? ''}</span></td>
        <td>${s.partnerActorId}<br /><span class="muted">${s.partnerOrganizationId ?? ''}</span></td>
        <td>${s.tenantId}</td>
        <td>${s.artistCanonicalId}<br /><span class="muted">${s.artistEvidence}${s.artistHasProfile ? '' : ', no runtime profile'}</span><br />${artistOrgs(s)}${similarFlag(s)}</td>
        <td>${s.rightsPosture}<br />${s.consentPosture}</td>
        <td>${kib(s.sizeBytes)}</td>
        <td>${s.width && s.height ? `${s.width} × ${s.height}` : ''}</td>
        <td>${age(s.ageSeconds)}</td>
        <td>${s.claimedBy && html`<span class="claim">in review by ${s.claimedBy}</span>`}</td>
      </tr>`)}</tbody>
    </table>
    <p><button disabled=${page <= 1} onClick=${() => setPage(page - 1)}>Previous</button> <button disabled=${page >= data.pagination.totalPages} onClick=${() => setPage(page + 1)}>Next</button></p>`}
  </section>`;
}

const REASONS = ['rights_unclear', 'consent_missing', 'quality_insufficient', 'content_policy', 'duplicate', 'other'];

/** The similar images of a submission, side by side: preview, whose, status; each opens in the console. */
function Matches({ matches, open }) {
  if (matches.length === 0) return html`<p class="muted" data-testid="no-matches">No similar images.</p>`;
  const src = (m) => (m.kind === 'published_asset' && m.previewUrl ? m.previewUrl : preview(m.submissionId, 'thumb'));
  return html`<ul class="matches" data-testid="matches">${matches.map((m) => html`<li key=${m.id} class=${m.flagged ? 'claim' : ''} data-match=${m.id}>
    <img src=${src(m)} alt=${`similar image ${m.id}`} width="96" height="96" />
    <span>${m.kind.replace('_', ' ')} <code>${m.id}</code>: ${m.status}; artist ${m.artistCanonicalId}, organization ${m.partnerOrganizationId ?? '?'};
      ${m.sameBytes ? 'the same bytes' : `${m.distance} bits apart`}${m.flagged ? ' (another artist\'s work)' : ''}
      <button type="button" onClick=${() => open(m.submissionId)}>Open</button></span>
  </li>`)}</ul>`;
}

function Detail({ id, me, back, open: openOther }) {
  const [d, setD] = useState(null);
  const [matches, setMatches] = useState([]);
  const [acknowledged, setAcknowledged] = useState(false);
  const [claimState, setClaim] = useState(null);
  const [notes, setNotes] = useState('');
  const [reason, setReason] = useState('rights_unclear');
  const [result, setResult] = useState(null);
  const [error, setError] = useState('');
  const notesRef = useRef(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const c = await call('POST', `/console/api/submissions/${encodeURIComponent(id)}/claim`);
        const detail = await call('GET', `/console/api/submissions/${encodeURIComponent(id)}`);
        const similar = await call('GET', `/console/api/submissions/${encodeURIComponent(id)}/similar`);
        if (live) {
          setClaim(c.data);
          setD(detail.data);
          setMatches(similar.data.matches);
        }
      } catch (err) {
        if (live) setError(err.message);
      }
    })();
    const onKey = (e) => {
      if (e.key === 'Escape') back();
      if (e.key === 'a' && e.target.tagName !== 'TEXTAREA') {
        e.preventDefault();
        notesRef.current?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => {
      live = false;
      removeEventListener('keydown', onKey);
      call('DELETE', `/console/api/submissions/${encodeURIComponent(id)}/claim`).catch(() => {});
    };
  }, [id]);
  const decideAs = async (kind) => {
    setError('');
    try {
      const seen = matches.length ? { seenMatches: matches.map((m) => m.id), acknowledgeMatches: acknowledged } : {};
      const body = kind === 'approve' ? { reviewNotes: notes, ...seen } : { reasonCode: reason, reviewNotes: notes };
      const r = await call('POST', `/console/api/submissions/${encodeURIComponent(id)}/${kind}`, body);
      setResult(r.data);
    } catch (err) {
      setError(err.message);
    }
  };
  if (error && !d) return html`<p class="error" role="alert">${error}</p><button onClick=${back}>Back to the queue</button>`;
  if (!d) return html`<p class="muted">Loading…</p>`;
  const blocked = claimState && !claimState.mine;
  const open = d.intakeStatus === 'awaiting_review' && !result;
  return html`<section class="detail" data-testid="detail">
    <div>
      <p><button onClick=${back}>← Queue (Esc)</button></p>
      <img class="large" src=${preview(d.submissionId, 'large')} alt=${`preview of ${d.fileName}`} />
    </div>
    <div>
      <h2>${d.fileName}</h2>
      ${blocked && html`<p class="claim" data-testid="claimed">In review by ${claimState.claimedBy} until ${new Date(claimState.claimedUntil).toLocaleTimeString()}</p>`}
      <dl class="meta">
        <dt>Status</dt><dd data-testid="status">${result ? result.intakeStatus : d.intakeStatus}</dd>
        <dt>Title</dt><dd>${d.title ?? ''}</dd>
        <dt>Partner</dt><dd>${d.partnerActorId} (${d.partnerOrganizationId ?? '?'})</dd>
        <dt>Tenant</dt><dd>${d.tenantId}</dd>
        <dt>Artist</dt><dd>${d.artistCanonicalId}: ${d.artistEvidence}${d.artistHasProfile ? '' : ', no runtime profile'}; ${artistOrgs(d)}</dd>
        <dt>Rights / consent</dt><dd>${d.rightsPosture} / ${d.consentPosture}</dd>
        <dt>Image</dt><dd>${d.imageFormat ?? d.mimeType}, ${d.width ?? '?'} × ${d.height ?? '?'}, ${kib(d.sizeBytes)}${d.imageFrames > 1 ? `, ${d.imageFrames} frames` : ''}</dd>
        <dt>sha256</dt><dd><code>${d.verifiedSha256 ?? ''}</code></dd>
        <dt>Tags</dt><dd>${(d.tags ?? []).join(', ')}</dd>
      </dl>
      <h3>Similar images</h3>
      <${Matches} matches=${matches} open=${openOther} />
      <h3>History</h3>
      <ol class="events">${d.events.map((e) => html`<li>${new Date(e.at).toLocaleString()}: ${e.fromStatus ?? '∅'} → <strong>${e.toStatus}</strong> by ${e.actorId}${e.note ? `: ${e.note}` : ''}</li>`)}</ol>
      ${open &&
      html`<form class="decide" onSubmit=${(e) => e.preventDefault()}>
        <label>Notes (3 to 2000 characters; <kbd>a</kbd>)<textarea ref=${notesRef} name="notes" value=${notes} onInput=${(e) => setNotes(e.target.value)}></textarea></label>
        ${matches.some((m) => m.flagged) &&
        html`<label><input type="checkbox" name="acknowledgeMatches" checked=${acknowledged} onChange=${(e) => setAcknowledged(e.target.checked)} />
          I looked at the similar images of another artist's work; my notes say why approving is right</label>`}
        <button class="primary" type="button" disabled=${blocked} onClick=${() => decideAs('approve')}>Approve</button>
        <label>Reject because <select name="reason" value=${reason} onChange=${(e) => setReason(e.target.value)}>${REASONS.map((r) => html`<option value=${r}>${r}</option>`)}</select></label>
        <button class="danger" type="button" disabled=${blocked} onClick=${() => decideAs('reject')}>Reject</button>
      </form>`}
      ${result && html`<p data-testid="result">Decided: <strong>${result.intakeStatus}</strong>. <button onClick=${back}>Next in the queue</button></p>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <p class="muted">Signed in as ${me.actorId}</p>
    </div>
  </section>`;
}

function Decisions() {
  const [rows, setRows] = useState(null);
  useEffect(() => void call('GET', '/console/api/decisions').then((r) => setRows(r.data)), []);
  if (!rows) return html`<p class="muted">Loading…</p>`;
  return html`<table class="queue" data-testid="decisions"><thead><tr><th>When</th><th>Who</th><th>Decision</th><th>File</th><th>Now</th><th>Notes</th></tr></thead>
    <tbody>${rows.map((r) => html`<tr><td>${new Date(r.at).toLocaleString()}</td><td>${r.actorId}</td><td>${r.decision}</td><td>${r.fileName}</td><td>${r.intakeStatus}</td><td>${r.note ?? ''}</td></tr>`)}</tbody></table>`;
}

function Published() {
  const [rows, setRows] = useState(null);
  const [plans, setPlans] = useState({});
  const [inputs, setInputs] = useState({});
  const [message, setMessage] = useState('');
  const load = () => call('GET', '/console/api/drafts').then((r) => setRows(r.data), (err) => setMessage(err.message));
  useEffect(() => void load(), []);
  const input = (key, field) => inputs[key]?.[field] ?? '';
  const setInput = (key, field, value) => setInputs({ ...inputs, [key]: { ...inputs[key], [field]: value } });
  const act = async (label, fn) => {
    setMessage('');
    try {
      await fn();
      await load();
      setMessage(label);
    } catch (err) {
      setMessage(err.message);
    }
  };
  const plan = (d) =>
    act(`Plan of ${d.fileName} below (nothing changed).`, async () => {
      const r = await call('POST', `/console/api/drafts/${d.documentId}/publish`, { dryRun: true, ...(input(d.documentId, 'artistId') ? { artistId: input(d.documentId, 'artistId') } : {}) });
      setPlans({ ...plans, [d.documentId]: r.data });
    });
  const publish = (d) =>
    act(`${d.fileName} published.`, () => call('POST', `/console/api/drafts/${d.documentId}/publish`, { dryRun: false, ...(input(d.documentId, 'artistId') ? { artistId: input(d.documentId, 'artistId') } : {}) }));
  const settle = (d) =>
    act(`Postures of ${d.fileName} settled.`, () =>
      call('POST', `/console/api/drafts/${d.documentId}/postures`, {
        ...(d.rightsPosture === 'review_required' ? { rightsPosture: 'artist_attested' } : {}),
        ...(d.consentPosture === 'review_required' ? { consentPosture: 'client_consented' } : {}),
        note: input(d.documentId, 'note'),
      }),
    );
  const unpublish = (d) => act(`${d.fileName} taken down.`, () => call('POST', `/console/api/assets/${d.assetId}/unpublish`, { dryRun: false, reason: input(d.documentId, 'reason') }));
  if (!rows) return html`<p class="muted">Loading…</p>${message && html`<p class="error" role="alert">${message}</p>`}`;
  return html`<section data-testid="published">
    ${message && html`<p role="status" data-testid="published-message">${message}</p>`}
    <table class="queue"><thead><tr><th>Draft</th><th>Artist</th><th>Rights / consent</th><th>Approved by</th><th>State</th><th>Actions</th></tr></thead>
    <tbody>${rows.map((d) => html`<tr key=${d.documentId} data-document=${d.documentId}>
      <td><strong>${d.fileName}</strong><br /><span class="muted">${d.title ?? ''} · ${d.documentId}</span></td>
      <td>${d.artistCanonicalId}</td>
      <td>${d.rightsPosture}<br />${d.consentPosture}</td>
      <td>${d.approvedBy}</td>
      <td data-testid="publication">${d.publication}</td>
      <td>${d.publication === 'draft' && html`
          <input placeholder="runtime artist id (if none linked)" name="artistId" value=${input(d.documentId, 'artistId')} onInput=${(e) => setInput(d.documentId, 'artistId', e.target.value)} />
          <button onClick=${() => plan(d)}>Plan</button> <button class="primary" name="publish" onClick=${() => publish(d)}>Publish</button>
          ${(d.rightsPosture === 'review_required' || d.consentPosture === 'review_required') && html`<br /><input placeholder="how the posture was established" name="note" value=${input(d.documentId, 'note')} onInput=${(e) => setInput(d.documentId, 'note', e.target.value)} /> <button name="settle" onClick=${() => settle(d)}>Settle posture</button>`}
          ${plans[d.documentId] && html`<pre data-testid="plan">${JSON.stringify({ verdict: plans[d.documentId].verdict, reasons: plans[d.documentId].reasons, asset: plans[d.documentId].asset, renditions: plans[d.documentId].renditions }, null, 1)}</pre>`}`}
        ${d.publication === 'published' && html`<input placeholder="reason for the takedown" name="reason" value=${input(d.documentId, 'reason')} onInput=${(e) => setInput(d.documentId, 'reason', e.target.value)} /> <button class="danger" name="unpublish" onClick=${() => unpublish(d)}>Unpublish</button>`}</td>
    </tr>`)}</tbody></table>
  </section>`;
}

function Evidence() {
  const [rows, setRows] = useState(null);
  const [inputs, setInputs] = useState({});
  const [message, setMessage] = useState('');
  const load = () => call('GET', '/console/api/resolutions').then((r) => setRows(r.data), (err) => setMessage(err.message));
  useEffect(() => void load(), []);
  const input = (id, f) => inputs[id]?.[f] ?? '';
  const setInput = (id, f, v) => setInputs({ ...inputs, [id]: { ...inputs[id], [f]: v } });
  const verify = async (r) => {
    setMessage('');
    try {
      await call('POST', `/console/api/resolutions/${r.resolutionId}/verify`, { artistCanonicalId: input(r.resolutionId, 'artist') || r.artistCanonicalId, note: input(r.resolutionId, 'note') });
      await load();
      setMessage('Evidence linked as verified_by_operator (review evidence, not legal identity verification).');
    } catch (err) {
      setMessage(err.message);
    }
  };
  if (!rows) return html`<p class="muted">Loading…</p>`;
  return html`<section data-testid="evidence">
    ${message && html`<p role="status" data-testid="evidence-message">${message}</p>`}
    ${rows.length === 0 && html`<p class="muted">No artist resolutions wait for review.</p>`}
    <table class="queue"><thead><tr><th>Asked by</th><th>Tenant</th><th>Status</th><th>Evidence</th><th>Link to artist</th></tr></thead>
    <tbody>${rows.map((r) => html`<tr key=${r.resolutionId} data-resolution=${r.resolutionId}>
      <td>${r.actorId}<br /><span class="muted">${new Date(r.createdAt).toLocaleString()}</span></td>
      <td>${r.tenantId}</td>
      <td>${r.status}${r.artistCanonicalId ? html`<br /><span class="muted">candidate ${r.artistCanonicalId}</span>` : ''}</td>
      <td>${Object.entries(r.evidence).map(([k, v]) => html`<div><span class="muted">${k}</span> ${v}</div>`)}</td>
      <td><input name="artist" placeholder="artist canonical id" value=${input(r.resolutionId, 'artist') || r.artistCanonicalId || ''} onInput=${(e) => setInput(r.resolutionId, 'artist', e.target.value)} />
        <input name="note" placeholder="how you established it" value=${input(r.resolutionId, 'note')} onInput=${(e) => setInput(r.resolutionId, 'note', e.target.value)} />
        <button class="primary" name="verify" onClick=${() => verify(r)}>Verify evidence</button></td>
    </tr>`)}</tbody></table>
  </section>`;
}

function App() {
  const [me, setMe] = useState(undefined);
  const [view, setView] = useState({ name: 'queue' });
  const loadMe = async () => {
    try {
      const r = await call('GET', '/console/api/me');
      csrf = r.data.csrf;
      setMe(r.data);
    } catch {
      setMe(null);
    }
  };
  useEffect(() => void loadMe(), []);
  if (me === undefined) return html`<p class="muted">Loading…</p>`;
  if (me === null) return html`<${SignIn} onSignedIn=${loadMe} />`;
  const signOut = async () => {
    await call('DELETE', '/console/api/session').catch(() => {});
    setMe(null);
  };
  const tab = (name, label) => html`<button aria-current=${view.name === name ? 'page' : undefined} onClick=${() => setView({ name })}>${label}</button>`;
  return html`<header><strong>Review console</strong><nav>${tab('queue', 'Queue')}${tab('decisions', 'Recent decisions')}${tab('published', 'Published assets')}${tab('evidence', 'Identity evidence')}</nav>
      <span class="who">${me.actorId} · <button onClick=${signOut}>Sign out</button></span></header>
    <main>${view.name === 'queue' && html`<${Queue} open=${(id) => setView({ name: 'detail', id })} />`}
      ${view.name === 'detail' && html`<${Detail} key=${view.id} id=${view.id} me=${me} back=${() => setView({ name: 'queue' })} open=${(id) => setView({ name: 'detail', id })} />`}
      ${view.name === 'decisions' && html`<${Decisions} />`}
      ${view.name === 'published' && html`<${Published} />`}
      ${view.name === 'evidence' && html`<${Evidence} />`}</main>`;
}

render(html`<${App} />`, document.getElementById('app'));
