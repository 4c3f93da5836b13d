// Who is signed in: asked of /portal/api/me on load, set by sign-in, cleared by sign-out. The CSRF
// token of the session goes to the client for every write.
import { useEffect, useState } from 'preact/hooks';
import { api, must, setCsrf, type Me } from './api';

/** undefined while asking, null when signed out. */
export function useSession() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const enter = (m: Me) => {
    setCsrf(m.csrfToken);
    setMe(m);
  };
  useEffect(() => {
    must(api.GET('/portal/api/me')).then((r) => enter(r.data), () => setMe(null));
  }, []);
  const signedIn = (m: Me) => {
    history.replaceState(null, '', '/portal');
    enter(m);
  };
  const signOut = async () => {
    await api.DELETE('/portal/api/session');
    setCsrf('');
    setMe(null);
  };
  return { me, signedIn, signOut };
}
