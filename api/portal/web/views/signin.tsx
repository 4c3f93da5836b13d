// Sign in with an access token (or arrive from a one-time link, which may have expired).
import { useState } from 'preact/hooks';
import { api, attempt, must, type Me } from '../api';

const EXPIRED = 'That sign-in link was used already or has expired: ask for a new one.';

export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(new URLSearchParams(location.search).get('signin') === 'expired' ? EXPIRED : '');
  const submit = async (e: Event) => {
    e.preventDefault();
    await attempt(setError, async () => onSignedIn((await must(api.POST('/portal/api/session', { body: { token: token.trim() } }))).data));
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
