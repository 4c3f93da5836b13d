// The partner portal's page: sign in, see the organization's keys, create, rotate and revoke them,
// hand a new key to the docs ("Try it in the docs"), and manage webhook endpoints. Preact views of
// one idea each (views/), a client typed from the route list (api.ts). Bundled by esbuild
// (scripts/build.ts; the API bundles it in memory outside production). It talks only to /portal/api,
// sending X-Portal-CSRF on every write.
import { render } from 'preact';
import { useSession } from './session';
import { Keys } from './views/keys';
import { SignIn } from './views/signin';
import { Webhooks } from './views/webhooks';

function App() {
  const { me, signedIn, signOut } = useSession();
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
