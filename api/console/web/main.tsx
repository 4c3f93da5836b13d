// The review console: Preact views of one idea each
// (views/), a client typed from the route list (api.ts), and a URL for every view (router.ts).
// Bundled by esbuild into a hashed asset (api/console/router.ts, scripts/build.ts). It talks only to
// /console/api with the session cookie, sending X-Console-CSRF on every write.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, must, problemText, setCsrf, type Me, type Problem } from './api';
import { linkTo, useView, type View } from './router';
import { Decisions } from './views/decisions';
import { Detail } from './views/detail';
import { Evidence } from './views/evidence';
import { Published } from './views/published';
import { Queue } from './views/queue';
import { Status } from './views/status';

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(
    new URLSearchParams(location.search).get('signin') === 'expired' ? 'That sign-in link was used or has expired: ask `npm start` (or npm run iam -- console-link) for a new one, or paste your token.' : '',
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await api.POST('/console/api/session', { body: { token: token.trim() } });
    if (r.error !== undefined || !r.response.ok) setError(problemText(r.error as Problem, r.response.status));
    else onSignedIn();
  };
  return (
    <form class="signin" onSubmit={(e) => void submit(e)} data-testid="signin">
      <h1>Review console</h1>
      <p>
        Sign in with your operator bearer token (with an external identity provider, your provider's access token). On the embedded stack, <code>npm start</code> prints a
        one-time sign-in link.
      </p>
      <label for="token">Operator token</label>
      <textarea id="token" value={token} onInput={(e) => setToken((e.target as HTMLTextAreaElement).value)} />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p>
        <button class="primary" type="submit">
          Sign in
        </button>
      </p>
    </form>
  );
}

const TABS: { view: View; label: string }[] = [
  { view: { name: 'queue' }, label: 'Queue' },
  { view: { name: 'status' }, label: 'Where things stand' },
  { view: { name: 'decisions' }, label: 'Recent decisions' },
  { view: { name: 'published' }, label: 'Published assets' },
  { view: { name: 'evidence' }, label: 'Identity evidence' },
];

const TITLES: Record<View['name'], string> = {
  queue: 'Queue',
  submission: 'Submission',
  status: 'Where things stand',
  decisions: 'Recent decisions',
  published: 'Published assets',
  evidence: 'Identity evidence',
};

function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const view = useView();
  const loadMe = async () => {
    try {
      const r = await must(api.GET('/console/api/me'));
      setCsrf(r.data.csrf);
      setMe(r.data);
    } catch {
      setMe(null);
    }
  };
  useEffect(() => void loadMe(), []);
  useEffect(() => {
    document.title = `${view ? TITLES[view.name] : 'Not found'} · Review console`;
  }, [view]);
  if (me === undefined) return <p class="muted">Loading…</p>;
  if (me === null) return <SignIn onSignedIn={() => void loadMe()} />;
  const signOut = async () => {
    await api.DELETE('/console/api/session').catch(() => undefined);
    setMe(null);
  };
  const current = view?.name === 'submission' ? 'queue' : view?.name;
  return (
    <>
      <header>
        <strong>Review console</strong>
        <nav>
          {TABS.map((t) => (
            <a key={t.view.name} {...linkTo(t.view)} aria-current={current === t.view.name ? 'page' : undefined}>
              {t.label}
            </a>
          ))}
        </nav>
        <span class="who">
          {me.actorId} · <button onClick={() => void signOut()}>Sign out</button>
        </span>
      </header>
      <div class="content">
        {!view && (
          <p class="error" role="alert">
            No such page in the console. <a {...linkTo({ name: 'queue' })}>Go to the queue</a>.
          </p>
        )}
        {view?.name === 'queue' && <Queue />}
        {view?.name === 'submission' && <Detail key={view.id} id={view.id} me={me} />}
        {view?.name === 'status' && <Status />}
        {view?.name === 'decisions' && <Decisions />}
        {view?.name === 'published' && <Published />}
        {view?.name === 'evidence' && <Evidence />}
      </div>
    </>
  );
}

render(<App />, document.getElementById('app')!);
